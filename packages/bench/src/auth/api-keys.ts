import { createHash, randomInt } from 'node:crypto';

/**
 * Atrium's API keys: `atrium_user_` or `atrium_run_` followed by 30 ASCII alphanumerics. Only the
 * sha256 hex of a key is stored. Bencher's own `bencher_user_`/`bencher_run_` prefixes are read too.
 */
export const KEY_PREFIX = 'atrium';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_SHAPE = /^(?:atrium|bencher)_(user|run)_[A-Za-z0-9]{30}$/;

export type KeyKind = 'user' | 'run';

export function generateApiKey(kind: KeyKind): string {
  let secret = '';
  for (let i = 0; i < 30; i++) secret += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return `${KEY_PREFIX}_${kind}_${secret}`;
}

/** The kind of a well-formed key, undefined for anything else (e.g. a JWT). */
export const apiKeyKind = (credential: string): KeyKind | undefined =>
  KEY_SHAPE.exec(credential)?.[1] as KeyKind | undefined;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** `m***@example.com`: user emails never appear whole in error messages. */
export function obfuscateEmail(email: string): string {
  const at = email.indexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
