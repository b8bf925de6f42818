import type { AddressInfo } from 'node:net';
import { describeEachDialect } from '@atrium/core/testing';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, type Json, outboxOf, startBench } from './harness.js';

/** A real SMTP server on loopback (a local relay: no TLS, no AUTH) keeping the raw messages it accepts. */
async function startRelay() {
  const received: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, done) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8').replace(/=\r\n/g, '').replace(/=3D/g, '='));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { received, port: (server.server.address() as AddressInfo).port, close: () => server.close() };
}

describeEachDialect('bench sign-up mails through a real SMTP server', ({ url }) => {
  let bench: Bench;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  beforeEach(async () => {
    relay = await startRelay();
    bench = await startBench(url(), {
      smtp: {
        host: '127.0.0.1',
        port: relay.port,
        security: 'none',
        from: 'Atrium bench <bench@example.org>',
        pollIntervalMs: 50,
        retryDelayMs: 50,
      },
    });
  });
  afterEach(async () => {
    await bench.close();
    relay.close();
  });

  it('delivers the confirmation link over SMTP, and its code confirms the sign-up', async () => {
    const response = await bench.call('POST', '/v0/auth/signup', {
      body: { name: 'Shirley', email: 'shirley@nowhere.com', i_agree: true },
    });
    expect(response.status).toBe(202);
    await expect.poll(() => relay.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    const raw = relay.received[0] as string;
    expect(raw).toMatch(/^To: shirley@nowhere\.com$/m);
    expect(raw).toMatch(/^From: Atrium bench <bench@example\.org>$/m);
    expect(raw).toMatch(/^Subject: Confirm Bench Signup$/m);
    const token = /^Code: (\S+)$/m.exec(raw)?.[1] as string;
    expect(raw).toContain(`/auth/confirm?token=${token}`);
    await expect.poll(async () => (await outboxOf(bench, 1))[0]?.status, { timeout: 5_000 }).toBe('sent');

    const confirmed = await bench.call('POST', '/v0/auth/confirm', { body: { token } });
    expect(confirmed.status).toBe(200);
    const session = (await confirmed.json()) as Json;
    expect((await bench.call('GET', `/v0/users/${session.user.slug}`, { token: session.token })).status).toBe(200);
  });
});
