import { latestOutbox, type OutboxMessage } from '@atrium/core';
import { type CapturedLog, captureLog } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inferenceConfigSchema } from '../src/index.js';
import { setOptOut } from '../src/storage/announcements.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { OperatorCommands } from '../src/tenancy/operator.js';
import { SmtpSink } from './support/smtp-sink.js';
import { seedProject, seedTenant, withDatabase } from './support/tenancy.js';
import { startUiApp, type UiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

const USER = 'mailer';
const PASSWORD = 'smtp-secret-pw-8472';

async function seed(db: Kysely<InferenceDatabase>) {
  const quiet = await seedTenant(db, {}, Date.now());
  await setOptOut(db, quiet.member.id, true);
  const loud = await seedTenant(db, {}, Date.now());
  const outsider = await seedProject(db, 'atrium', Date.now()); // no inference resource: not subscribed
  return { quiet, loud, outsider };
}

const smtpConfig = (sink: SmtpSink, password = PASSWORD) => ({
  smtp: {
    host: '127.0.0.1',
    port: sink.port,
    security: 'none',
    user: USER,
    password,
    from: 'Atrium status <status@example.org>',
    attempts: 3,
    retryDelayMs: 30,
    pollIntervalMs: 50,
  },
});

/** Posts an announcement as `atrium inference announce` does: straight into the database, for the mailer to find. */
const announceFromCli = (url: string, kind: string, body: string) =>
  withDatabase(url, async (db) => {
    await new OperatorCommands(db, 'smtp').announce({
      kind,
      title: `About ${kind}`,
      body,
      starts: Date.now(),
      ends: Date.now() + 3_600_000,
    });
  });

/** Waits until every message in the outbox has left the queue, and returns them oldest first. */
async function settled(url: string, count: number): Promise<OutboxMessage[]> {
  let messages: OutboxMessage[] = [];
  await expect
    .poll(
      async () => {
        await withDatabase(url, async (db) => {
          messages = (await latestOutbox(db, 100)).reverse();
        });
        return messages.length === count && messages.every((m) => m.status !== 'queued');
      },
      { timeout: 10_000, interval: 50 },
    )
    .toBe(true);
  return messages;
}

describe('announcement emails through SMTP', () => {
  let sink: SmtpSink;
  let log: CapturedLog;
  let app: UiApp<Awaited<ReturnType<typeof seed>>>;
  let operator: UiClient;

  beforeAll(async () => {
    sink = await SmtpSink.start(USER, PASSWORD);
    log = captureLog('info');
    app = await startUiApp(seed, smtpConfig(sink), log.logger);
    operator = new UiClient(app.base);
    expect((await operator.signIn(app.seeded.quiet.operator.email, 'op-password')).status).toBe(303);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });

  it('posting does not wait for SMTP; every subscriber gets the email, the opted-out and outsiders nothing', async () => {
    sink.hold();
    const posted = await operator.post(
      '/ui/operator/announcements',
      {
        kind: 'maintenance',
        title: 'GPU driver update',
        body: 'The gateway restarts once.',
        starts: '2030-01-01T08:00',
        ends: '2030-01-01T10:00',
      },
      '/ui/operator/announcements',
    );
    expect(posted.status).toBe(303);
    expect(sink.received).toHaveLength(0);
    sink.resume();

    const { quiet, loud } = app.seeded;
    const messages = await settled(app.url, 3);
    expect(messages.map((m) => m.status)).toEqual(['sent', 'sent', 'sent']);
    const recipients = sink.received.flatMap((m) => m.to).sort();
    expect(recipients).toEqual([quiet.pi.email, loud.pi.email, loud.member.email].sort());
    for (const mail of sink.received) {
      expect(mail.to).toHaveLength(1);
      expect(mail.from).toBe('status@example.org');
      expect(mail.headers.get('from')).toBe('Atrium status <status@example.org>');
      expect(mail.headers.get('to')).toBe(mail.to[0]);
      expect(mail.headers.get('subject')).toBe('[Atrium inference] Planned maintenance: GPU driver update');
      expect(mail.body).toBe(
        'Planned maintenance from 2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z.\n\nThe gateway restarts once.\n\n' +
          'You receive this because you have access to a project with an inference resource; you can opt out in the web UI.',
      );
    }

    const page = (await operator.get('/ui/operator/announcements')).text;
    expect(page).toContain('Emails go out through 127.0.0.1');
    expect(page.match(/<td>sent \d{4}-/g)).toHaveLength(3);
  });

  it('retries a temporary failure, fails a refused recipient at once, gives up after 3 attempts; logs no password', async () => {
    const { quiet, loud } = app.seeded;
    sink.received.length = 0;
    sink.refused.set(loud.member.email, 550);
    sink.failures.set(quiet.pi.email, [451]);
    sink.failures.set(loud.pi.email, [451, 451, 451]);
    await announceFromCli(app.url, 'incident', 'Investigating.');
    const messages = (await settled(app.url, 6)).slice(3);
    const byRecipient = new Map(messages.map((m) => [m.recipient, m]));
    expect(byRecipient.get(loud.member.email)).toMatchObject({ status: 'failed', attempts: 1 });
    expect(byRecipient.get(loud.member.email)?.last_error).toContain('550');
    expect(byRecipient.get(quiet.pi.email)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(byRecipient.get(loud.pi.email)).toMatchObject({ status: 'failed', attempts: 3 });
    expect(byRecipient.get(loud.pi.email)?.last_error).toContain('451');
    expect(sink.received.map((m) => m.to)).toEqual([[quiet.pi.email]]);
    expect(sink.received.flatMap((m) => m.to)).not.toContain(loud.member.email);

    const page = (await operator.get('/ui/operator/announcements')).text;
    expect(page).toContain('failed after 1 attempt<');
    expect(page).toContain('failed after 3 attempts');
    expect(log.text()).toContain('announcement email failed');
    expect(log.text()).not.toContain(PASSWORD);
  });
});

describe('announcement emails with a wrong SMTP password', () => {
  it('fails the messages, shows why, and never logs the password', async () => {
    const sink = await SmtpSink.start(USER, PASSWORD);
    const log = captureLog('info');
    const wrong = 'wrong-secret-pw-1234';
    const app = await startUiApp(seed, smtpConfig(sink, wrong), log.logger);
    try {
      await announceFromCli(app.url, 'model_change', '');
      const messages = await settled(app.url, 3);
      expect(messages.every((m) => m.status === 'failed')).toBe(true);
      expect(messages[0]?.last_error).toContain('535');
      expect(sink.received).toHaveLength(0);
      expect(log.text()).toContain('announcement email failed');
      expect(log.text()).not.toContain(wrong);
      expect(JSON.stringify(messages)).not.toContain(wrong);
    } finally {
      await app.close();
      await sink.close();
    }
  }, 30_000);
});

describe('SMTP configuration', () => {
  const base = { host: 'smtp.example.org', from: 'status@example.org' };
  it.each([
    [{ ...base }, { port: 587, security: 'starttls', attempts: 4, retryDelayMs: 60_000 }],
    [
      { ...base, port: 465, security: 'tls', user: 'u', password: 'p' },
      { port: 465, security: 'tls', user: 'u' },
    ],
  ])('accepts %j', (smtp, expected) => {
    expect(inferenceConfigSchema.parse({ smtp }).smtp).toMatchObject(expected);
  });
  it.each([
    [{ ...base, user: 'u' }, 'user and password go together'],
    [{ ...base, password: 'secret-only' }, 'user and password go together'],
    [{ ...base, security: 'ssl' }, 'security'],
    [{ host: 'smtp.example.org' }, 'from'],
  ])('refuses %j', (smtp, message) => {
    const result = inferenceConfigSchema.safeParse({ smtp });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
    expect(JSON.stringify(result.error?.issues)).not.toContain('secret-only');
  });
});
