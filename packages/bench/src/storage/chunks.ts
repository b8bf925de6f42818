import { setImmediate as nextTurn } from 'node:timers/promises';

/** Values per `in (…)` list or rows per multi-row INSERT: well below SQLite's 32766 bound parameters. */
export const CHUNK = 500;

/**
 * Consecutive slices of at most `size` items. Between two slices other requests get the event loop:
 * SQLite statements run synchronously, and a large report must not hold the process for its whole length.
 */
export async function* chunks<T>(items: readonly T[], size = CHUNK): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await nextTurn();
    yield items.slice(i, i + size);
  }
}
