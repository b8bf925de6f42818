import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '@atrium/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeArchive } from '../src/archive/make-archive.js';
import { BANDS, makeBandsArchive } from './support/bands-archive.js';
import { FIXTURES, getJson, type RunningApi, serveArchive } from './support/fixtures.js';

const LEGACY = `${FIXTURES}/export/migrate/export_0.4_simple.aiida`;
const RESTAPI = fileURLToPath(new URL('./fixtures/aiida-diff/restapi_fixture.aiida', import.meta.url));
const runPostgres = await postgresAvailable();
const HTML = { accept: 'text/html,application/xhtml+xml' };

const page = async (url: string) => {
  const response = await fetch(url, { headers: HTML, redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

/** Serves `archive` (awaited first) on `dialect` for the tests of the enclosing describe; `api()` is the running server. */
function servedOn(dialect: 'sqlite' | 'postgres', archive: () => Promise<string>): () => RunningApi {
  let api: RunningApi | undefined;
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    const path = await archive();
    if (dialect === 'postgres') database = await createTestDatabase('postgres');
    api = await serveArchive(path, dialect, database?.url);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
  });
  return () => {
    if (!api) throw new Error('the server is not running');
    return api;
  };
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !runPostgres)(
    `browser pages over AiiDA's REST test data [${dialect}]`,
    () => {
      const served = servedOn(dialect, async () => RESTAPI);

      it('GET / is the landing page for a browser and the API not-found answer for everyone else', async () => {
        const api = served();
        const json = await getJson(`${api.base}/`);
        const nothing = await getJson(`${api.base}/nothing`);
        expect([json.status, json.text]).toEqual([404, nothing.text]);
        const star = await getJson(`${api.base}/`, { headers: { accept: '*/*' } });
        expect(star.status).toBe(404);
        const landing = await page(`${api.base}/`);
        expect(landing.status).toBe(200);
        expect(landing.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(landing.headers.get('content-security-policy')).toContain("default-src 'none'");
        expect(landing.text).toContain('<a href="/browse/default/nodes"><strong>default</strong></a>');
        expect(landing.text).toContain('<td>22</td><td>6</td>');
      });

      it('a node page shows the graph two levels out, the report and the comments the API serves', async () => {
        const api = served();
        const nodes = (await getJson(`${api.base}/api/v4/nodes/?orderby=id`)).body.data.nodes as { uuid: string }[];
        let logs = 0;
        let comments = 0;
        for (const { uuid } of nodes) {
          const text = (await page(`${api.base}/browse/default/nodes/${uuid}`)).text;
          for (const c of (await getJson(`${api.base}/api/v4/nodes/${uuid}/contents/comments`)).body.data.comments) {
            expect(text).toContain(`<strong>${c.user}</strong>`);
            comments += 1;
          }
          const report = await getJson(`${api.base}/api/v4/processes/${uuid}/report`);
          for (const log of report.body?.data?.logs ?? []) {
            expect(text).toContain(`<td>${log.levelname}</td>`);
            logs += 1;
          }
        }
        expect([logs, comments]).toEqual([4, 4]);
        const workchain = await page(`${api.base}/browse/default/nodes/2df97650-3e74-4beb-866e-6ddf0366dc8b`);
        const boxes = [...workchain.text.matchAll(/<a href="\/browse\/default\/nodes\/([0-9a-f-]+)" class="gnode/g)];
        const levelTwo = ['d3d0e172', '1ab4c35b', '3897ab40'].filter((p) => boxes.some((b) => b[1]?.startsWith(p)));
        expect([boxes.length, levelTwo.length]).toEqual([5 + levelTwo.length, levelTwo.length]);
        expect(levelTwo.length).toBeGreaterThan(0);
      });

      it('bad filters and unknown names are pages that say what is wrong', async () => {
        const api = served();
        const bad = await page(`${api.base}/browse/default/nodes?from=2024-13-01&label=x`);
        expect(bad.status).toBe(400);
        expect(bad.text).toContain('&quot;2024-13-01&quot; is not a date (YYYY-MM-DD).');
        const past = await page(`${api.base}/browse/default/nodes?page=20000`);
        expect([past.status, past.text.includes('No node matches these filters.')]).toEqual([200, true]);
        for (const path of ['/browse/nope/nodes', '/browse/default/nodes/00000000-0000-0000-0000-000000000000']) {
          const missing = await page(`${api.base}${path}`);
          expect([path, missing.status, missing.headers.get('content-type')]).toEqual([
            path,
            404,
            'text/html; charset=utf-8',
          ]);
        }
        const prefix = await page(`${api.base}/browse/default/nodes/2df97650`);
        expect([prefix.status, prefix.headers.get('location')]).toEqual([
          302,
          '/browse/default/nodes/2df97650-3e74-4beb-866e-6ddf0366dc8b',
        ]);
      });
    },
  );
}

describe('file pages of a legacy archive', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await serveArchive(LEGACY, 'sqlite');
  }, 60_000);
  afterAll(async () => api?.stop());

  const folder = 'f75aaf40-f952-488c-be84-488a183a03d4';
  const contents = async (path: string) =>
    Buffer.from(
      await (await fetch(`${api.base}/api/v4/nodes/${folder}/repo/contents?filename="${path}"`)).arrayBuffer(),
    );

  it('previews the first 256 KiB of a large text file and downloads it whole', async () => {
    const whole = await contents('aiida.out');
    expect(whole.length).toBeGreaterThan(256 * 1024);
    const preview = await page(`${api.base}/browse/default/nodes/${folder}/files/aiida.out`);
    expect(preview.text).toContain('The first 256 KiB are shown');
    const shown = /<pre class="file">([^<]*)<\/pre>/.exec(preview.text)?.[1] ?? '';
    const unescaped = (s: string) =>
      s.replace(
        /&(lt|gt|quot|#39|amp);/g,
        (_, e) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e as 'lt'],
      );
    expect(unescaped(shown)).toBe(whole.subarray(0, 256 * 1024).toString('utf8'));
    const raw = await fetch(`${api.base}/browse/default/nodes/${folder}/raw/aiida.out`);
    expect(raw.headers.get('content-disposition')).toBe('attachment; filename="aiida.out"');
    expect(Buffer.from(await raw.arrayBuffer()).equals(whole)).toBe(true);
  });

  it('lists a directory and refuses paths the node does not have', async () => {
    const directory = await page(`${api.base}/browse/default/nodes/${folder}/files/K00001`);
    expect(directory.text).toContain(
      `<a href="/browse/default/nodes/${folder}/files/K00001/eigenval.xml">eigenval.xml</a>`,
    );
    for (const path of ['nope', '%2E%2E/K00001/eigenval.xml', 'K00001/eigenval.xml/x']) {
      expect([path, (await page(`${api.base}/browse/default/nodes/${folder}/files/${path}`)).status]).toEqual([
        path,
        404,
      ]);
    }
  });
});

describe('bands plotted from their arrays', () => {
  let api: RunningApi;
  let archive: string;
  beforeAll(async () => {
    archive = await makeBandsArchive();
    api = await serveArchive(archive, 'sqlite');
  }, 60_000);
  afterAll(async () => {
    await api?.stop();
    rmSync(dirname(archive), { recursive: true, force: true });
  });

  it.each([
    ['with labels', BANDS.A.uuid, 3, ['GAMMA', 'X', 'Y', 'SIGMA_1']],
    ['spin-polarised', BANDS.B.uuid, 4, []],
  ])('%s: one line per band (and spin), the labels as marks', async (_name, uuid, lines, labels) => {
    const text = (await page(`${api.base}/browse/default/nodes/${uuid}`)).text;
    const bands = /<h3>bands[\s\S]*?<\/svg>/.exec(text)?.[0] ?? '';
    expect(bands.split('<polyline').length - 1).toBe(lines);
    expect(
      [...bands.matchAll(/<line class="mark"[^>]*\/><text class="xtick"[^>]*>([^<]*)</g)].map((m) => m[1]),
    ).toEqual(labels);
  });
});

const scratch = mkdtempSync(join(tmpdir(), 'atrium-browse-http-'));
const synthetic = join(scratch, 'synthetic.aiida');
const made = makeArchive(synthetic, { nodes: 10_000 });
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !runPostgres)(`a generated 10,000-node archive [${dialect}]`, () => {
    const served = servedOn(dialect, async () => {
      await made;
      return synthetic;
    });

    it('a code used by every calculation lists its first 100 links of all of them, and the graph its first 10', async () => {
      const api = served();
      const codes = (await getJson(`${api.base}/api/v4/nodes/?node_type="data.core.code.installed.InstalledCode."`))
        .body.data.nodes as { uuid: string }[];
      const totals = await Promise.all(
        codes.map(async (c) =>
          Number(
            (await getJson(`${api.base}/api/v4/nodes/${c.uuid}/links/outgoing`)).response.headers.get('x-total-count'),
          ),
        ),
      );
      const busiest = totals.indexOf(Math.max(...totals));
      const total = totals[busiest] ?? 0;
      expect(total).toBeGreaterThan(100);
      const text = (await page(`${api.base}/browse/default/nodes/${codes[busiest]?.uuid}`)).text;
      expect(text).toContain(`<h2>Outgoing links (${total.toLocaleString('en-US')})</h2>`);
      const outgoing = /<section id="outgoing">[\s\S]*?<\/section>/.exec(text)?.[0] ?? '';
      expect(outgoing.split('<tr>').length - 2).toBe(100);
      expect(text).toContain(`outputs: 10 of ${total}`);
    });

    it('pages through a type, newest first, as the API lists it', async () => {
      const api = served();
      const filter = 'node_type=data.core.int.';
      const second = (await page(`${api.base}/browse/default/nodes?${filter}&page=2`)).text;
      const api2 = (
        await getJson(`${api.base}/api/v4/nodes/?node_type=like="data.core.int.%25"&orderby=-id&limit=50&offset=50`)
      ).body.data.nodes as { uuid: string }[];
      const listed = [...second.matchAll(/<td><a href="\/browse\/default\/nodes\/([0-9a-f-]{36})">/g)].map((m) => m[1]);
      expect(listed).toEqual(api2.map((n) => n.uuid));
      expect(second).toContain(`<a class="button" href="/browse/default/nodes?${filter}">← Newer</a>`);
      expect(second).toContain(`<a class="button" href="/browse/default/nodes?${filter}&amp;page=3">Older →</a>`);
    });
  });
}
