import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConsole, signedIn, startConsoleBench } from './console-support.js';
import { at, type Bench, bmf } from './harness.js';

/** A JWT-shaped invitation: the pages read its claims (unchecked) to say whom it invites; the server checks it. */
const invitation = (claims: object) =>
  ['{"alg":"HS256"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.') +
  '.signature';

describe.skipIf(!chromiumAvailable)('bench console navigation in headless Chromium', () => {
  let bench: Bench;
  let browser: Browser;
  let seeded: Awaited<ReturnType<typeof seedConsole>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    bench = await startConsoleBench();
    seeded = await seedConsole(bench);
    // A branch with two measures of different units, one throughput of 0 (no place on a log axis).
    for (const [i, throughput] of [250_000, 240_000, 0].entries()) {
      await bench.json('POST', '/v0/projects/the-computer/reports', {
        token: bench.muriel,
        body: {
          branch: 'two-units',
          testbed: 'localhost',
          start_time: at(400 + i * 10),
          end_time: at(401 + i * 10),
          results: [bmf({ 'tests::fib': { latency: 3_200_000_000 + i, throughput } })],
        },
      });
    }
    for (const [kind, key] of [
      ['branches', 'two-units'],
      ['testbeds', 'localhost'],
      ['measures', 'latency'],
      ['measures', 'throughput'],
      ['benchmarks', 'tests-fib'],
      ['benchmarks', 'tests-sort'],
    ] as const)
      ids[key] = (await bench.json('GET', `/v0/projects/the-computer/${kind}/${key}`)).uuid;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bench?.close();
  });

  const plotted = (page: Page) => page.waitForSelector('[data-testid="plot"][data-points] canvas', { timeout: 20_000 });

  it('shows a report’s alerts in the list, its version, scaled values with Δ%, and an alert’s plot, report, benchmark and version', async () => {
    const context = await signedIn(browser, bench);
    const page = await context.newPage();
    const regression = seeded.regression;
    await page.goto(`${bench.base}/console/projects/the-computer/reports`);
    await expect.poll(() => page.getByTestId('report-alerts').first().textContent()).toBe('🚨 1 alert (1 active)');
    expect(await page.getByTestId('alert-badge').textContent()).toBe('1');

    await page.goto(`${bench.base}/console/projects/the-computer/reports/${regression.uuid}`);
    const version = regression.branch.head.version;
    await expect
      .poll(() => page.getByTestId('report-version').textContent())
      .toBe(`${version.number} (${version.hash})`);
    const fib = page.getByTestId('results').locator('tr', { hasText: 'tests::fib' });
    // 150 ns against a baseline near 100 ns: scaled, rounded, signed.
    expect(await fib.getByTestId('result-value').textContent()).toMatch(/^150\.0 ns \(\+\d+\.\d\d %\)$/);

    const alert = regression.alerts[0];
    await page.goto(`${bench.base}/console/projects/the-computer/alerts/${alert.uuid}`);
    await expect
      .poll(() => page.getByTestId('alert-version').textContent())
      .toBe(`${version.number} (${version.hash})`);
    expect(await page.getByTestId('alert-value').textContent()).toMatch(/^150\.0 ns \(\+\d+\.\d\d %\)$/);
    expect(await page.getByTestId('alert-benchmark').getAttribute('href')).toBe(
      '/console/projects/the-computer/benchmarks/tests-fib',
    );
    expect(await page.getByTestId('alert-report').getAttribute('href')).toBe(
      `/console/projects/the-computer/reports/${regression.uuid}`,
    );
    await page.getByTestId('alert-plot').click();
    await plotted(page);
    const view = new URL(page.url()).searchParams;
    expect(view.get('upper_boundary')).toBe('true');
    expect(view.get('benchmarks')).toBe(alert.benchmark.uuid);
    // The Reports tab lists the project's reports with the one of this view highlighted.
    await page.getByRole('tab', { name: 'Reports' }).click();
    await expect.poll(() => page.getByTestId('current-report').count()).toBe(1);
    expect(await page.getByTestId('current-report').textContent()).toContain('main');
    await context.close();
  });

  it('draws one y axis per unit, says when a log axis cannot be log, and keeps the chosen items in sight', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const view = new URLSearchParams({
      branches: ids['two-units'] as string,
      testbeds: ids.localhost as string,
      benchmarks: ids['tests-fib'] as string,
      measures: `${ids.throughput},${ids.latency}`,
      start_time: String(Date.parse(at(0))),
      end_time: String(Date.parse(at(1000))),
      y_axis: 'log',
      clear: 'true',
    });
    await page.goto(`${bench.base}/perf/the-computer?${view}`);
    await plotted(page);
    // x, and one y axis per unit (throughput left, latency right).
    expect(await page.locator('#plot .u-axis').count()).toBe(3);
    const note = page.getByTestId('plot-note');
    expect(await note.textContent()).toBe(
      'Log scale (Throughput) needs positive values: 1 value is ≤ 0, so this axis is linear.',
    );
    // A search that hides the chosen benchmark still shows it above the list.
    await page.getByLabel('Search benchmarks').fill('sort');
    await page.locator('.picker[data-dimension="benchmarks"] .items', { hasText: 'tests::sort' }).waitFor();
    expect(await page.getByTestId('chosen-benchmarks').textContent()).toContain('tests::fib');
    expect(await page.getByTestId('chosen-measures').textContent()).toMatch(/Throughput.*Latency/);

    // Share: an iframe of the embeddable page, which draws the plot alone (no header), for any site.
    await page.getByText('Share and embed').click();
    const iframe = (await page.getByTestId('share-iframe').inputValue()) ?? '';
    const src = /src="([^"]+)"/.exec(iframe)?.[1] ?? '';
    expect(src).toContain(`${bench.base}/perf/the-computer/embed?`);
    await page.goto(src);
    await plotted(page);
    expect(await page.locator('header').isVisible()).toBe(false);
    expect(await page.locator('[aria-label="Project"]').count()).toBe(0);
    await context.close();
  });

  it('offers "View in console" on public pages when signed in, and a dead end nowhere', async () => {
    const context = await signedIn(browser, bench);
    const page = await context.newPage();
    await page.goto(`${bench.base}/perf/the-computer/alerts`);
    const twin = page.getByTestId('view-in-console');
    expect(await twin.getAttribute('href')).toBe('/console/projects/the-computer/alerts');
    await page.goto(`${bench.base}/console/organizations`);
    expect(await page.getByTestId('organizations').textContent()).toContain('Muriel Bagge');
    await page.goto(`${bench.base}/console/onboard/project`);
    expect(await page.getByTestId('not-found').locator('h2').textContent()).toBe('Page Not Found');
    await page.goto(`${bench.base}/console/users/muriel-bagge/tokens`);
    expect(await page.getByTestId('tokens').textContent()).toContain('API tokens are deprecated');
    // A confirmation link opened again while signed in keeps the session.
    await page.goto(`${bench.base}/auth/confirm?token=used.link.token`);
    await page.waitForURL(/\/console\?notify_text=/);
    expect(await page.evaluate(`localStorage.getItem('BENCHER_USER')`)).not.toBeNull();

    // Revoking a key asks first, and the revoked key stays listed as revoked.
    await page.goto(`${bench.base}/console/users/muriel-bagge/keys`);
    await page.getByLabel('Name').fill('temporary');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('secret').waitFor();
    const row = page.getByTestId('keys').locator('tr', { hasText: 'temporary' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revocation is permanent').waitFor();
    await row.getByRole('button', { name: 'Revoke key' }).click();
    await page.locator('tr[data-revoked="true"]', { hasText: 'temporary' }).waitFor();
    await context.close();
  });

  it('gives a new user the next step: a project form, or the run command with a key made for it', async () => {
    await bench.json('POST', '/v0/organizations', { token: bench.courage, body: { name: 'Courage Lab' } });
    const context = await signedIn(browser, bench, Date.now() + 3_600_000, { slug: 'courage', token: bench.courage });
    const page = await context.newPage();
    await page.goto(`${bench.base}/console`);
    await page.getByTestId('first-steps').waitFor();
    await page.getByRole('button', { name: 'Create a key for the command' }).click();
    const command = (await page.getByTestId('run-command-key').textContent()) ?? '';
    expect(command).toMatch(new RegExp(`^npx atrium bench run --host ${bench.base} --key \\S+ --project my-project`));
    const key = /--key (\S+)/.exec(command)?.[1];
    expect((await bench.call('GET', '/v0/organizations', { token: key })).status).toBe(200);
    await page.getByLabel('Name').fill('First Project');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/console\/projects\/first-project\/plots/);
    await context.close();
  });

  it('keeps an invitation between log-in and sign-up and says what it invites to', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const invite = invitation({ sub: 'grace@example.org', org: { uuid: 'x', role: 'leader' } });
    await page.goto(`${bench.base}/auth/login?invite=${invite}`);
    expect(await page.getByTestId('invitation').textContent()).toContain(
      'as a leader (the invitation is for grace@example.org)',
    );
    await page.getByLabel('Email').fill('grace@example.org');
    await page.getByTestId('signup-link').click();
    await page.waitForURL(/\/auth\/signup\?/);
    const query = new URL(page.url()).searchParams;
    expect(query.get('invite')).toBe(invite);
    expect(await page.getByLabel('Email').inputValue()).toBe('grace@example.org');
    expect(await page.getByTestId('login-link').getAttribute('href')).toContain(`invite=${invite}`);
    await context.close();
  });
});
