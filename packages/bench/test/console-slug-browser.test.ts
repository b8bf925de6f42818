import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openBenchDatabase } from '../src/index.js';
import { signedIn } from './console-support.js';
import { at, type Bench, bmf, type Json, seedProject, startBench } from './harness.js';

/** The slug the security probe stored (finding L3): unencoded in a path, it leads to `GET /v0/server/config`. */
const LEGACY = '../../v0/server/config?x=';
const ENCODED = encodeURIComponent(LEGACY);
/** A `..` slug double-encoded: the server reads `%2E%2E`, which names nothing. */
const DOTS = '%252E%252E';

describe.skipIf(!chromiumAvailable)('bench console with slugs stored before validation, in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  describeEachDialect('console paths', ({ url }) => {
    let bench: Bench;
    let context: BrowserContext;
    let project: Json;
    let dots: Json;
    let report: Json;
    /** The paths of every request the pages sent to the bench server. */
    let paths: string[];

    beforeEach(async () => {
      bench = await startBench(url());
      ({ project } = await seedProject(bench));
      report = await bench.json('POST', '/v0/projects/the-computer/reports', {
        token: bench.muriel,
        body: {
          branch: 'main',
          testbed: 'localhost',
          start_time: at(0),
          end_time: at(1),
          results: [bmf({ 'tests::fib': { latency: 100 } })],
          settings: { adapter: 'json' },
        },
      });
      dots = await bench.json('POST', `/v0/organizations/${project.organization}/projects`, {
        token: bench.muriel,
        body: { name: 'Dots' },
      });
      await store('project', dots.uuid, '..');
      context = await signedIn(browser, bench);
      paths = [];
      context.on('request', (request) => {
        const target = new URL(request.url());
        if (target.origin === bench.base) paths.push(`${target.pathname}${target.search}`);
      });
    }, 60_000);

    afterEach(async () => {
      await context?.close();
      await bench?.close();
    });

    /** Writes a slug as the server stored it before slugs were validated. */
    const store = async (table: 'project' | 'branch', uuid: string, slug: string) => {
      const database = await openBenchDatabase(bench.databaseUrl);
      try {
        await database.db.updateTable(table).set({ slug }).where('uuid', '=', uuid).execute();
      } finally {
        await database.close();
      }
    };

    const visit = async (page: Page, path: string) => {
      await page.goto(`${bench.base}${path}`, { waitUntil: 'networkidle' });
    };

    /** Every API request names a project by its UUID or its slug in one encoded segment, and leaves /v0/projects|organizations|users alone. */
    const expectContained = () => {
      const api = paths.filter((path) => path.startsWith('/v0/'));
      expect(api.filter((path) => !/^\/v0\/(projects|organizations|users)(\/|\?|$)/.test(path))).toEqual([]);
      const projectIds = new Set([project.uuid, dots.uuid, ENCODED, DOTS, 'the-computer']);
      const named = api.filter((path) => path.startsWith('/v0/projects/')).map((path) => path.split(/[/?]/)[3]);
      expect(named.filter((id) => !projectIds.has(id as string))).toEqual([]);
    };

    it('keeps a traversing project slug inside its path segment on every console page', async () => {
      await store('project', project.uuid, LEGACY);
      const page = await context.newPage();
      await visit(page, `/console/projects/${ENCODED}/reports`);
      for (const kind of ['plots', 'reports', 'alerts', 'thresholds', 'branches', 'settings', 'keys', 'perf']) {
        await visit(page, `/console/projects/${project.uuid}/${kind}`);
      }
      await visit(page, `/console/projects/${project.uuid}/reports/${report.uuid}`);
      await visit(page, `/console/organizations/${project.organization}/projects`);
      expectContained();
      const link = page.locator('[data-testid="projects"] a', { hasText: 'The Computer' });
      expect(await link.getAttribute('href')).toBe(`/console/projects/${ENCODED}/plots`);
      // The pages did ask for the project by its slug, each time in one encoded segment.
      expect(paths.filter((path) => path.startsWith(`/v0/projects/${ENCODED}/`)).length).toBeGreaterThan(5);
      await page.close();
    }, 120_000);

    it('keeps a traversing branch slug inside its path segment', async () => {
      await store('branch', report.branch.uuid, LEGACY);
      const page = await context.newPage();
      await visit(page, '/console/projects/the-computer/branches');
      const href = await page.locator('[data-testid="list"] a', { hasText: 'main' }).getAttribute('href');
      await visit(page, href as string);
      await visit(page, `/console/projects/the-computer/reports/${report.uuid}`);
      expectContained();
      expect(href).toBe(`/console/projects/the-computer/branches/${ENCODED}`);
      const branchPaths = paths.filter((path) => path.startsWith('/v0/projects/the-computer/branches/'));
      expect(branchPaths).toContain(`/v0/projects/the-computer/branches/${ENCODED}`);
      await page.close();
    }, 120_000);

    it('preloads a public perf view under an encoded slug', async () => {
      await store('project', project.uuid, LEGACY);
      const view = new URLSearchParams({
        branches: report.branch.uuid,
        testbeds: report.testbed.uuid,
        benchmarks: report.results[0][0].benchmark.uuid,
        measures: report.results[0][0].measures[0].measure.uuid,
      });
      const anonymous = await browser.newContext();
      const requests: string[] = [];
      anonymous.on('request', (request) => requests.push(new URL(request.url()).pathname));
      const page = await anonymous.newPage();
      await page.goto(`${bench.base}/perf/${project.uuid}?${view}`, { waitUntil: 'networkidle' });
      expect(requests.filter((path) => path.startsWith('/v0/server'))).toEqual([]);
      expect(requests).toContain(`/v0/projects/${ENCODED}/perf`);
      expect(await page.locator('link[rel="preload"][as="fetch"]').getAttribute('href')).toBe(
        `/v0/projects/${ENCODED}/perf?${view}`,
      );
      await anonymous.close();
    }, 60_000);

    it('never lets a `..` slug climb out of the project', async () => {
      const page = await context.newPage();
      await visit(page, `/console/projects/${dots.uuid}/reports`);
      await visit(page, `/console/organizations/${project.organization}/projects`);
      const href = await page.locator('[data-testid="projects"] a', { hasText: 'Dots' }).getAttribute('href');
      await visit(page, href as string);
      expectContained();
      expect(href).toBe(`/console/projects/${DOTS}/plots`);
      expect(paths).toContain(`/v0/projects/${DOTS}/allowed/edit`);
      await page.close();
    }, 60_000);
  });
});
