import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@atrium/core';
import { silentLogger } from '@atrium/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineSupervisor, restartDelay } from '../src/engine/supervisor.js';
import { buildInferenceApp, inferenceConfigSchema, spawnEngine } from '../src/index.js';
import { type TestModelFile, testModelFile } from './support/engines.js';

const options = (modelPath: string) => ({
  modelPath,
  modelName: 'atrium/tiny',
  threads: 1,
  sequences: 1,
  contextSize: 512,
  host: '127.0.0.1',
  port: 0,
});

describe('restartDelay', () => {
  it.each([
    [0, 500],
    [1, 500],
    [2, 1_000],
    [4, 4_000],
    [10, 30_000],
  ])('after %i failures waits %i ms', (failures, delay) => {
    expect(restartDelay(failures)).toBe(delay);
  });
});

describe('engine processes', () => {
  let model: TestModelFile;
  beforeAll(() => {
    model = testModelFile();
  });
  afterAll(() => model.remove());

  it('restarts a killed engine, and the new one serves', async () => {
    const events: string[] = [];
    let ready: (origin: string) => void = () => {};
    const nextReady = () => new Promise<string>((resolve) => (ready = resolve));
    const backoff = { initialMs: 50, maxMs: 1_000, stableMs: 60_000 };
    const supervisor = new EngineSupervisor(
      options(model.path),
      silentLogger,
      {
        onReady: (origin) => {
          events.push('ready');
          ready(origin);
        },
        onDown: () => events.push('down'),
      },
      backoff,
    );
    try {
      const first = nextReady();
      await supervisor.start();
      await first;
      const second = nextReady();
      process.kill(supervisor.pid as number, 'SIGKILL');
      const origin = await second;
      expect(events).toEqual(['ready', 'down', 'ready']);
      const health = await fetch(`${origin}/health`);
      expect(health.status).toBe(200);
    } finally {
      await supervisor.stop();
    }
    expect(supervisor.pid).toBeUndefined();
  }, 60_000);

  it('a malformed model file fails the engine process, not the caller', async () => {
    const broken = join(model.path, '..', 'broken.gguf');
    writeFileSync(broken, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(64, 0xff)]));
    await expect(spawnEngine(options(broken))).rejects.toThrow(
      /engine for atrium\/tiny (failed to start|exited during start-up)/,
    );
  }, 60_000);

  it('refuses to start the gateway when a configured model file does not exist', async () => {
    const config = inferenceConfigSchema.parse({
      models: [
        { id: 'acme/missing', contextLength: 512, backend: { type: 'embedded', path: '/nonexistent/model.gguf' } },
      ],
    });
    const dataDir = join(model.path, '..');
    const build = buildInferenceApp(config, { logger: silentLogger, dataDir, accessLog: false });
    await expect(build).rejects.toThrow(ConfigError);
    await expect(build).rejects.toThrow(/acme\/missing: backend.path \/nonexistent\/model.gguf: no such file/);
  });
});
