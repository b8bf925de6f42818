import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { WebhookReceiver } from '../../inference/test/support/chat-receivers.js';
import { startFixedUpstream } from '../../inference/test/support/fixed-upstream.js';
import { cliEnv, inferenceOperator, runCli, startServe } from './run-cli.js';

const HOOK_TOKEN = 'T9/B9/cli-hook-secret-6610';
const MATRIX_TOKEN_ENV = 'ATRIUM_TEST_MATRIX_TOKEN';

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('atrium inference announce queues a post per chat channel, atrium serve posts it, atrium inference outbox shows each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-announce-cli-'));
  const hook = await WebhookReceiver.start(HOOK_TOKEN);
  const upstream = await startFixedUpstream();
  const homeserverPort = await closedPort();
  try {
    const config = join(dir, 'atrium.toml');
    writeFileSync(
      config,
      `[inference]\n[inference.auth]\ndemo = false\n` +
        `[[inference.models]]\nid = "acme/chat"\ncontextLength = 4096\nbackend = { type = "upstream", replicas = ["${upstream.origin}"] }\n` +
        `[inference.announce]\nretryDelayMs = 100\npollIntervalMs = 100\n` +
        `[[inference.announce.channels]]\ntype = "slack"\nname = "ops-webhook"\nurlEnv = "ATRIUM_TEST_HOOK"\n` +
        `[[inference.announce.channels]]\ntype = "matrix"\nname = "ops-matrix"\nhomeserver = "http://127.0.0.1:${homeserverPort}"\nroom = "!ops:example.org"\naccessTokenEnv = "${MATRIX_TOKEN_ENV}"\n`,
    );
    // The operator CLI only names the channels: it needs none of their secrets.
    const operator = inferenceOperator(cliEnv({ ATRIUM_CONFIG: config }));
    const announced = JSON.parse(
      await operator(
        'announce',
        '--kind',
        'maintenance',
        '--title',
        'GPU driver update',
        '--start',
        '2030-01-01T08:00:00Z',
        '--end',
        '2030-01-01T10:00:00Z',
        '--data-dir',
        dir,
        '--json',
      ),
    ) as { channels: number; recipients: number };
    expect(announced).toMatchObject({ channels: 2, recipients: 0 });
    const pending = await operator('outbox', '--data-dir', dir);
    expect(pending.split('\n')[0]).toMatch(/^TYPE +TO +SUBJECT +STATUS +ATTEMPTS +QUEUED +SENT +LAST ERROR$/);
    expect(pending).toMatch(/^channel +ops-matrix +Planned maintenance: GPU driver update +pending +0 /m);
    expect(pending).toMatch(/^channel +ops-webhook +Planned maintenance: GPU driver update +pending +0 /m);

    // A channel whose secret is missing stops the gateway at start with a configuration error (exit 2).
    const serveEnv = cliEnv({ ATRIUM_CONFIG: config, ATRIUM_TEST_HOOK: hook.url });
    const missing = await runCli(['serve', '--services', 'inference', '--data-dir', dir], serveEnv);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`the environment variable ${MATRIX_TOKEN_ENV} (accessTokenEnv) is not set`);

    const served = await startServe(
      ['--services', 'inference', '--data-dir', dir],
      ['inference'],
      cliEnv({ ...serveEnv, [MATRIX_TOKEN_ENV]: 'syt_cli-matrix-secret-1234', ATRIUM_LOG_LEVEL: 'info' }),
    );
    let logs = '';
    served.child.stdout.on('data', (d) => {
      logs += d;
    });
    served.child.stderr.on('data', (d) => {
      logs += d;
    });
    try {
      const outbox = async () =>
        JSON.parse(await operator('outbox', '--data-dir', dir, '--json')) as {
          to: string;
          status: string;
          attempts: number;
          last_error: string | null;
        }[];
      await expect
        .poll(async () => (await outbox()).find((o) => o.to === 'ops-webhook')?.status, { timeout: 15_000 })
        .toBe('sent');
      expect(hook.received.map((p) => p.body)).toEqual([
        { text: '*Planned maintenance: GPU driver update*\n2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z' },
      ]);
      // Nothing listens on the homeserver's port: retried, with the reason and without the token.
      await expect
        .poll(async () => (await outbox()).find((o) => o.to === 'ops-matrix')?.attempts, { timeout: 15_000 })
        .toBeGreaterThanOrEqual(2);
      const matrix = (await outbox()).find((o) => o.to === 'ops-matrix');
      expect(matrix?.last_error).toBe(`127.0.0.1:${homeserverPort}: ECONNREFUSED`);
      const table = await operator('outbox', '--data-dir', dir);
      expect(table).toMatch(/^channel +ops-webhook +Planned maintenance: GPU driver update +sent +1 +\S+ +20\d\d-/m);
    } finally {
      await served.stop();
    }
    expect(logs).toContain('announcement channel delivery failed; it will be retried');
    expect(logs).not.toContain(HOOK_TOKEN);
    expect(logs).not.toContain('cli-matrix-secret');

    const refused = await runCli(['inference', 'outbox', '--limit', '0', '--data-dir', dir], serveEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the limit must be 1 to 1000');
    const help = await runCli(['inference', 'outbox', '--help'], serveEnv);
    expect(help.stdout).toContain('atrium inference outbox [--limit N]');
  } finally {
    await hook.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
