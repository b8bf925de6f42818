import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { ThrowawayPostgres } from './throwaway-postgres.js';

/** The URL with an `application_name` of its own, so a test can find (and kill) just its connections. */
export function tagConnections(url: string): { url: string; applicationName: string } {
  const applicationName = `atrium_test_${randomBytes(6).toString('hex')}`;
  const tagged = new URL(url);
  tagged.searchParams.set('application_name', applicationName);
  return { url: tagged.toString(), applicationName };
}

async function onTagged(adminUrl: string, applicationName: string, select: string): Promise<unknown[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const query = `select ${select} as value from pg_stat_activity where application_name = $1`;
    return (await admin.query(query, [applicationName])).rows.map((row) => row.value);
  } finally {
    await admin.end();
  }
}

/** How many connections tagged `applicationName` are open. */
export async function countBackends(adminUrl: string, applicationName: string): Promise<number> {
  return (await onTagged(adminUrl, applicationName, 'pid')).length;
}

/** `pg_terminate_backend` on every connection tagged `applicationName`; returns how many were killed. */
export async function terminateBackends(adminUrl: string, applicationName: string): Promise<number> {
  return (await onTagged(adminUrl, applicationName, 'pg_terminate_backend(pid)')).filter((killed) => killed === true)
    .length;
}

export interface OutageSample {
  status: number;
  ms: number;
  body: string;
  retryAfter: string | null;
}

export interface OutageObservation {
  /** Answers to requests sent while the server was up, before the outage. */
  before: OutageSample[];
  /** Answers to requests sent after the server had stopped and before it started again. */
  during: OutageSample[];
  /** Answers to requests sent after the server was back (the last one after recovery). */
  after: OutageSample[];
}

/**
 * Sends `request` from two clients in a loop (light load) while `cluster` is stopped for `outageMs` and
 * started again, and keeps going until a request succeeds again (or `recoverWithinMs` passes). A request
 * that gets no answer within 5 s counts as status 0.
 */
export async function observeOutage(
  cluster: ThrowawayPostgres,
  request: (signal: AbortSignal) => Promise<Response>,
  { outageMs = 1500, recoverWithinMs = 15_000 } = {},
): Promise<OutageObservation> {
  const observation: OutageObservation = { before: [], during: [], after: [] };
  let phase: keyof OutageObservation | 'switching' = 'before';
  let recovered = false;
  const sample = async () => {
    const started = performance.now();
    const sentIn = phase;
    let result: OutageSample;
    try {
      const response = await request(AbortSignal.timeout(5000));
      const body = await response.text();
      result = {
        status: response.status,
        ms: performance.now() - started,
        body,
        retryAfter: response.headers.get('retry-after'),
      };
    } catch {
      result = { status: 0, ms: performance.now() - started, body: '', retryAfter: null };
    }
    if (sentIn === 'switching') return;
    observation[sentIn].push(result);
    if (sentIn === 'after' && result.status < 400) recovered = true;
  };
  const client = async () => {
    while (!recovered) {
      await sample();
      await sleep(100);
    }
  };
  const clients = [client(), client()];
  await sleep(500);
  phase = 'switching';
  await cluster.stop();
  phase = 'during';
  await sleep(outageMs);
  phase = 'switching';
  await cluster.start();
  phase = 'after';
  const deadline = Date.now() + recoverWithinMs;
  while (!recovered && Date.now() < deadline) await sleep(50);
  recovered = true;
  await Promise.all(clients);
  return observation;
}
