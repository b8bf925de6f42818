import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeGracefully } from '@atrium/core';
import { listen, silentLogger, until } from '@atrium/core/testing';
import OpenAI from 'openai';
import { expect, it } from 'vitest';
import { buildInferenceApp, type InferenceConfig, inferenceConfigSchema, TEST_MODEL_REPLY } from '../src/index.js';
import { testModelFile } from './support/engines.js';
import { apiError, TEST_KEY } from './support/gateway.js';

/** The models of the engine processes this process runs (their options are their argument). */
function runningEngines(): string[] {
  const lines = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return [...lines.matchAll(/"modelName":"([^"]+)"/g)].map((m) => m[1] as string).sort();
}

it('a reload starts the engine of an added model and stops a removed one once the requests before it end', async () => {
  const model = testModelFile();
  const dataDir = mkdtempSync(join(tmpdir(), 'atrium-reload-engines-'));
  const catalogue = (id: string): InferenceConfig =>
    inferenceConfigSchema.parse({
      port: 0,
      auth: { demoKey: TEST_KEY },
      models: [{ id, contextLength: 2048, backend: { type: 'embedded', path: model.path } }],
    });
  let config = catalogue('acme/a');
  const app = await buildInferenceApp(config, {
    logger: silentLogger,
    dataDir,
    accessLog: false,
    readConfig: () => config,
  });
  try {
    const base = await listen(app);
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: `${base}/v1`, maxRetries: 0, timeout: 20_000 });
    expect(runningEngines()).toEqual(['acme/a']);

    // A request under way across the reload: its headers are in, its body is not.
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${TEST_KEY}\r\n` +
        'content-type: application/json\r\ncontent-length: 1000\r\n\r\n{"model":',
    );
    await sleep(300);

    config = catalogue('acme/b');
    process.kill(process.pid, 'SIGHUP');
    await until(
      async () => (await client.models.list()).data.map((m) => m.id).join() === 'acme/b',
      30_000,
      'the new catalogue is served',
    );
    const answer = await client.chat.completions.create({
      model: 'acme/b',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe(TEST_MODEL_REPLY);
    const refused = await apiError(
      client.chat.completions.create({ model: 'acme/a', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect([refused.status, refused.code]).toEqual([404, 'model_not_found']);
    await sleep(500);
    expect(runningEngines()).toEqual(['acme/a', 'acme/b']);

    socket.destroy();
    await until(() => runningEngines().join() === 'acme/b', 10_000, 'the removed model’s engine stops');
  } finally {
    await closeGracefully(app, 2_000);
    rmSync(dataDir, { recursive: true, force: true });
    model.remove();
  }
}, 90_000);
