import { UsageError } from '../../usage.js';
import { type OptionSpecs, parseNumber, type Values } from './args.js';

/** The local self-hosted server (`atrium bench up`). */
export const DEFAULT_HOST = 'http://localhost:6610';

/** Options of every subcommand that talks to the API. */
export const BACKEND_OPTIONS: OptionSpecs = {
  host: { type: 'string' },
  key: { type: 'string' },
  token: { type: 'string' },
  'insecure-host': { type: 'boolean' },
  'native-tls': { type: 'boolean' },
  timeout: { type: 'string' },
  attempts: { type: 'string' },
  'retry-after': { type: 'string' },
  strict: { type: 'boolean' },
};

export interface Backend {
  host: URL;
  /** A user or project API key, or a (deprecated) JWT API token: sent as `Authorization: Bearer …`. */
  credential: string | undefined;
  insecureHost: boolean;
  nativeTls: boolean;
  timeoutMs: number;
  attempts: number;
  retryAfterMs: number;
  strict: boolean;
}

/** Atrium's API keys and Bencher's (`atrium_user_…`, `bencher_run_…`); project keys are the `run` kind. */
const API_KEY = /^(atrium|bencher)_(user|run)_/;
const PROJECT_KEY = /^(atrium|bencher)_run_/;

export const isProjectKey = (credential: string | undefined) =>
  credential !== undefined && PROJECT_KEY.test(credential);

/**
 * `ATRIUM_BENCH_HOST` doubles as the server's bind address in `atrium serve`; a bare host name there
 * (no scheme) is read as that host on the default port.
 */
function hostUrl(raw: string): URL {
  const withScheme = raw.includes('://') ? raw : `http://${raw}:6610`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`--host must be a URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--host must be http(s), got '${raw}'`);
  return url;
}

function credentialOf(values: Values): string | undefined {
  const key = values.string('key', 'ATRIUM_BENCH_KEY', 'BENCHER_API_KEY');
  const token = values.string('token', 'BENCHER_API_TOKEN');
  if (typeof values.line.values.key === 'string' && typeof values.line.values.token === 'string') {
    throw new UsageError('--key and --token are mutually exclusive');
  }
  if (key !== undefined) return key;
  if (token !== undefined && API_KEY.test(token)) {
    throw new UsageError('--token takes a JSON Web Token; pass API keys (atrium_user_…, atrium_run_…) with --key');
  }
  return token;
}

const seconds = (values: Values, name: string, fallback: number, min: number) => {
  const raw = values.string(name);
  return raw === undefined ? fallback : parseNumber(`--${name}`, raw, { min, max: 900 });
};

export function backendFrom(values: Values): Backend {
  const attempts = values.string('attempts');
  return {
    host: hostUrl(values.string('host', 'ATRIUM_BENCH_HOST', 'BENCHER_HOST') ?? DEFAULT_HOST),
    credential: credentialOf(values),
    insecureHost: values.flag('insecure-host'),
    nativeTls: values.flag('native-tls'),
    timeoutMs: seconds(values, 'timeout', 15, 0.001) * 1000,
    attempts: attempts === undefined ? 10 : parseNumber('--attempts', attempts, { min: 1, max: 1000, integer: true }),
    retryAfterMs: seconds(values, 'retry-after', 3, 0) * 1000,
    strict: values.flag('strict'),
  };
}
