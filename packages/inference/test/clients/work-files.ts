import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `notes.txt` says: the tool round trips read it. */
export const NOTES = 'The secret word is PERIWINKLE.';

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A client's working directory `dir` (created) with `notes.txt` and `pixel.png`; returns their paths. */
export function writeWorkFiles(dir: string): { dir: string; notes: string; image: string } {
  mkdirSync(dir, { recursive: true });
  const notes = join(dir, 'notes.txt');
  const image = join(dir, 'pixel.png');
  writeFileSync(notes, `${NOTES}\n`);
  writeFileSync(image, PIXEL);
  return { dir, notes, image };
}
