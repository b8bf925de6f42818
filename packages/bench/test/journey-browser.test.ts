import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumAvailable, describeEachDialect, launchChromium } from '@atrium/core/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { atriumBench, confirmationLink, mailedLink } from './cli-support.js';
import { type Bench, type Json, startBench } from './harness.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/** A git repository with one commit per benchmark run, as a project's history is. */
function repository(): { dir: string; commit(message: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-journey-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ada@example.org');
  git('config', 'user.name', 'Ada Lovelace');
  return {
    dir,
    commit(message) {
      writeFileSync(join(dir, 'CHANGES'), `${message}\n`, { flag: 'a' });
      git('add', 'CHANGES');
      git('commit', '-q', '-m', message);
      return git('rev-parse', 'HEAD');
    },
  };
}

/** The benchmark a run wraps: it prints one latency (ns) in Bencher Metric Format. */
const benchmark = (latency: number) => [
  '--exec',
  process.execPath,
  '-e',
  `console.log(JSON.stringify({ "join": { latency: { value: ${latency} } } }))`,
];

/** Steady around 100 ns for nine runs, then the last three 50 % slower. */
const LATENCIES = [...Array.from({ length: 9 }, (_, i) => 100 + ((i * 7) % 5) - 2), 150, 151, 149];

/** Signs up (or, with an invitation link, signs up into the inviting organisation) and follows the mailed link. */
async function signUp(page: Page, bench: Bench, from: string, name: string, email: string) {
  await page.goto(from);
  await page.getByLabel('Name').fill(name);
  const address = page.getByLabel('Email');
  if ((await address.inputValue()) === '') await address.fill(email);
  await page.getByLabel('I agree').check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.waitForURL(/\/auth\/confirm\?email=/);
  const link = new URL(await confirmationLink(bench, email));
  expect(link.origin).toBe(bench.base);
  await page.goto(link.href);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(/\/console(\?|$)/);
}

/**
 * A new user's first hour, as issue 28 tells it: sign up through the outbox link, create an API key in the console,
 * `atrium bench run` twelve times with nothing but the project (default thresholds, the client's OS testbed), a
 * 50 % regression in the last three: the alert shows in the reports list, the report page shows the version and
 * links to the plot. Then an address invited as leader signs up through the mailed link and sees the organisation's
 * private project. The README's bench screenshots come from here.
 */
describe.skipIf(!chromiumAvailable)('a new bench user, in headless Chromium and with the CLI', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  describeEachDialect('journey', ({ url, dialect }) => {
    let bench: Bench;
    let contexts: BrowserContext[];
    beforeEach(async () => {
      bench = await startBench(url());
      contexts = [];
    });
    afterEach(async () => {
      for (const context of contexts) await context.close();
      await bench.close();
    });
    const newPage = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      return context.newPage();
    };
    const screenshot = async (page: Page, name: string) => {
      if (dialect === 'sqlite') await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: true });
    };

    it('signs up, runs the benchmarks until the defaults raise an alert, and invites a leader', {
      timeout: 240_000,
    }, async () => {
      const page = await newPage();
      await signUp(page, bench, `${bench.base}/auth/signup`, 'Ada Lovelace', 'ada@example.org');
      // The logo leads to `/`, which sends a browser on to the console.
      await page.goto(`${bench.base}/console/users/ada-lovelace/settings`);
      await page.getByRole('link', { name: 'Atrium bench' }).click();
      await page.waitForURL(`${bench.base}/console`);
      await page.goto(`${bench.base}/console/users/ada-lovelace/keys`);
      await page.getByLabel('Name').fill('laptop');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.getByTestId('secret').textContent())?.trim() as string;
      expect(key).toMatch(/\S{20,}/);

      const repo = repository();
      const runs: { stdout: string; hash: string }[] = [];
      for (const [i, latency] of LATENCIES.entries()) {
        const hash = repo.commit(`change ${i}`);
        const run = await atriumBench(
          ['run', '--host', bench.base, '--key', key, '--project', 'strjoin', ...benchmark(latency)],
          { cwd: repo.dir },
        );
        expect(run.code, run.stderr).toBe(0);
        runs.push({ stdout: run.stdout, hash });
      }
      // The defaults guard the first run's branch and testbed: no warning, and the regression alerts.
      for (const run of runs) expect(run.stdout).not.toContain('WARNING: No Threshold found');
      expect(runs.slice(0, 9).map((run) => run.stdout.includes('View alerts:'))).not.toContain(true);
      const alerting = runs[9] as { stdout: string; hash: string };
      expect(alerting.stdout).toContain('View alerts:');
      const reportUrl = new URL(/^View report: (\S+)$/m.exec(alerting.stdout)?.[1] as string);
      expect(reportUrl.origin).toBe(bench.base);
      const uuid = reportUrl.pathname.split('/').at(-1) as string;
      const report = await bench.json('GET', `/v0/projects/strjoin/reports/${uuid}`);
      expect([report.branch.name, report.testbed.name]).toEqual(['main', 'Linux']);
      expect(report.alerts).toHaveLength(1);

      // The reports list shows the alert (needs bench-console's typed client: the list's `counts.alerts`).
      await page.goto(`${bench.base}/console/projects/strjoin/reports`);
      const row = page.locator('tr', { has: page.locator(`a[href$="/reports/${uuid}"]`) });
      await row.waitFor();
      const columns = await row.locator('xpath=ancestor::table').locator('th').allTextContents();
      expect(await row.locator('td').nth(columns.indexOf('Alerts')).textContent()).toMatch(/[1-9]/);
      await screenshot(page, 'journey-reports');

      // Its page shows the version (number and hash: bench-console's) and links to the plot.
      await row.locator(`a[href$="/reports/${uuid}"]`).click();
      await page.waitForURL(new RegExp(`/reports/${uuid}$`));
      const version = page.locator('tr', { has: page.locator('th', { hasText: 'Version' }) }).locator('td');
      await version.waitFor();
      expect(await version.textContent()).toContain(String(report.branch.head.version.number));
      expect(await version.textContent()).toContain(alerting.hash.slice(0, 7));
      await screenshot(page, 'journey-report');
      const plotLink = page.getByRole('link', { name: /view plot/ }).first();
      expect(await plotLink.getAttribute('href')).toContain(`report=${uuid}`);
      await plotLink.click();
      await page.waitForSelector('[data-testid="plot"][data-points] canvas', { timeout: 20_000 });
      // The history up to the alerting report (the tenth).
      expect(Number(await page.getAttribute('[data-testid="plot"]', 'data-points'))).toBeGreaterThanOrEqual(10);
      await screenshot(page, 'journey-plot');

      // A private project, and a leader invited to the organisation who has no account yet.
      await page.goto(`${bench.base}/console/organizations/ada-lovelace/projects`);
      await page.locator('#new-project').getByLabel('Name').fill('Secret Lib');
      await page.locator('#new-project').getByLabel('Visibility').selectOption('private');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.waitForURL(/\/console\/projects\/secret-lib\/plots/);
      await page.goto(`${bench.base}/console/organizations/ada-lovelace/members`);
      await page.getByLabel('Email').fill('grace@example.org');
      await page.locator('#invite').getByLabel('Role').selectOption('leader');
      await page.getByRole('button', { name: 'Invite' }).click();
      await page.getByTestId('invitations').locator('tr', { hasText: 'grace@example.org' }).waitFor();

      const invitation = await mailedLink(bench, 'grace@example.org', /^Create your account and accept at (\S+)$/m);
      expect(new URL(invitation).pathname).toBe('/auth/signup');
      const grace = await newPage();
      await signUp(grace, bench, invitation, 'Grace Hopper', 'grace@example.org');
      await grace.getByTestId('projects').getByRole('link', { name: 'Secret Lib' }).waitFor();
      expect(await grace.locator('main').getByRole('link', { name: 'Ada Lovelace' }).count()).toBe(1);
      await screenshot(grace, 'journey-invitee');
      const members: Json[] = await bench.json('GET', '/v0/organizations/ada-lovelace/members', {
        token: (JSON.parse((await grace.evaluate(`localStorage.getItem('BENCHER_USER')`)) as string) as Json).token,
      });
      expect(members.map((m) => [m.email, m.role]).sort()).toEqual([
        ['ada@example.org', 'leader'],
        ['grace@example.org', 'leader'],
      ]);
    });
  });
});
