import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeGracefully } from '@atrium/core';
import { listen, silentLogger } from '@atrium/core/testing';
import { expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema } from '../src/index.js';
import { TEST_KEY } from './support/gateway.js';

const catalogue = (id: string) =>
  inferenceConfigSchema.parse({
    port: 0,
    auth: { demoKey: TEST_KEY },
    models: [{ id, contextLength: 4096, backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] } }],
  });

it('a configuration changed between reading it and starting is loaded at once (a reload published meanwhile is not missed)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-reload-start-'));
  const app = await buildInferenceApp(catalogue('acme/read-at-start'), {
    logger: silentLogger,
    dataDir,
    accessLog: false,
    readConfig: () => catalogue('acme/on-disk-now'),
  });
  try {
    const base = await listen(app);
    await expect
      .poll(
        async () => {
          const response = await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}` } });
          return ((await response.json()) as { data: { id: string }[] }).data.map((m) => m.id);
        },
        { timeout: 5_000, interval: 50 },
      )
      .toEqual(['acme/on-disk-now']);
  } finally {
    await closeGracefully(app, 2_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
