import { captureLog, observeOutage, startThrowawayPostgres, type ThrowawayPostgres } from '@atrium/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METERED_MODEL, type MeteredGateway, startMeteredGateway } from './support/metered-gateway.js';

const chat = { model: METERED_MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
const WARN = 40;

/**
 * The background loops (lease and slot sweeps every 250 ms, the usage flush and the catalogue poll every
 * second) fail on every round while PostgreSQL is down; the log must not grow with the outage's length.
 */
describe('inference log during a PostgreSQL outage', () => {
  let cluster: ThrowawayPostgres;
  let gateway: MeteredGateway;
  const log = captureLog('info');
  beforeAll(async () => {
    cluster = await startThrowawayPostgres();
    gateway = await startMeteredGateway(cluster.url, { logger: log.logger });
  }, 60_000);
  afterAll(async () => {
    await gateway?.close();
    await cluster?.destroy();
  });

  const lines = () =>
    log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { stack?: string } });

  it('logs each failing loop once with its stack, not on every round, and says when it works again', async () => {
    await gateway.newKey(undefined);
    const key = await gateway.newKey(1_000_000, { limits: { concurrentRequests: 4 } });
    await observeOutage(
      cluster,
      (signal) =>
        fetch(`${gateway.base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key.secret}` },
          body: JSON.stringify(chat),
          signal,
        }),
      { outageMs: 4_000 },
    );
    await gateway.app.admission.drain(); // gives every lease back: the sweeps work again

    const failures = lines().filter((line) => line.level >= WARN && line.msg !== 'database unavailable');
    const perMessage = new Map<string, number>();
    for (const line of failures) perMessage.set(line.msg, (perMessage.get(line.msg) ?? 0) + 1);
    // Over 4 s at four sweeps a second, the old log had ~30 give-back failures, each with its stack.
    const giveBacks = perMessage.get('giving a lease back failed; retrying at the next sweep');
    expect(giveBacks).toBeGreaterThan(0);
    expect(giveBacks).toBeLessThanOrEqual(2);
    // One line per loop (the key budgets' and the resources' leases are two), none per round.
    for (const [msg, count] of perMessage) expect({ msg, count: Math.min(count, 2) }).toEqual({ msg, count });
    expect(failures.filter((line) => line.err?.stack).length).toBeLessThanOrEqual(perMessage.size * 2);
    expect(lines().map((line) => line.msg)).toContain('giving leases back works again');
  }, 60_000);
});
