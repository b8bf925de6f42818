import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInferenceApp, inferenceConfigSchema } from '../src/index.js';

describe('inference /v1/models', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-inference-'));
    const config = inferenceConfigSchema.parse({
      port: 0,
      ownedBy: 'atrium-test',
      auth: { demoKey: 'sk-models-test-key' },
      models: [
        {
          id: 'qwen/qwen3-coder',
          created: 1_735_689_600,
          contextLength: 262_144,
          backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] },
        },
      ],
    });
    app = await buildInferenceApp(config, { logger: silentLogger, dataDir, accessLog: false });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('lists the configured models', async () => {
    const response = await fetch(`${base}/v1/models`, { headers: { authorization: 'Bearer sk-models-test-key' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      object: 'list',
      data: [
        {
          id: 'qwen/qwen3-coder',
          object: 'model',
          created: 1_735_689_600,
          owned_by: 'atrium-test',
          max_model_len: 262_144,
        },
      ],
    });
  });

  it('answers errors in the OpenAI envelope', async () => {
    const response = await fetch(`${base}/v1/nothing`, { headers: { authorization: 'Bearer sk-models-test-key' } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { message: 'no route for GET /v1/nothing', type: 'invalid_request_error', param: null, code: 'not_found' },
    });
  });
});
