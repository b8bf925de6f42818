import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen, silentLogger } from '@atrium/core/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProvenanceApp, provenanceConfigSchema } from '../src/index.js';

describe('provenance app with the default configuration (the bundled archive)', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'atrium-provenance-'));
    const config = provenanceConfigSchema.parse({ port: 0, aiidaVersion: '2.7.1' });
    app = await buildProvenanceApp(config, { logger: silentLogger, dataDir, accessLog: false });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it.each(['/api/v4/server/', '/api/v4/server'])('GET %s answers AiiDA server info', async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('1');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const text = await response.text();
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      data: {
        API_major_version: '4',
        API_minor_version: '1',
        API_prefix: '/api/v4',
        API_revision_version: '0',
        AiiDA_version: '2.7.1',
      },
      method: 'GET',
      path,
      query_string: '',
      resource_type: 'Info',
      url: `${base}${path}`,
      url_root: `${base}/`,
    });
    expect(Object.keys(JSON.parse(text))).toEqual([...Object.keys(JSON.parse(text))].sort());
  });

  it('serves the bundled fixture archive', async () => {
    const response = await fetch(`${base}/api/v4/nodes/statistics`);
    expect(((await response.json()) as { data: { total: number } }).data.total).toBe(10);
  });

  it('answers unknown routes with AiiDA not-found message', async () => {
    const response = await fetch(`${base}/api/v4/nothing`);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { message: string; available_endpoints: string[] };
    expect(body.message).toBe('The requested URL is not found on the server.');
    expect(body.available_endpoints).toHaveLength(46);
  });
});
