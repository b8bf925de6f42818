import { fileURLToPath } from 'node:url';
import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_TESTS, type Model, modelProblem } from '../src/boundary/model.js';
import { seedConsole, signedIn, startConsoleBench } from './console-support.js';
import { at, type Bench, bmf, type Json, outboxOf } from './harness.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
const PROJECT = '/console/projects/the-computer';

type ModelCase = Partial<Model> & { test: Model['test'] };

/** Models typed into the form: the form must say exactly what the server's own rules say. */
const MODEL_CASES: ModelCase[] = [
  { test: 't_test', upper_boundary: 0.98 },
  { test: 't_test', upper_boundary: 1 },
  { test: 'z_score', lower_boundary: 0.4 },
  { test: 'log_normal', upper_boundary: 0.9, min_sample_size: 10, max_sample_size: 5 },
  { test: 'percentage', upper_boundary: 0.25, min_sample_size: 1 },
  { test: 'z_score', upper_boundary: 0.9, min_sample_size: 1 },
  { test: 'iqr', lower_boundary: -1 },
  { test: 'delta_iqr' },
  { test: 'delta_iqr', upper_boundary: 2, window: 0 },
  { test: 'iqr', upper_boundary: 3, max_sample_size: 2.5 },
  { test: 'static', lower_boundary: 10, upper_boundary: 5 },
  { test: 'static', lower_boundary: -5, upper_boundary: 5 },
  { test: 'change_point', upper_boundary: 0.99 },
  { test: 'change_point', lower_boundary: 1 },
  { test: 'change_point', upper_boundary: 0.99, min_sample_size: 1 },
];

const FIELDS = ['lower_boundary', 'upper_boundary', 'min_sample_size', 'max_sample_size', 'window'] as const;

/** What the server's validation says of the model: its message, or '' when valid. */
const serverVerdict = (model: ModelCase) =>
  modelProblem({ ...Object.fromEntries(FIELDS.map((name) => [name, model[name] ?? null])), ...model } as Model) ?? '';

async function fillModel(page: Page, model: ModelCase) {
  await page.getByLabel('Threshold model').selectOption(model.test);
  for (const name of FIELDS) {
    const input = page.locator(`#threshold-form input[name="${name}"]`);
    if ((await input.count()) === 0) continue;
    await input.fill(model[name] === undefined ? '' : String(model[name]));
  }
}

/** The threshold form's branch, testbed or measure select. */
const dimension = (page: Page, name: string) => page.locator(`#threshold-form select[name="${name}"]`);

const formVerdict = async (page: Page) => {
  const box = page.getByTestId('model-problem');
  return (await box.isHidden()) ? '' : ((await box.textContent()) ?? '');
};

describe.skipIf(!chromiumAvailable)('bench console management pages in headless Chromium', { timeout: 60_000 }, () => {
  let bench: Bench;
  let browser: Browser;
  let context: BrowserContext;
  let org: Json;
  /** A report on branch `feature`, testbed `ci`, three days after the others. */
  let feature: Json;

  beforeAll(async () => {
    bench = await startConsoleBench();
    ({ org } = await seedConsole(bench));
    await bench.json('POST', '/v0/projects/the-computer/testbeds', { token: bench.muriel, body: { name: 'ci' } });
    feature = await bench.json('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: {
        branch: 'feature',
        testbed: 'ci',
        start_time: at(86_400 * 3),
        end_time: at(86_400 * 3 + 1),
        results: [bmf({ 'tests::fib': { latency: 100 } })],
      },
    });
    browser = await launchChromium();
    context = await signedIn(browser, bench);
    context.setDefaultTimeout(10_000);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await bench?.close();
  });

  it("validates every threshold model in the form by the server's own rules, shows the server's refusal, creates", async () => {
    const page = await context.newPage();
    await page.goto(`${bench.base}${PROJECT}/thresholds/add?testbed=localhost`);
    const save = page.getByRole('button', { name: 'Create threshold' });
    // An empty form cannot be sent, but says nothing until the user types.
    expect(await save.isDisabled()).toBe(true);
    expect(await formVerdict(page)).toBe('');
    for (const model of MODEL_CASES) {
      await fillModel(page, model);
      const expected = serverVerdict(model);
      expect({ model, verdict: await formVerdict(page) }).toEqual({ model, verdict: expected });
      expect(await save.isDisabled()).toBe(expected !== '');
    }
    for (const test of MODEL_TESTS) {
      await page.getByLabel('Threshold model').selectOption(test);
      const sampleFields = await page.getByLabel('Minimum sample size').count();
      expect({ test, sampleFields }).toEqual({ test, sampleFields: test === 'static' ? 0 : 1 });
    }

    // main × localhost × latency has a threshold already: the server says so and the form shows it.
    await dimension(page, 'branch').selectOption({ label: 'main' });
    await dimension(page, 'measure').selectOption({ label: 'Latency' });
    await fillModel(page, { test: 't_test', upper_boundary: 1.5, max_sample_size: 32 });
    await page.screenshot({ path: `${SCREENSHOTS}threshold-form.png`, fullPage: true });
    await page.getByLabel('Upper boundary').fill('0.95');
    await save.click();
    await page.getByRole('alert').filter({ hasText: 'already exists' }).first().waitFor();
    expect(await formVerdict(page)).toContain('The server refused the threshold');

    await dimension(page, 'testbed').selectOption({ label: 'ci' });
    await save.click();
    await page.waitForURL(/\/thresholds\/[0-9a-f-]{36}\?notify_text=/);
    expect(await page.getByTestId('model-test').textContent()).toBe('t-test');
    const created = await bench.json('GET', `/v0/projects/the-computer/thresholds?testbed=ci`);
    expect(created[0].model).toMatchObject({ test: 't_test', upper_boundary: 0.95, max_sample_size: 32 });
    await page.close();
  });

  it('edits a threshold from its current model, keeps the history, shows a replaced model and removes the model', async () => {
    const page = await context.newPage();
    // The threshold the form made (made here when this test runs alone).
    const made = { branch: 'main', testbed: 'ci', measure: 'latency', test: 't_test', upper_boundary: 0.95 };
    const [
      threshold = await bench.json('POST', '/v0/projects/the-computer/thresholds', { token: bench.muriel, body: made }),
    ] = await bench.json('GET', '/v0/projects/the-computer/thresholds?testbed=ci');
    await page.goto(`${bench.base}${PROJECT}/thresholds/${threshold.uuid}`);
    await page.getByRole('link', { name: 'Edit model' }).click();
    expect(await page.getByLabel('Threshold model').inputValue()).toBe('t_test');
    expect(await page.getByLabel('Upper boundary').inputValue()).toBe('0.95');
    await fillModel(page, { test: 'static', upper_boundary: 200 });
    await page.getByRole('button', { name: 'Save model' }).click();
    await page.waitForURL(/notify_text=/);
    expect(await page.getByTestId('model-test').textContent()).toBe('Static');
    const history = page.getByTestId('models');
    expect(await history.locator('tr').count()).toBe(3);
    expect(await history.locator('tr').nth(1).textContent()).toContain('current');

    await history.getByRole('link', { name: 'View' }).click();
    await page.waitForURL(/\?model=/);
    expect(await page.getByTestId('replaced').textContent()).toContain('This threshold model was replaced on');
    expect(await page.getByTestId('model-test').textContent()).toBe('t-test');
    expect(await page.getByRole('link', { name: 'Edit model' }).count()).toBe(0);
    await page.getByRole('link', { name: 'View the current threshold' }).click();
    await page.getByRole('button', { name: 'Remove model' }).click();
    await page.getByTestId('model-test').filter({ hasText: 'No model' }).waitFor();
    expect((await bench.json('GET', `/v0/projects/the-computer/thresholds/${threshold.uuid}`)).model).toBeNull();

    // An alert links to its threshold as it was when the alert was raised.
    const alert = (await bench.json('GET', '/v0/projects/the-computer/alerts'))[0];
    await page.goto(`${bench.base}${PROJECT}/alerts/${alert.uuid}`);
    await page.getByRole('link', { name: alert.threshold.model.test }).click();
    await page.waitForURL(new RegExp(`/thresholds/${alert.threshold.uuid}\\?model=${alert.threshold.model.uuid}$`));
    expect(await page.getByTestId('model-test').textContent()).toBe('t-test');

    // An anonymous visitor of the public project sees the threshold and its history, and no edit controls.
    const anonymous = await browser.newPage();
    await anonymous.goto(`${bench.base}/perf/the-computer/thresholds/${threshold.uuid}`);
    await anonymous.getByTestId('models').waitFor();
    expect(await anonymous.getByTestId('models').locator('tr').count()).toBe(3);
    expect(await anonymous.getByRole('link', { name: 'Edit model' }).count()).toBe(0);
    await anonymous.close();
    await page.close();
  });

  it('filters reports by branch, testbed and date range, in the URL; a result without threshold links to the form', async () => {
    const page = await context.newPage();
    await page.goto(`${bench.base}${PROJECT}/reports`);
    const list = page.getByTestId('list');
    const rows = list.locator('tr');
    // Each filter change re-draws the list: wait for the new list before touching the next control.
    const filter = async (label: string, value: string) => {
      const input = page.getByLabel(label, { exact: true });
      await input.focus();
      await input.press('ControlOrMeta+a');
      await (value ? input.pressSequentially(value) : input.press('Backspace'));
      await input.press('Tab');
    };
    await rows.nth(20).waitFor();
    expect(await rows.count()).toBe(21);
    await filter('Branch', 'feature');
    await page.waitForURL(/branch=feature/);
    await rows.nth(2).waitFor({ state: 'detached' });
    expect(await list.textContent()).toContain('ci');
    await filter('Branch', '');
    await rows.nth(20).waitFor();
    await page.getByLabel('From').fill('2026-01-02');
    await rows.nth(2).waitFor({ state: 'detached' });
    expect(await list.textContent()).toContain('feature');
    await page.getByLabel('To', { exact: true }).fill('2026-01-03');
    await page.getByText('No reports found.').waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({
      start_time: String(Date.UTC(2026, 0, 2)),
      end_time: String(Date.UTC(2026, 0, 4) - 1),
    });

    await page.goto(`${bench.base}${PROJECT}/reports?testbed=localhost&end_time=${Date.UTC(2026, 0, 4) - 1}`);
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-01-03');
    expect(await page.getByLabel('Testbed', { exact: true }).inputValue()).toBe('localhost');
    await page.getByText('Page 1 of 2').waitFor();
    expect(await list.textContent()).not.toContain('feature');

    await page.goto(`${bench.base}${PROJECT}/reports/${feature.uuid}`);
    await page.getByTestId('results').getByRole('link', { name: 'no threshold: add one' }).click();
    await page.waitForURL(/\/thresholds\/add\?/);
    const chosen = (name: string) => dimension(page, name).locator('option:checked').textContent();
    expect([await chosen('branch'), await chosen('testbed'), await chosen('measure')]).toEqual([
      'feature',
      'ci',
      'Latency',
    ]);
    await page.getByLabel('Search branches').fill('mai');
    await dimension(page, 'branch').locator('option').nth(1).waitFor({ state: 'detached' });
    expect(await dimension(page, 'branch').locator('option').allTextContents()).toEqual(['main']);
    await page.close();
  });

  it('searches branches, renames one (new slug, new URL), moves its start point and deletes a benchmark', async () => {
    const page = await context.newPage();
    await page.goto(`${bench.base}${PROJECT}/branches`);
    await page.getByLabel('Search').fill('feat');
    await page.getByLabel('Search').press('Tab');
    await page.waitForURL(/search=feat/);
    await page.getByTestId('list').locator('tr').nth(2).waitFor({ state: 'detached' });
    await page.getByTestId('list').getByRole('link', { name: 'feature' }).click();
    await page.getByLabel('Name').fill('feature/x');
    await page.getByLabel('Slug').fill('feature-x');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/branches\/feature-x\?notify_text=/);
    expect(await page.getByTestId('dimension').textContent()).toContain('feature/x');
    expect(await page.getByTestId('recent-reports').textContent()).toContain('ci');
    await page.goto(`${bench.base}${PROJECT}/measures/latency`);
    expect(await page.getByTestId('dimension-thresholds').textContent()).toContain('main | localhost | Latency');
    await page.goto(`${bench.base}${PROJECT}/branches/feature-x`);

    await page.getByLabel('Start-point branch').fill('main');
    await page.getByRole('button', { name: 'Set start point' }).click();
    await page.getByTestId('start-point').getByRole('link', { name: 'main' }).waitFor();
    const branch = await bench.json('GET', '/v0/projects/the-computer/branches/feature-x');
    const main = await bench.json('GET', '/v0/projects/the-computer/branches/main');
    expect(branch.head.start_point.branch).toBe(main.uuid);

    // The public twin of the page shows the same branch, read-only, even to a member signed in.
    await page.goto(`${bench.base}/perf/the-computer/branches/feature-x`);
    await page.getByTestId('start-point').getByRole('link', { name: 'main' }).waitFor();
    expect(await page.getByRole('button').count()).toBe(0);

    await bench.json('POST', '/v0/projects/the-computer/benchmarks', { token: bench.muriel, body: { name: 'doomed' } });
    await page.goto(`${bench.base}${PROJECT}/benchmarks/doomed`);
    await page.getByRole('button', { name: 'Delete benchmark' }).click();
    await page.getByRole('button', { name: 'I am sure' }).click();
    await page.waitForURL(/\/benchmarks\?notify_text=/);
    expect((await bench.call('GET', '/v0/projects/the-computer/benchmarks/doomed')).status).toBe(404);
    await page.close();
  });

  it('saves project settings and deletes a project only after its slug is typed', async () => {
    const page = await context.newPage();
    await page.goto(`${bench.base}${PROJECT}/settings`);
    await page.getByLabel('URL').fill('https://github.com/muriel/the-computer');
    await page.getByLabel('Visibility').selectOption('private');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/settings\?notify_text=Project/);
    const saved = await bench.json('GET', '/v0/projects/the-computer', { token: bench.muriel });
    expect(saved).toMatchObject({ url: 'https://github.com/muriel/the-computer', visibility: 'private' });
    await bench.json('PATCH', '/v0/projects/the-computer', { token: bench.muriel, body: { visibility: 'public' } });

    await bench.json('POST', `/v0/organizations/${org.slug}/projects`, {
      token: bench.muriel,
      body: { name: 'Throwaway', slug: 'throwaway' },
    });
    await page.goto(`${bench.base}/console/projects/throwaway/settings`);
    const remove = page.getByRole('button', { name: 'Delete project' });
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel("Type the project's slug to confirm").fill('throwawa');
    expect(await remove.isDisabled()).toBe(true);
    await page.getByLabel("Type the project's slug to confirm").fill('throwaway');
    await remove.click();
    await page.waitForURL(/\/console\?notify_text=/);
    expect((await bench.call('GET', '/v0/projects/throwaway', { token: bench.muriel })).status).toBe(404);
    await page.close();
  });

  it('invites a member with a role, changes the role, removes the member; renames and deletes an organization', async () => {
    const page = await context.newPage();
    await page.goto(`${bench.base}/console/organizations/${org.slug}/projects`);
    await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Members' }).click();
    await page.waitForURL(/\/members$/);
    await page.getByLabel('Email').fill('courage@nowhere.com');
    await page.locator('#invite').getByLabel('Role').selectOption('member');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.locator('#notice').filter({ hasText: 'Invitation sent to courage@nowhere.com as member' }).waitFor();
    // Courage, signed in, opens the link of the invitation mail.
    const [mail] = await outboxOf(bench, 1);
    const link = /(https?:\/\/\S+\/auth\/login\?invite=\S+)/.exec(mail?.body ?? '')?.[1] as string;
    const courage = await signedIn(browser, bench, Date.now() + 3_600_000, { slug: 'courage', token: bench.courage });
    const invited = await courage.newPage();
    await invited.goto(`${bench.base}${new URL(link).pathname}${new URL(link).search}`);
    await invited.waitForURL(/\/console\?notify_text=Invitation/);
    expect(await invited.locator('#notice').textContent()).toContain('Invitation accepted!');
    await courage.close();

    await page.reload();
    const role = page.getByLabel('Role of Courage');
    expect(await role.inputValue()).toBe('member');
    await role.selectOption('leader');
    await page.locator('#notice').filter({ hasText: 'Courage is now a leader' }).waitFor();
    expect(
      (await bench.json('GET', `/v0/organizations/${org.slug}/members/courage`, { token: bench.muriel })).role,
    ).toBe('leader');
    const row = page.getByTestId('list').locator('tr', { hasText: 'Courage' });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Click again to remove' }).click();
    await page.getByTestId('list').locator('tr', { hasText: 'Courage' }).waitFor({ state: 'detached' });
    expect(
      (await bench.call('GET', `/v0/organizations/${org.slug}/members/courage`, { token: bench.muriel })).status,
    ).toBe(404);

    const temp = await bench.json('POST', '/v0/organizations', { token: bench.muriel, body: { name: 'Temp Org' } });
    await page.goto(`${bench.base}/console/organizations/${temp.slug}/settings`);
    await page.getByLabel('Name').fill('Scratch Org');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/settings\?notify_text=Organization/);
    expect((await bench.json('GET', `/v0/organizations/${temp.slug}`, { token: bench.muriel })).name).toBe(
      'Scratch Org',
    );
    await page.getByLabel("Type the organization's slug to confirm").fill(temp.slug);
    await page.getByRole('button', { name: 'Delete organization' }).click();
    await page.waitForURL(/\/console\?notify_text=/);
    expect((await bench.call('GET', `/v0/organizations/${temp.slug}`, { token: bench.muriel })).status).toBe(404);
    await page.close();
  });

  it('edits the signed-in user: a new name and slug keep the session, a new email waits for its confirmation', async () => {
    const courage = await signedIn(browser, bench, Date.now() + 3_600_000, { slug: 'courage', token: bench.courage });
    const page = await courage.newPage();
    await page.goto(`${bench.base}/console/users/courage/settings`);
    await page.getByLabel('Name').fill('Courage the Dog');
    await page.getByLabel('Slug').fill('courage-the-dog');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/console\/users\/courage-the-dog\/settings\?notify_text=/);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Courage the Dog' }).waitFor();
    expect(await bench.json('GET', '/v0/users/courage-the-dog', { token: bench.courage })).toMatchObject({
      name: 'Courage the Dog',
    });
    await page.getByLabel('Email').fill('courage.the.dog@nowhere.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('pending-email').waitFor();
    expect(await page.locator('#notice').textContent()).toContain(
      'follow the link mailed to courage.the.dog@nowhere.com',
    );
    expect(await page.evaluate(`localStorage.getItem('BENCHER_USER')`)).not.toBeNull();
    await courage.close();
  });
});
