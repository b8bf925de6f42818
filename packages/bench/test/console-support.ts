import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { at, type Bench, bmf, seedProject, startBench } from './harness.js';

/** A fresh SQLite bench server. */
export const startConsoleBench = (): Promise<Bench> =>
  startBench(`sqlite:${join(mkdtempSync(join(tmpdir(), 'atrium-console-')), 'bench.db')}`);

/** Steady latency around 100 ns with a little deterministic noise. */
const steady = (i: number) => 100 + ((i * 7) % 5) - 2;

/**
 * Muriel's public project `the-computer` with 30 steady reports of two benchmarks on `main` under a t-test
 * threshold and a regression of `tests::fib` at the end (one active alert), and her private project `secret`.
 */
export async function seedConsole(bench: Bench) {
  const { org } = await seedProject(bench);
  await bench.json('POST', `/v0/organizations/${org.slug}/projects`, {
    token: bench.muriel,
    body: { name: 'Secret', slug: 'secret', visibility: 'private' },
  });
  const report = (second: number, fib: number, extra: Record<string, unknown> = {}, branch = 'main') =>
    bench.json('POST', '/v0/projects/the-computer/reports', {
      token: bench.muriel,
      body: {
        branch,
        testbed: 'localhost',
        hash: second.toString(16).padStart(40, '0'),
        start_time: at(second),
        end_time: at(second + 1),
        results: [bmf({ 'tests::fib': { latency: fib }, 'tests::sort': { latency: 50 + (second % 3) } })],
        settings: { adapter: 'json' },
        ...extra,
      },
    });
  await report(0, steady(0), {
    thresholds: { models: { latency: { test: 't_test', max_sample_size: 64, upper_boundary: 0.99 } } },
  });
  for (let i = 1; i < 30; i++) await report(i * 10, steady(i));
  const regression = await report(300, 150);
  return { org, regression, report };
}

/** A fresh console bench seeded by `seedConsole`, with what it seeded. */
export async function startSeededConsole() {
  const bench = await startConsoleBench();
  return Object.assign(bench, { seeded: await seedConsole(bench) });
}

/**
 * A browser context signed in as Muriel (or `as` another user): Bencher's console session in localStorage,
 * expiring at `expiration`.
 */
export async function signedIn(
  browser: Browser,
  bench: Bench,
  expiration = Date.now() + 3_600_000,
  as = { slug: 'muriel-bagge', token: bench.muriel },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const me = await bench.json('GET', `/v0/users/${as.slug}`, { token: as.token });
  const session = {
    user: me,
    token: as.token,
    creation: new Date().toISOString(),
    expiration: new Date(expiration).toISOString(),
  };
  // Seeds the session once per tab, so that the console's own log-out (or expiry) sticks.
  await context.addInitScript({
    content: `if (!sessionStorage.getItem('seeded')) {
  localStorage.setItem('BENCHER_USER', ${JSON.stringify(JSON.stringify(session))});
  sessionStorage.setItem('seeded', '1');
}`,
  });
  return context;
}
