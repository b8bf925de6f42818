import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildTestModel } from './test-model.js';

export const TEST_MODEL_ID = 'atrium/tiny-test-model';

export const testModelPath = (dataDir: string) => join(dataDir, 'models', 'atrium-tiny-test-model.gguf');

/** Writes the generated test model to `path` (atomically, so a half-written file is never loaded). */
export function writeTestModel(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.partial`;
  writeFileSync(partial, buildTestModel());
  renameSync(partial, path);
}

/** Generates the test model at `path` unless a file is already there. */
export function ensureTestModel(path: string): void {
  if (!existsSync(path)) writeTestModel(path);
}
