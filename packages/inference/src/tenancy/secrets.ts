import { createHash, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;

/** A new API key secret: `sk-` and 40 uniformly random base62 characters (~238 bits). */
export function generateSecret(): string {
  let secret = 'sk-';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += BASE62[randomInt(62)];
  return secret;
}

/**
 * How a secret is stored and looked up. A fast hash is enough: the secret has ~238 random bits, so
 * there is nothing to brute-force, and the lookup stays cheap on every request.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Trimmed and case-folded, so `Laptop` and ` laptop ` are the same alias. */
export const aliasKey = (alias: string): string => alias.trim().normalize('NFKC').toLocaleLowerCase('und');
