import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, httpFields, loadConfig, logSchema } from '../src/index.js';

const schema = z.strictObject({
  dataDir: z.string().default('./data'),
  log: logSchema,
  bench: z.strictObject({ ...httpFields(6610), tags: z.array(z.string()).default([]) }).prefault({}),
});

function tomlFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'atrium-config-')), 'atrium.toml');
  writeFileSync(file, text);
  return file;
}

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies defaults when nothing is given', () => {
    const config = loadConfig(schema, { env: {} });
    expect(config.bench).toMatchObject({ bind: '127.0.0.1', port: 6610, bodyLimit: 1_048_576, corsOrigins: ['*'] });
    expect(config.log).toEqual({ level: 'info', access: true });
  });

  it('has server timeouts and a connection cap, settable from the environment', () => {
    expect(loadConfig(schema, { env: {} }).bench).toMatchObject({
      requestTimeoutMs: 60_000,
      headersTimeoutMs: 15_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 4096,
    });
    const env = {
      ATRIUM_BENCH_REQUEST_TIMEOUT_MS: '30000',
      ATRIUM_BENCH_HEADERS_TIMEOUT_MS: '5000',
      ATRIUM_BENCH_KEEP_ALIVE_TIMEOUT_MS: '65000',
      ATRIUM_BENCH_MAX_CONNECTIONS: '100',
    };
    expect(loadConfig(schema, { env }).bench).toMatchObject({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 5_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 100,
    });
  });

  it('layers file < environment < overrides', () => {
    const file = tomlFile('dataDir = "/from-file"\n[bench]\nport = 7000\nbind = "0.0.0.0"\n');
    const config = loadConfig(schema, {
      file,
      env: { ATRIUM_BENCH_PORT: '7001', ATRIUM_BENCH_TAGS: 'a,b' },
      overrides: { dataDir: '/from-flag' },
    });
    expect(config.dataDir).toBe('/from-flag');
    expect(config.bench.port).toBe(7001);
    expect(config.bench.bind).toBe('0.0.0.0');
    expect(config.bench.tags).toEqual(['a', 'b']);
  });

  it.each([
    [
      'a port of abc in the environment',
      {},
      { ATRIUM_BENCH_PORT: 'abc' },
      /^config error: bench\.port: .*"abc".*\[from ATRIUM_BENCH_PORT\]$/,
    ],
    ['a port of abc in the file', { toml: '[bench]\nport = "abc"\n' }, {}, /^config error: bench\.port: .*"abc"/],
    ['a port out of range', {}, { ATRIUM_BENCH_PORT: '70000' }, /^config error: bench\.port: must be a port number/],
    ['an unknown key', { toml: '[bench]\nprot = 1\n' }, {}, /^config error: bench: .*prot/],
    ['a bad log level', {}, { ATRIUM_LOG_LEVEL: 'loud' }, /^config error: log\.level: /],
    [
      'a bad database url',
      {},
      { ATRIUM_BENCH_DATABASE: 'mysql://x' },
      /^config error: bench\.database: must start with/,
    ],
    ['invalid TOML', { toml: '[bench\n' }, {}, /^config error: file .*: invalid TOML/],
  ])('rejects %s with one line naming the key', (_name, source, env, pattern) => {
    const file = 'toml' in source ? tomlFile(source.toml) : undefined;
    const error = errorOf(() => loadConfig(schema, { file, env }));
    expect(error.message).toMatch(pattern);
    expect(error.message).not.toContain('\n');
    expect(error.exitCode).toBe(2);
  });

  it('names a missing config file', () => {
    expect(errorOf(() => loadConfig(schema, { file: '/nonexistent/atrium.toml', env: {} })).message).toBe(
      'config error: file /nonexistent/atrium.toml: not found',
    );
  });
});
