import { readFileSync } from 'node:fs';
import { chromiumAvailable, launchChromium } from '@atrium/core/testing';
import OpenAI from 'openai';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpSink } from './support/smtp-sink.js';
import { seedProject, withDatabase } from './support/tenancy.js';
import { UI_MODEL as MODEL, startUiApp, type UiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-secret-pw-1935';

describe.skipIf(!chromiumAvailable)('a PI from service-desk request to a key refused at the grant end', () => {
  let sink: SmtpSink;
  let app: UiApp<Awaited<ReturnType<typeof seedProject>>>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    sink = await SmtpSink.start(SMTP_USER, SMTP_PASSWORD);
    app = await startUiApp((db) => seedProject(db, 'elsewhere', Date.now()), {
      smtp: {
        host: '127.0.0.1',
        port: sink.port,
        security: 'none',
        user: SMTP_USER,
        password: SMTP_PASSWORD,
        from: 'Atrium <atrium@example.org>',
        pollIntervalMs: 50,
      },
    });
    browser = await launchChromium();
    page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await sink?.close();
  });

  const section = () => page.locator(`section[data-project="${app.seeded.project.name}"]`);
  const openai = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${app.base}/v1`, maxRetries: 0 });
  const ask = (apiKey: string) =>
    openai(apiKey).chat.completions.create({
      model: MODEL,
      max_tokens: 16,
      messages: [{ role: 'user', content: 'hi' }],
    });

  async function fileRequest(nodeHours: string) {
    await section().getByLabel('Request').fill('Agents for our group');
    await section().getByLabel('Node hours').fill(nodeHours);
    await section().getByLabel('Cluster').selectOption('c1');
    await section().getByRole('button', { name: 'File request' }).click();
    await page.waitForLoadState();
  }

  async function downloadCsv(): Promise<string> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByText('Download CSV').click()]);
    return readFileSync((await download.path()) ?? '', 'utf8');
  }

  it('files, is told the state, gets the mail, manages a key, and is refused with the reason once the grant ends', async () => {
    await page.goto(`${app.base}/ui/`);
    await page.getByLabel('Email').fill(app.seeded.pi.email);
    await page.getByLabel('Password').fill('pi-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    // A request the operators could not approve is refused when filed.
    await fileRequest('5000');
    expect(await page.getByRole('alert').textContent()).toContain("1000 node hours left on cluster 'c1'");
    await fileRequest('10');
    const requests = section().getByTestId('project-requests');
    expect(await requests.textContent()).toMatch(/10c1Agents for our grouppending/);

    const operator = new UiClient(app.base);
    await operator.signIn(app.seeded.operator.email, 'op-password');
    const id = /action="\/ui\/requests\/(\d+)\/approve"/.exec((await operator.get('/ui/')).text)?.[1];
    expect((await operator.post(`/ui/requests/${id}/approve`, {})).status).toBe(303);
    await expect.poll(() => sink.received.length, { timeout: 10_000 }).toBe(1);
    const mail = sink.received[0];
    expect(mail?.to).toEqual([app.seeded.pi.email]);
    expect(mail?.headers.get('subject')).toBe(`[Atrium inference] Service-desk request #${id} approved`);
    expect(mail?.body).toContain('100 credits were added');

    await page.reload();
    expect(await requests.textContent()).toContain('approved');
    await section().getByText('Create a key').click();
    await section().getByLabel('Alias').fill('agents');
    await section()
      .getByLabel(/^Expires after/)
      .fill('2030-12-31');
    await section()
      .getByLabel(/^Requests per minute/)
      .fill('60');
    await section().getByRole('button', { name: 'Create key' }).click();
    const first = (await page.getByTestId('secret').textContent()) ?? '';
    const keys = section().getByTestId('keys');
    expect(await keys.textContent()).toContain('60 rpm');
    expect(await keys.textContent()).toContain('2030-12-31');
    expect(await keys.textContent()).toContain(app.seeded.pi.email);

    await keys.getByRole('link', { name: 'Manage agents' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const second = (await page.getByTestId('secret').textContent()) ?? '';
    expect(second).toMatch(/^sk-/);
    expect(second).not.toBe(first);
    const stale = await ask(first).catch((error: unknown) => error);
    expect(stale).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await ask(second)).choices[0]?.message.content).toBe('Paris.');

    await page.getByLabel('Token budget (optional)').fill('5000');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForLoadState();
    expect(await page.getByLabel('Token budget (optional)').inputValue()).toBe('5000');
    expect(await page.getByLabel(/^Expires after/).inputValue()).toBe('2030-12-31');

    const today = new Date().toISOString().slice(0, 10);
    await expect
      .poll(async () => (await downloadCsv()).split('\r\n'), { timeout: 10_000 })
      .toEqual([
        'key,day,model,requests,prompt_tokens,completion_tokens,total_tokens,credits',
        expect.stringMatching(new RegExp(`^agents,${today},${MODEL},1,14,16,30,0\\.\\d+$`)),
        '',
      ]);

    const ends = Date.now() + 1_000;
    await withDatabase(app.url, (db) =>
      db.updateTable('project_grant').set({ ends }).where('project_id', '=', app.seeded.project.id).execute(),
    );
    // Asked every 50 ms from the end on, so that the key's 60 requests per minute are not what refuses it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, ends - Date.now())));
    let refusal: unknown;
    while (!refusal) {
      refusal = await ask(second).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (!refusal) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - ends).toBeLessThan(1_000);
    expect(refusal).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect((refusal as Error).message).toMatch(
      /^403 The project's grant ended at .*Ask the project's PI to renew the grant\.$/,
    );
  });
});
