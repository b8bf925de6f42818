import type { AddressInfo } from 'node:net';
import { type CapturedLog, captureLog, describeEachDialect } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  createOutboxTable,
  latestOutbox,
  type OutboxDatabase,
  OutboxMailer,
  openMigratedDatabase,
  queueEmails,
  smtpSchema,
} from '../src/index.js';

const PASSWORD = 'smtp-secret-pw-1234';

interface Received {
  to: string[];
  data: string;
}

/** A plain SMTP server with AUTH on loopback; recipients listed in `failing` get the given reply code. */
async function startSink(failing: Map<string, number>) {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, done) =>
      auth.username === 'atrium' && auth.password === PASSWORD
        ? done(null, { user: 'atrium' })
        : done(Object.assign(new Error('Authentication failed'), { responseCode: 535 })),
    onRcptTo: (address, _session, done) => {
      const code = failing.get(address.address);
      done(code ? Object.assign(new Error('Refused'), { responseCode: code }) : null);
    },
    onData: (stream, session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data: Buffer.concat(chunks).toString() });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { received, port: (server.server.address() as AddressInfo).port, close: () => server.close() };
}

describeEachDialect('core outbox mailer', ({ url }) => {
  let database: Awaited<ReturnType<typeof openMigratedDatabase<OutboxDatabase>>>;
  let db: Kysely<OutboxDatabase>;
  let sink: Awaited<ReturnType<typeof startSink>>;
  const failing = new Map<string, number>();
  let log: CapturedLog;

  beforeEach(async () => {
    database = await openMigratedDatabase<OutboxDatabase>(url(), 'mailtest', {
      '0001_outbox': { up: (migrating) => createOutboxTable(migrating) },
    });
    db = database.db;
    failing.clear();
    log = captureLog('info');
    sink = await startSink(failing);
  });
  afterEach(async () => {
    sink.close();
    await database.close();
  });

  const smtp = (password = PASSWORD) =>
    smtpSchema.parse({
      host: '127.0.0.1',
      port: sink.port,
      security: 'none',
      user: 'atrium',
      password,
      from: 'Atrium <atrium@example.org>',
      attempts: 3,
      retryDelayMs: 20,
      pollIntervalMs: 30,
    });

  const queue = (recipient: string, status: 'queued' | 'outbox' = 'queued') =>
    queueEmails(db, [
      { recipient, subject: 'Hello', body: `Code: secret-for-${recipient}`, created: Date.now(), status },
    ]);

  const settled = async (count: number) => {
    await expect
      .poll(
        async () => (await latestOutbox(db, 100)).filter((m) => m.status === 'sent' || m.status === 'failed').length,
        {
          timeout: 10_000,
          interval: 30,
        },
      )
      .toBe(count);
    return latestOutbox(db, 100);
  };

  it('sends queued messages, leaves outbox ones alone, retries temporary failures and fails refusals at once', async () => {
    failing.set('refused@example.org', 550);
    failing.set('busy@example.org', 451);
    await queue('ok@example.org');
    await queue('kept@example.org', 'outbox');
    await queue('refused@example.org');
    await queue('busy@example.org');
    const mailer = new OutboxMailer(db, smtp(), log.logger, Date.now, 'test email');
    mailer.start();
    try {
      const messages = await settled(3);
      const byRecipient = Object.fromEntries(messages.map((m) => [m.recipient, m]));
      expect(byRecipient['ok@example.org']).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
      expect(byRecipient['kept@example.org']).toMatchObject({ status: 'outbox', attempts: 0 });
      expect(byRecipient['refused@example.org']).toMatchObject({ status: 'failed', attempts: 1 });
      expect(byRecipient['busy@example.org']).toMatchObject({ status: 'failed', attempts: 3 });
      expect(sink.received.map((m) => m.to)).toEqual([['ok@example.org']]);
      expect(sink.received[0]?.data).toContain('Code: secret-for-ok@example.org');
      expect(log.text()).toContain('test email failed; it will be retried');
      expect(log.text()).not.toContain('secret-for');
    } finally {
      await mailer.close();
    }
  });

  it('fails every message on a wrong password without logging it', async () => {
    await queue('ok@example.org');
    const mailer = new OutboxMailer(db, smtp('wrong-password-5678'), log.logger, Date.now, 'test email');
    mailer.start();
    try {
      const [message] = await settled(1);
      expect(message?.status).toBe('failed');
      expect(log.text()).not.toContain('wrong-password-5678');
      expect(sink.received).toEqual([]);
    } finally {
      await mailer.close();
    }
  });

  it('refuses an SMTP user without password in the configuration, never echoing it', () => {
    const result = smtpSchema.safeParse({ host: 'h', from: 'a@b.c', password: 'lonely-secret' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).not.toContain('lonely-secret');
  });
});
