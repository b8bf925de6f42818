import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchConfig } from './config.js';

/** The configured JWT secret, else one generated once and kept (mode 0600) in the data directory. */
export function jwtSecretFor(config: BenchConfig, dataDir: string): string {
  if (config.security.secretKey) return config.security.secretKey;
  const path = join(dataDir, 'bench-jwt-secret');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
