import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromiumAvailable,
  createTestDatabase,
  launchChromium,
  postgresAvailable,
  type TestDatabase,
} from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADD, FIXTURES, getJson, loadIntoPostgres, type RunningApi, serveSources } from './support/fixtures.js';

const LEGACY = `${FIXTURES}/export/migrate/export_0.4_simple.aiida`;
const RESTAPI = fileURLToPath(new URL('./fixtures/aiida-diff/restapi_fixture.aiida', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const runPostgres = await postgresAvailable();

/** Sources with a StructureData node (the add archive has none). */
const WITH_STRUCTURE = new Set(['legacy', 'restapi', 'aiida_pg']);

describe.skipIf(!chromiumAvailable)('the provenance browser in Chromium', () => {
  let api: RunningApi;
  let database: TestDatabase | undefined;
  let browser: Browser;
  let tab: Page;
  const problems: string[] = [];
  const names = ['add', 'legacy', 'restapi', ...(runPostgres ? ['aiida_pg'] : [])];

  beforeAll(async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'atrium-browse-'));
    const sources: { name: string; location: string; repository?: string }[] = [
      { name: 'add', location: ADD },
      { name: 'legacy', location: LEGACY },
      { name: 'restapi', location: RESTAPI },
    ];
    if (runPostgres) {
      database = await createTestDatabase('postgres');
      const repository = await loadIntoPostgres(RESTAPI, database.url, join(scratch, 'pg'));
      sources.push({ name: 'aiida_pg', location: database.url, repository });
    }
    api = await serveSources(sources, scratch);
    browser = await launchChromium();
    tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    tab.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    tab.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    tab.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
    await database?.drop();
  });

  const shot = async (name: string) => writeFileSync(`${SCREENSHOTS}${name}`, await tab.screenshot({ fullPage: true }));

  it('the landing page lists every source with its size and links to its browser and API root', async () => {
    await tab.goto(`${api.base}/`);
    const rows = tab.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(names.length);
    for (const [i, name] of names.entries()) {
      const stats = (await getJson(`${api.base}/${name}/api/v4/nodes/statistics`)).body.data;
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      expect(cells[0]).toContain(name);
      expect(cells[1]).toBe(stats.total.toLocaleString('en-US'));
      const days = Object.keys(stats.ctime_by_day).sort();
      expect(cells[3]).toBe(`${days[0]} – ${days[days.length - 1]}`);
      await expect(rows.nth(i).locator('a', { hasText: 'API root' }).getAttribute('href')).resolves.toBe(
        `/${name}/api/v4/`,
      );
    }
    await shot('provenance-browser-landing.png');
    await tab.locator('a', { hasText: 'legacy' }).first().click();
    await tab.waitForURL(/\/browse\/legacy\/nodes$/);
  });

  it('a list filtered by type and creation day matches the API', async () => {
    await tab.goto(`${api.base}/browse/legacy/nodes`);
    await tab.locator('.types a', { hasText: /^data\.core$/ }).click();
    await tab.waitForURL(/node_type=data\.core\./);
    await tab.fill('input[name=from]', '2015-06-04');
    await tab.fill('input[name=to]', '2015-06-04');
    await tab.click('button[type=submit]');
    await tab.waitForURL(/to=2015-06-04/);
    const query = 'node_type=like="data.core.%25"&ctime>=2015-06-04T00:00:00&ctime<2015-06-05T00:00:00';
    const expected = (await getJson(`${api.base}/legacy/api/v4/nodes/?${query}`)).response.headers.get('x-total-count');
    await expect(tab.locator('table.nodes tbody tr').count()).resolves.toBe(Number(expected));
    for (const type of await tab.locator('table.nodes tbody td:nth-child(2) code').allInnerTexts()) {
      expect(type.startsWith('data.core.')).toBe(true);
    }
    await shot('provenance-browser-list.png');
  });

  it.each(names)(
    '%s: a CalcJob page shows its graph, links lead on, and a file reads as the API serves it',
    async (name) => {
      await tab.goto(`${api.base}/browse/${name}/nodes?node_type=process.calculation.calcjob.`);
      await tab.locator('table.nodes tbody a').first().click();
      await tab.waitForURL(/\/nodes\/[0-9a-f-]{36}$/);
      const uuid = tab.url().split('/').pop() ?? '';
      const links = (direction: string) => getJson(`${api.base}/${name}/api/v4/nodes/${uuid}/links/${direction}`);
      const [incoming, outgoing] = [
        (await links('incoming')).body.data.incoming,
        (await links('outgoing')).body.data.outgoing,
      ];
      await expect(tab.locator('#incoming tbody tr').count()).resolves.toBe(incoming.length);
      await expect(tab.locator('#outgoing tbody tr').count()).resolves.toBe(outgoing.length);
      const boxes = tab.locator('svg.graph a.gnode');
      expect(await boxes.count()).toBeGreaterThanOrEqual(1 + incoming.length + outgoing.length);

      const input = incoming[0] ?? outgoing[0];
      await tab.locator(`svg.graph a.gnode[href$="${input.uuid}"]`).click();
      await tab.waitForURL(new RegExp(`${input.uuid}$`));
      await expect(tab.locator('svg.graph a.gnode.centre').getAttribute('href')).resolves.toMatch(input.uuid);
      await tab.goBack();
      if (name === 'legacy') await shot('provenance-browser-calcjob.png');

      const file = tab.locator('#files table.files a[href*="/files/"]:not([href$="/"])').filter({ hasNotText: /\/$/ });
      const href = (await file.first().getAttribute('href')) ?? '';
      const [, owner, path] = /\/nodes\/([0-9a-f-]{36})\/files\/(.+)$/.exec(href) ?? [];
      await file.first().click();
      await tab.waitForURL(/\/files\//);
      const served = await fetch(
        `${api.base}/${name}/api/v4/nodes/${owner}/repo/contents?filename=${encodeURIComponent(`"${decodeURIComponent(path ?? '')}"`)}`,
      );
      const bytes = Buffer.from(await served.arrayBuffer()).toString('utf8');
      const content = served.headers.get('content-type') === 'application/json' ? '' : bytes;
      const pre = tab.locator('pre.file');
      if (content.length > 0) await expect(pre.textContent()).resolves.toBe(content.slice(0, 256 * 1024));
      else await expect(pre.textContent()).resolves.toBe('');
      if (name === 'legacy') await shot('provenance-browser-file.png');
    },
    60_000,
  );

  it.each(names.filter((n) => WITH_STRUCTURE.has(n)))(
    '%s: a structure is drawn with every site, its formula and its downloads',
    async (name) => {
      await tab.goto(`${api.base}/browse/${name}/nodes?node_type=data.core.structure.StructureData.`);
      await tab.locator('table.nodes tbody a').first().click();
      await tab.waitForURL(/\/nodes\/[0-9a-f-]{36}$/);
      const uuid = tab.url().split('/').pop() ?? '';
      const node = `${api.base}/${name}/api/v4/nodes/${uuid}`;
      const attributes = (await getJson(`${node}/contents/attributes`)).body.data.attributes;
      const derived = (await getJson(`${node}/contents/derived_properties`)).body.data.derived_properties;
      await expect(tab.locator('svg.structure circle').count()).resolves.toBe(attributes.sites.length);
      await expect(tab.locator('svg.structure .cell line').count()).resolves.toBe(12);
      await expect(tab.locator('#structure .formula').textContent()).resolves.toBe(derived.formula);
      for (const format of ['cif', 'xsf', 'xyz']) {
        const link = await tab.locator('#structure a', { hasText: format.toUpperCase() }).getAttribute('href');
        const download = await fetch(`${api.base}${link}`);
        const direct = await fetch(`${node}/download?download_format=${format}`);
        expect([format, download.status, await download.text()]).toEqual([format, 200, await direct.text()]);
      }
      if (name === 'legacy') await shot('provenance-browser-structure.png');
    },
    60_000,
  );

  it('no page logged an error, failed a script or answered an error status', () => {
    expect(problems).toEqual([]);
  });
});
