import { createHash } from 'node:crypto';
import type { ModelConfig } from './config.js';

/** Model id -> a hash of its definition (`created` aside, which defaults to each process's start time). */
export type CatalogueFingerprint = Record<string, string>;

export interface CatalogueChange {
  added: string[];
  removed: string[];
  changed: string[];
}

/** Hashes, not definitions: a definition can hold an upstream's API key. */
export function fingerprintOf(models: readonly ModelConfig[]): CatalogueFingerprint {
  return Object.fromEntries(
    models.map(({ created: _, ...definition }) => [
      definition.id,
      createHash('sha256').update(JSON.stringify(definition)).digest('hex').slice(0, 16),
    ]),
  );
}

export function diffCatalogues(before: CatalogueFingerprint, after: CatalogueFingerprint): CatalogueChange {
  const ids = (list: CatalogueFingerprint) => Object.keys(list).sort();
  return {
    added: ids(after).filter((id) => !Object.hasOwn(before, id)),
    removed: ids(before).filter((id) => !Object.hasOwn(after, id)),
    changed: ids(after).filter((id) => Object.hasOwn(before, id) && before[id] !== after[id]),
  };
}

export const isNoChange = (change: CatalogueChange) =>
  change.added.length + change.removed.length + change.changed.length === 0;
