import type { BenchConfig } from '../config.js';

/** What secrets read as in `JsonConfig`, as Bencher sanitises them. */
export const REDACTED = '************';

type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'critical';

/** Pino levels to Bencher's; `fatal` and `silent` (nothing below fatal) both read as `critical`. */
const LOG_LEVELS: Record<string, LogLevel> = {
  trace: 'trace',
  debug: 'debug',
  info: 'info',
  warn: 'warn',
  error: 'error',
  fatal: 'critical',
  silent: 'critical',
};

/** The database's location without credentials: a SQLite path, or a PostgreSQL URL with its password redacted. */
export function databaseLocation(url: string): string {
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length);
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = REDACTED;
    return parsed.toString();
  } catch {
    return REDACTED;
  }
}

/** `JsonConfig`: the running configuration in Bencher's shape, secrets redacted. */
export const jsonServerConfig = (config: BenchConfig, consoleUrl: string, databaseUrl: string, logLevel: string) => ({
  server: { bind_address: `${config.bind}:${config.port}`, request_body_max_bytes: config.bodyLimit, tls: null },
  logging: { name: 'atrium-bench', log: { stderr_terminal: { level: LOG_LEVELS[logLevel] ?? 'info' } } },
  database: { file: databaseLocation(databaseUrl), data_store: null },
  console: { url: consoleUrl },
  security: { issuer: config.security.issuer, secret_key: REDACTED },
  smtp: null,
  /** Atrium's daily limits have no counterpart among Bencher Plus's settings. */
  plus: null,
});
