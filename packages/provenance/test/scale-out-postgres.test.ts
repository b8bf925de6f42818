// Scale-out of the read-only provenance service: two real `atrium serve --services provenance` processes (from
// dist/: run `npx tsc -b` first) over one AiiDA PostgreSQL database answer the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadArchiveIntoPostgres } from '../../../bench/lib/aiida-postgres.js';
import { postgresSchema, type Running, startService } from '../../../bench/lib/atrium-serve.js';

const ARCHIVE = fileURLToPath(new URL('../fixtures/export_main_0001_simple.aiida', import.meta.url));

describe('provenance scale-out: two processes over one AiiDA PostgreSQL database', () => {
  const servers: Running[] = [];
  let schema: Awaited<ReturnType<typeof postgresSchema>>;
  let cacheDir: string;

  beforeAll(async () => {
    schema = await postgresSchema();
    cacheDir = mkdtempSync(join(tmpdir(), 'atrium-provenance-scale-'));
    await loadArchiveIntoPostgres(ARCHIVE, schema.url, cacheDir);
    const config = `[provenance]\nsources = [{ name = "default", location = "${schema.url}" }]\n`;
    for (let i = 0; i < 2; i++) servers.push(await startService('provenance', 'postgres', { config }));
  }, 240_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await schema?.drop();
    if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
  }, 60_000);

  /** The `data` of an answer (the rest names the server's own URL). */
  const data = async (origin: string, path: string, init?: RequestInit) => {
    const response = await fetch(`${origin}${path}`, init);
    expect(response.status, path).toBe(200);
    return ((await response.json()) as { data: unknown }).data;
  };

  it('answers nodes, a node, statistics and a QueryBuilder query identically from both processes', async () => {
    const [first, second] = servers.map((server) => server.origin) as [string, string];
    const page = (await data(first, '/api/v4/nodes/page/1?perpage=20&orderby=-ctime')) as {
      nodes: { uuid: string }[];
    };
    expect(page.nodes.length).toBeGreaterThan(0);
    const uuid = page.nodes[0]?.uuid;
    const qb = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        path: [{ entity_type: 'node.Node.', orm_base: 'node', tag: 'n' }],
        project: { n: ['id', 'uuid', 'node_type', 'ctime'] },
        order_by: [{ n: [{ id: { order: 'desc' } }] }],
        limit: 20,
      }),
    };
    for (const [path, init] of [
      ['/api/v4/nodes/page/1?perpage=20&orderby=-ctime', undefined],
      [`/api/v4/nodes/${uuid}`, undefined],
      [`/api/v4/nodes/${uuid}/links/outgoing`, undefined],
      ['/api/v4/nodes/statistics', undefined],
      ['/api/v4/querybuilder', qb],
    ] as const) {
      const [a, b] = await Promise.all([data(first, path, init), data(second, path, init)]);
      expect(a, path).toBeTruthy();
      expect(b, path).toEqual(a);
    }
    for (const server of servers) expect(server.exit()).toBeUndefined();
  }, 60_000);
});
