import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@atrium/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { describeInference } from '../src/banner.js';
import { buildInferenceApp, inferenceConfigSchema } from '../src/index.js';

describe('first-start demo data', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function start(dataDir: string, auth: Record<string, unknown>) {
    const config = inferenceConfigSchema.parse({
      auth,
      models: [{ id: 'acme/m', contextLength: 100, backend: { type: 'upstream', replicas: ['http://127.0.0.1:9'] } }],
    });
    const app = await buildInferenceApp(config, { logger: silentLogger, dataDir, accessLog: false });
    const banner = describeInference(config, 'http://127.0.0.1:8000');
    const models = await app.inject({
      url: '/v1/models',
      headers: { authorization: `Bearer ${auth.demoKey ?? 'none'}` },
    });
    await app.close();
    return { banner, modelsStatus: models.statusCode };
  }

  it('creates a demo account and key once, prints both once, and follows ATRIUM_DEMO_KEY later (masked)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-demo-'));
    dirs.push(dataDir);
    const first = await start(dataDir, { demoKey: 'sk-first-demo-key' });
    expect(first.banner).toMatch(/demo account: demo@atrium\.local {2}password: \S{16}/);
    expect(first.banner).toContain('demo API key: sk-first-demo-key');
    expect(first.modelsStatus).toBe(200);
    const again = await start(dataDir, { demoKey: 'sk-second-demo-key' });
    expect(again.banner).not.toMatch(/password: /);
    expect(again.banner).toContain('demo API key: sk-…-key ');
    expect(again.banner).not.toContain('sk-second-demo-key');
    expect(again.modelsStatus).toBe(200);
    expect((await start(dataDir, { demoKey: 'sk-first-demo-key' })).modelsStatus).toBe(200);
  });

  it('prints a random sk- key when none is configured; demo = false creates nothing', async () => {
    const random = mkdtempSync(join(tmpdir(), 'atrium-demo-'));
    const none = mkdtempSync(join(tmpdir(), 'atrium-demo-'));
    dirs.push(random, none);
    expect((await start(random, {})).banner).toMatch(/demo API key: sk-[0-9A-Za-z]{40} /);
    const skipped = await start(none, { demo: false, demoKey: 'sk-unused-demo-key' });
    expect(skipped.banner).not.toContain('demo');
    expect(skipped.banner).toContain('web UI: http://127.0.0.1:8000/ui/');
    expect(skipped.banner).toContain('no operator yet: atrium inference create-account --admin');
    expect(skipped.modelsStatus).toBe(401);
  });
});
