import {
  type CrossOriginPage,
  chromiumAvailable,
  fetchFromPage,
  launchChromium,
  serveCrossOriginPage,
} from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsoleBench } from './console-support.js';
import { type Bench, seedProject } from './harness.js';

describe.skipIf(!chromiumAvailable)('bench API from a page on another origin, in Chromium', () => {
  let bench: Bench;
  let other: CrossOriginPage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    bench = await startConsoleBench();
    await seedProject(bench);
    other = await serveCrossOriginPage();
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(other.origin);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await other?.close();
    await bench?.close();
  });

  /** fetch() in the page with a bearer token (and a JSON body): preflighted, as a browser front end sends it. */
  const send = (method: string, path: string, body?: unknown) =>
    fetchFromPage(page, `${bench.base}${path}`, { method, headers: { Authorization: `Bearer ${bench.muriel}` }, body });

  it('creates, reads, renames and deletes a project: POST, GET, PATCH, DELETE with Authorization and JSON', async () => {
    const steps: [string, string, unknown, number][] = [
      ['POST', '/v0/organizations/muriel-bagge/projects', { name: 'Cross', slug: 'cross' }, 201],
      ['GET', '/v0/projects/cross', undefined, 200],
      ['PATCH', '/v0/projects/cross', { name: 'Crossed' }, 200],
      ['DELETE', '/v0/projects/cross', undefined, 204],
      ['GET', '/v0/projects/cross', undefined, 404],
    ];
    for (const [method, path, body, status] of steps) {
      const answer = await send(method, path, body);
      expect([method, answer.error, answer.status]).toEqual([method, undefined, status]);
      expect(answer.requestId).toMatch(/\S/);
      if (method === 'PATCH') expect(answer.body).toMatchObject({ slug: 'cross', name: 'Crossed' });
    }
  });
});
