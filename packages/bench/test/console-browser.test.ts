import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserSuite, chromiumAvailable } from '@atrium/core/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { atriumBench, confirmationLink } from './cli-support.js';
import { signedIn, startSeededConsole } from './console-support.js';
import type { Json } from './harness.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

describe.skipIf(!chromiumAvailable)('bench console in headless Chromium', () => {
  const suite = browserSuite(startSeededConsole, 120_000);

  const plotted = async (page: Page, selector = '[data-testid="plot"]') => {
    await page.waitForSelector(`${selector}[data-points] canvas`, { timeout: 20_000 });
    return Number(await page.getAttribute(selector, 'data-points'));
  };

  it('signs up through the outbox link, creates a project, runs `atrium bench run` and opens the printed links', async () => {
    const context = await suite.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/auth/signup`);
    await page.getByLabel('Name').fill('Dexter');
    await page.getByLabel('Email').fill('dexter@nowhere.com');
    await page.getByLabel('I agree').check();
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\/auth\/confirm\?email=dexter/);
    expect(await page.getByTestId('outbox-note').textContent()).toContain('npx atrium bench admin outbox');
    const link = await confirmationLink(suite.server, 'dexter@nowhere.com');
    await page.goto(`${suite.server.base}${new URL(link).pathname}${new URL(link).search}`);
    await page.getByRole('heading', { name: 'Continue as dexter@nowhere.com?' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/console(\?|$)/);
    expect(await page.locator('#notice').textContent()).toContain('Welcome, Dexter!');
    await page.locator('main').getByRole('link', { name: 'Dexter', exact: true }).click();
    await page.getByLabel('Name').fill('My Lib');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/console\/projects\/my-lib\/plots/);
    const token = JSON.parse((await page.evaluate(`localStorage.getItem('BENCHER_USER')`)) as string).token;

    const file = join(suite.server.dataDir, 'bench.json');
    writeFileSync(
      file,
      JSON.stringify({ 'tests::fib': { latency: { value: 105 } }, 'tests::sort': { latency: { value: 51 } } }),
    );
    const run = await atriumBench([
      'run',
      '--host',
      suite.server.base,
      '--token',
      token,
      '--project',
      'my-lib',
      '--branch',
      'main',
      '--testbed',
      'ci',
      '--adapter',
      'json',
      '--file',
      file,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const reportUrl = /^View report: (\S+)$/m.exec(run.stdout)?.[1] as string;
    // consoleUrl is not configured: the links name the bench service itself.
    expect(reportUrl.startsWith(`${suite.server.base}/perf/my-lib/reports/`)).toBe(true);
    const resultUrls = [...run.stdout.matchAll(/^- tests::\w+ \(Latency\): (\S+)$/gm)].map((m) => m[1] as string);
    expect(resultUrls).toHaveLength(2);
    await page.goto(reportUrl);
    expect(await page.getByTestId('results').textContent()).toContain('tests::sort');
    for (const url of resultUrls) {
      await page.goto(url);
      expect(await plotted(page)).toBe(1);
    }
    await context.close();
  }, 120_000);

  it('shows a public project to an anonymous visitor and a private or missing one as the same not-found page', async () => {
    const page = await suite.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${suite.server.base}/perf`);
    const projects = await page.getByTestId('projects').textContent();
    expect(projects).toContain('The Computer');
    expect(projects).not.toContain('Secret');

    await page.goto(`${suite.server.base}/perf/the-computer`);
    expect(await plotted(page)).toBe(31 * 2);
    expect(page.url()).toContain(`report=${suite.server.seeded.regression.uuid}`);
    const alertLink = page.locator('#plot-alerts a');
    expect(await alertLink.getAttribute('href')).toBe(
      `/perf/the-computer/alerts/${suite.server.seeded.regression.alerts[0].uuid}`,
    );
    expect(await page.getByTestId('png').getAttribute('href')).toContain('/v0/projects/the-computer/perf/img?');
    await page.screenshot({ path: `${SCREENSHOTS}perf-page.png`, fullPage: true });

    const notFound = async (path: string) => {
      await page.goto(`${suite.server.base}${path}`);
      await page.getByTestId('not-found').waitFor();
      return { title: await page.title(), text: await page.locator('#app').innerHTML() };
    };
    expect(await notFound('/perf/secret')).toEqual(await notFound('/perf/no-such-project'));
    await page.close();
  });

  it('opens the report page and its plot links; a shared view URL reproduces the plot with its options', async () => {
    const page = await suite.browser.newPage();
    await page.goto(`${suite.server.base}/perf/the-computer/reports/${suite.server.seeded.regression.uuid}`);
    const results = page.getByTestId('results');
    expect(await results.textContent()).toContain('tests::fib');
    expect(await results.locator('tr.error').textContent()).toContain('150');
    await results.locator('tr.error').getByText('view plot').click();
    expect(await plotted(page)).toBe(31);
    const shared = page.url();
    expect(shared).toContain('upper_boundary=true');
    await page.getByLabel('X-axis').selectOption('version');
    await page.waitForURL(/x_axis=version/);
    expect(await plotted(page)).toBe(31);
    const other = await suite.browser.newPage();
    await other.goto(page.url());
    expect(await plotted(other)).toBe(31);
    expect(await other.getByLabel('X-axis').inputValue()).toBe('version');
    await other.close();
    await page.close();
  });

  it('warns past 255 permutations instead of plotting', async () => {
    const page = await suite.browser.newPage();
    const ids = Array.from({ length: 16 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join(
      ',',
    );
    await page.goto(
      `${suite.server.base}/perf/the-computer?clear=true&branches=${ids}&testbeds=${ids}&benchmarks=a&measures=b`,
    );
    expect(await page.getByRole('alert').textContent()).toContain('Too many permutations: 256');
    await page.close();
  });

  it('dismisses and reactivates an alert; dismissed alerts leave the plot', async () => {
    const context = await signedIn(suite.browser, suite.server);
    const page = await context.newPage();
    const alert = suite.server.seeded.regression.alerts[0].uuid;
    await page.goto(`${suite.server.base}/console/projects/the-computer/alerts/${alert}`);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    expect(await page.getByTestId('alert-status').textContent()).toBe('dismissed');
    expect((await suite.server.json('GET', `/v0/projects/the-computer/alerts/${alert}`)).status).toBe('dismissed');
    await page.goto(`${suite.server.base}/perf/the-computer`);
    await plotted(page);
    expect(await page.locator('#plot-alerts a').count()).toBe(0);
    await page.goto(`${suite.server.base}/console/projects/the-computer/alerts/${alert}`);
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Dismiss' }).waitFor();
    expect((await suite.server.json('GET', `/v0/projects/the-computer/alerts/${alert}`)).status).toBe('active');
    await context.close();
  });

  it('archives a benchmark: hidden from the list by default, shown with the archived filter', async () => {
    const context = await signedIn(suite.browser, suite.server);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/console/projects/the-computer/benchmarks/tests-sort`);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Unarchive' }).waitFor();
    await page.goto(`${suite.server.base}/console/projects/the-computer/benchmarks`);
    expect(await page.getByTestId('list').textContent()).not.toContain('tests::sort');
    await page.getByLabel('Show archived').check();
    await page.waitForURL(/archived=true/);
    await page.getByTestId('list').filter({ hasText: 'tests::sort' }).waitFor();
    await suite.server.json('PATCH', '/v0/projects/the-computer/benchmarks/tests-sort', {
      token: suite.server.muriel,
      body: { archived: false },
    });
    await context.close();
  });

  it('pins a plot to the dashboard, reorders and unpins; the pin follows the branch after its start point changes', async () => {
    const context = await signedIn(suite.browser, suite.server);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/console/projects/the-computer/perf`);
    await plotted(page);
    await page.getByText('Pin this plot to the dashboard').click();
    await page.locator('#pin').getByLabel('Title').fill('Fibonacci');
    await page.locator('#pin').getByLabel('Window').selectOption({ label: '1 year' });
    await page.getByRole('button', { name: 'Pin' }).click();
    await page.waitForURL(/\/console\/projects\/the-computer\/plots/);
    const card = page.locator('[data-testid="pinned-plot"]');
    await plotted(page, '[data-testid="pinned-plot"]');

    // Reset main onto a new head (start point: feature): the pin has no head, so it follows main's current head.
    await suite.server.seeded.report(310, 101, {}, 'feature');
    const reset = await suite.server.seeded.report(320, 102, { start_point: { branch: 'feature', reset: true } });
    const before = suite.server.seeded.regression.branch.head.uuid;
    expect(reset.branch.head.uuid).not.toBe(before);
    await page.reload();
    await plotted(page, '[data-testid="pinned-plot"]');
    expect(await card.getAttribute('data-points')).not.toBeNull();
    await page.screenshot({ path: `${SCREENSHOTS}dashboard.png`, fullPage: true });

    // A pin's title and window are edited in place; the pin opens in the explorer over its window.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('[data-edit]').getByLabel('Title').fill('Fibonacci, 12 weeks');
    await page.locator('[data-edit]').getByLabel('Window').selectOption({ label: '12 weeks' });
    await page.locator('[data-edit]').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-plot] h3', { hasText: 'Fibonacci, 12 weeks' }).waitFor();
    const [pinned] = await suite.server.json('GET', '/v0/projects/the-computer/plots', { token: suite.server.muriel });
    expect(pinned).toMatchObject({ title: 'Fibonacci, 12 weeks', window: 7_257_600 });
    await page.getByTestId('open-plot').click();
    await page.waitForURL(new RegExp(`/console/projects/the-computer/perf\\?plot=${pinned.uuid}`));
    const opened = new URL(page.url()).searchParams;
    expect(Number(opened.get('end_time')) - Number(opened.get('start_time'))).toBe(7_257_600_000);
    await page.locator('[data-testid="plot"][data-points], [data-testid="plot-empty"]').first().waitFor();
    await page.getByRole('tab', { name: 'Pinned' }).click();
    await page.getByTestId('perf-plots').getByText('Fibonacci, 12 weeks').waitFor();
    // Opened from its pin, the view updates that pin.
    await page.locator('#pin').getByLabel('Title').fill('Fibonacci');
    await page.getByRole('button', { name: 'Update pin' }).click();
    await page.waitForURL(/\/console\/projects\/the-computer\/plots\?notify_text=/);
    await page.locator('[data-plot] h3', { hasText: /^Fibonacci$/ }).waitFor();

    const plots = await suite.server.json('GET', '/v0/projects/the-computer/plots', { token: suite.server.muriel });
    await suite.server.json('POST', '/v0/projects/the-computer/plots', {
      token: suite.server.muriel,
      body: { ...pickPlot(plots[0]), title: 'Second', index: 1 },
    });
    await page.reload();
    await page.locator('[data-plot] h3', { hasText: 'Second' }).waitFor();
    await page.locator('[data-plot]', { hasText: 'Second' }).getByRole('button', { name: 'Move up' }).click();
    await page
      .locator('[data-plot] h3')
      .first()
      .filter({ hasText: /^Second$/ })
      .waitFor();
    await page.locator('[data-plot]', { hasText: 'Second' }).getByRole('button', { name: 'Unpin' }).click();
    await page.locator('[data-plot]').nth(1).waitFor({ state: 'detached' });
    await context.close();
  });

  it('creates an API key whose secret is shown once', async () => {
    const context = await signedIn(suite.browser, suite.server);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/console/users/muriel-bagge/keys`);
    await page.getByLabel('Name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(20);
    expect((await suite.server.call('GET', '/v0/users/muriel-bagge', { token: secret })).status).toBe(200);
    await page.reload();
    expect(await page.getByTestId('keys').textContent()).toContain('laptop');
    expect(await page.content()).not.toContain(secret);
    await context.close();
  });

  it('logs out by itself when the session expires, and says so', async () => {
    const context = await signedIn(suite.browser, suite.server, Date.now() + 8000);
    const page = await context.newPage();
    await page.goto(`${suite.server.base}/console`);
    await page.getByRole('heading', { name: 'Organizations' }).waitFor();
    expect(page.url()).toBe(`${suite.server.base}/console`);
    await page.waitForURL(/\/auth\/login/, { timeout: 15_000 });
    expect(await page.locator('#notice').textContent()).toContain('Your session expired');
    expect(await page.evaluate(`localStorage.getItem('BENCHER_USER')`)).toBeNull();
    await context.close();
  });
});

const pickPlot = (plot: Json) => ({
  window: plot.window,
  x_axis: plot.x_axis,
  branches: plot.branches,
  testbeds: plot.testbeds,
  benchmarks: plot.benchmarks,
  measures: plot.measures,
});
