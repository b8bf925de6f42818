import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineProcess, spawnEngine, writeTestModel } from '../../src/index.js';

export interface TestModelFile {
  path: string;
  remove(): void;
}

/** The generated test model in a temp directory. */
export function testModelFile(): TestModelFile {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-model-'));
  const path = join(dir, 'tiny.gguf');
  writeTestModel(path);
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An engine process serving `modelPath` as `modelName` on a free loopback port. */
export function startEngine(modelPath: string, modelName: string): Promise<EngineProcess> {
  return spawnEngine({ modelPath, modelName, threads: 1, sequences: 2, contextSize: 2048, host: '127.0.0.1', port: 0 });
}
