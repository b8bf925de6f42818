import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CapturedLog, captureLog } from '@atrium/core/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DeliveryListing, latestDeliveries } from '../src/storage/announcement-deliveries.js';
import type { InferenceDatabase } from '../src/storage/schema.js';
import { MatrixStub, WebhookReceiver } from './support/chat-receivers.js';
import { seedTenant, withDatabase } from './support/tenancy.js';
import { startUiApp, type UiApp } from './support/ui-app.js';
import { UiClient } from './support/ui-client.js';

const SLACK_TOKEN = 'T0001/B0001/slack-secret-7781';
const MATRIX_TOKEN = 'syt_matrix-secret-5520';
const ROOM = '!ops-room:example.org';
const URL_ENV = 'ATRIUM_TEST_ANNOUNCE_WEBHOOK';
const TIMEOUT_MS = 3_000;
const STATUS_PAGE = 'https://status.example.org/ui/status';

const seed = async (db: Kysely<InferenceDatabase>) => seedTenant(db, {}, Date.now());

/** Every delivery, by channel, once none is pending any more. */
async function settled(url: string): Promise<Map<string, DeliveryListing>> {
  let rows: DeliveryListing[] = [];
  await expect
    .poll(
      async () => {
        rows = await withDatabase(url, (db) => latestDeliveries(db, 100));
        return rows.length > 0 && rows.every((d) => d.status !== 'pending');
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(true);
  return new Map(rows.map((d) => [d.channel, d]));
}

describe('announcements in chat channels', () => {
  let dir: string;
  let slack: WebhookReceiver;
  let matrix: MatrixStub;
  let broken: WebhookReceiver;
  let log: CapturedLog;
  let app: UiApp<Awaited<ReturnType<typeof seed>>>;
  let operator: UiClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-announce-'));
    slack = await WebhookReceiver.start(SLACK_TOKEN);
    matrix = await MatrixStub.start(MATRIX_TOKEN, ROOM);
    broken = await WebhookReceiver.start('T0002/B0002/broken-secret-3391');
    writeFileSync(join(dir, 'matrix-token'), `${MATRIX_TOKEN}\n`);
    process.env[URL_ENV] = slack.url;
    log = captureLog('info');
    app = await startUiApp(
      seed,
      {
        announce: {
          statusPageUrl: STATUS_PAGE,
          attempts: 3,
          retryDelayMs: 50,
          timeoutMs: TIMEOUT_MS,
          pollIntervalMs: 50,
          channels: [
            { type: 'slack', name: 'mattermost-ops', urlEnv: URL_ENV },
            {
              type: 'matrix',
              name: 'matrix-ops',
              homeserver: matrix.origin,
              room: ROOM,
              accessTokenFile: join(dir, 'matrix-token'),
            },
            { type: 'slack', name: 'always-503', url: broken.url },
            { type: 'slack', name: 'wrong-hook', url: `${slack.origin}/services/no-such-hook-secret-1234` },
          ],
        },
      },
      log.logger,
    );
    operator = new UiClient(app.base);
    expect((await operator.signIn(app.seeded.operator.email, 'op-password')).status).toBe(303);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([slack?.close(), matrix?.close(), broken?.close()]);
    delete process.env[URL_ENV];
    rmSync(dir, { recursive: true, force: true });
  });

  it('posts to every channel, retries a 500 and a timeout, fails a broken channel without holding up the others', async () => {
    slack.answers.push(500); // the first attempt fails, the retry succeeds
    matrix.answers.push('hang'); // the first attempt times out, the retry succeeds
    broken.fallback = 503; // every attempt fails
    const posted = await operator.post(
      '/ui/operator/announcements',
      {
        kind: 'incident',
        title: 'Slow answers on <gpu-1> & "friends"',
        body: 'Investigating.\nNext update at 10:00.',
        starts: '2030-01-01T08:00',
        ends: '2030-01-01T10:00',
      },
      '/ui/operator/announcements',
    );
    expect(posted.status).toBe(303);

    // The webhook is posted to (after its retry) while the homeserver's first attempt is still waiting to time out.
    await expect
      .poll(
        async () =>
          (await withDatabase(app.url, (db) => latestDeliveries(db, 10))).find((d) => d.channel === 'mattermost-ops')
            ?.status,
        {
          timeout: TIMEOUT_MS,
          interval: 20,
        },
      )
      .toBe('sent');
    expect(matrix.received).toHaveLength(1);
    expect(matrix.events.size).toBe(0);

    const deliveries = await settled(app.url);
    expect(deliveries.get('mattermost-ops')).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(deliveries.get('matrix-ops')).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    expect(deliveries.get('always-503')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(deliveries.get('always-503')?.last_error).toBe(
      `${new URL(broken.origin).host}: HTTP 503 {"error":"scripted 503"}`,
    );
    expect(deliveries.get('wrong-hook')).toMatchObject({ status: 'failed', attempts: 1 });
    expect(deliveries.get('wrong-hook')?.last_error).toContain('HTTP 404');

    const text =
      '*Incident: Slow answers on &lt;gpu-1&gt; &amp; "friends"*\n2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z\n' +
      `Investigating.\nNext update at 10:00.\n<${STATUS_PAGE}|Status page>`;
    const toHook = slack.received.filter((p) => p.path === `/services/${SLACK_TOKEN}`);
    expect(toHook).toHaveLength(2);
    for (const post of toHook) {
      expect(post).toMatchObject({ method: 'POST', contentType: 'application/json', authorization: undefined });
      expect(post.body).toEqual({ text });
    }
    expect(broken.received).toHaveLength(3);

    // Matrix: the same transaction id on the retry, so the homeserver keeps one event.
    expect(matrix.received).toHaveLength(2);
    expect(new Set(matrix.txnIds).size).toBe(1);
    expect(matrix.events.size).toBe(1);
    expect(matrix.received[1]).toMatchObject({ method: 'PUT', authorization: `Bearer ${MATRIX_TOKEN}` });
    expect(matrix.received[1]?.path).toMatch(
      /^\/_matrix\/client\/v3\/rooms\/!ops-room%3Aexample\.org\/send\/m\.room\.message\/atrium-/,
    );
    expect(matrix.received[1]?.body).toEqual({
      msgtype: 'm.text',
      body: `Incident: Slow answers on <gpu-1> & "friends"\n2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z\nInvestigating.\nNext update at 10:00.\nStatus page: ${STATUS_PAGE}`,
      format: 'org.matrix.custom.html',
      formatted_body:
        '<strong>Incident: Slow answers on &lt;gpu-1&gt; &amp; &quot;friends&quot;</strong><br>2030-01-01T08:00:00Z to 2030-01-01T10:00:00Z<br>' +
        `Investigating.<br>Next update at 10:00.<br><a href="${STATUS_PAGE}">Status page</a>`,
    });

    const page = (await operator.get('/ui/operator/announcements')).text;
    expect(page).toContain(`Matrix room ${ROOM} on ${new URL(matrix.origin).host}`);
    expect(page).toContain(`Slack-compatible webhook on ${new URL(broken.origin).host}`);
    expect(page.match(/<td>sent \d{4}-/g)).toHaveLength(2);
    expect(page).toContain('failed after 3 attempts');
    expect(page).toContain('failed after 1 attempt<');

    expect(log.text()).toContain('announcement channel delivery failed; it will be retried');
    expect(log.text()).toContain('"channel":"always-503"');
    expect(log.text()).toContain(`no answer within ${TIMEOUT_MS} ms`);
    for (const secret of [SLACK_TOKEN, MATRIX_TOKEN, 'broken-secret-3391', 'no-such-hook-secret-1234']) {
      expect(log.text()).not.toContain(secret);
      expect(page).not.toContain(secret);
      expect(JSON.stringify([...deliveries.values()])).not.toContain(secret);
    }
  }, 40_000);
});
