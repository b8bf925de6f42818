import { createHash } from 'node:crypto';
import type { InferenceConfig } from '../config.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

/** The bearer tokens the gateway accepts: the configured static keys, or else the demo key. */
export function acceptedKeys(config: InferenceConfig): string[] {
  return config.auth.staticKeys.length > 0 ? config.auth.staticKeys : [config.auth.demoKey];
}

/**
 * Accepted keys, held only as SHA-256 digests. A lookup hashes the presented token first, so the time taken
 * says nothing about how much of a real key the caller guessed.
 */
export class KeyRing {
  private readonly digests: ReadonlySet<string>;

  constructor(keys: readonly string[]) {
    this.digests = new Set(keys.map(sha256));
  }

  accepts(token: string): boolean {
    return this.digests.has(sha256(token));
  }
}
