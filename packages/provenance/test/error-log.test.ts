import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CapturedLog, captureLog, listen } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProvenanceApp, provenanceConfigSchema } from '../src/index.js';
import { getJson } from './support/fixtures.js';
import { postQuery } from './support/querybuilder.js';

describe('the provenance log never holds query strings or bodies (M2)', () => {
  let app: FastifyInstance;
  let base: string;
  let log: CapturedLog;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-provenance-'));
    log = captureLog('trace');
    app = await buildProvenanceApp(provenanceConfigSchema.parse({ port: 0 }), {
      logger: log.logger,
      dataDir,
      accessLog: true,
    });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it.each([
    ['a full_type the reference refuses with 500', () => getJson(`${base}/api/v4/nodes/?full_type="QS-SENTINEL-7731"`)],
    [
      'a QueryBuilder projection the reference refuses with 500',
      () =>
        postQuery(base, { path: [{ entity_type: 'node.Node.', tag: 'n' }], project: { n: ['BODY-SENTINEL-8842'] } }),
    ],
    [
      'an unsupported QueryBuilder operator',
      () =>
        postQuery(base, {
          path: [{ entity_type: '', tag: 'n' }],
          project: { n: ['id'] },
          filters: { n: { id: { 'OP-SENTINEL-5512': 1 } } },
        }),
    ],
  ])('%s: answered with the message, logged with the route only', async (_, request) => {
    const before = log.text().length;
    const { status, body } = await request();
    expect(status).toBe(500);
    expect(body.message).toMatch(/SENTINEL/);
    const written = log.text().slice(before);
    expect(written).toContain('/api/v4/');
    expect(written).not.toMatch(/SENTINEL/);
    expect(written).not.toContain('"level":50');
  });
});
