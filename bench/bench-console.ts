// The bench console's speed on the perf benchmarks' dataset (~100,000 metrics), served by a real
// `atrium serve --services bench` on SQLite and PostgreSQL: the perf API at 255 permutations beside its
// raw SQL, and in headless Chromium the time from navigation to the perf page's first drawn plot, with
// the JavaScript the page loads. Args: `[api runs] [page loads] [sqlite|postgres|both] [reports]`.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { openBenchDatabase, perfMetrics } from '@atrium/bench';
import { launchChromium } from '@atrium/core/testing/chromium';
import type { Browser } from 'playwright-core';
import { type Dialect, startService } from './lib/atrium-serve.js';
import { median, percentile } from './lib/load.js';
import {
  apiBesideSql,
  BENCHMARKS,
  perfDimensions,
  perfView,
  REPORTS,
  seedPerfProject,
  vacuumSeeded,
} from './lib/perf-dataset.js';
import type { BenchReport } from './lib/report.js';

const WARM_UP = 5;
const LAST_REPORTS = 10;
/** The mark plot.js sets after uPlot's first draw. */
const FIRST_PLOT = 'atrium:first-plot';

/** The fields of the browser's `PerformanceResourceTiming` read here (this file is type-checked without the DOM library). */
interface ResourceTiming {
  name: string;
  responseEnd: number;
  encodedBodySize: number;
}

interface PageLoad {
  /** Navigation start to the first drawn plot. */
  firstPlot: number;
  /** Navigation start to the last byte of the perf API's answer. */
  perfResponseEnd: number;
  /** Gzipped bytes of the scripts the page loaded, and of everything else but the perf data. */
  scriptBytes: number;
  otherBytes: number;
}

/** CPU milliseconds (user + system) a process has used so far, from /proc (Linux: clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One cold load of the perf page in a fresh browser context (no cache), timed by the page itself. */
async function loadPerfPage(browser: Browser, url: string): Promise<PageLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(url);
    // The console's CSP forbids eval, so no waitForFunction: one evaluated function polls for the mark. It
    // names no inner functions (tsx would wrap them in a helper the page does not have).
    return await page.evaluate(async (mark) => {
      for (let waited = 0; waited < 30_000; waited += 5) {
        const drawn = performance.getEntriesByName(mark)[0];
        if (drawn) {
          const resources = (performance.getEntriesByType('resource') as unknown as ResourceTiming[]).map((entry) => ({
            entry,
            path: new URL(entry.name).pathname,
          }));
          const perf = resources.find(({ path }) => path.endsWith('/perf'));
          let scriptBytes = 0;
          let otherBytes = 0;
          for (const { entry, path } of resources) {
            if (path.endsWith('.js')) scriptBytes += entry.encodedBodySize;
            else if (entry !== perf?.entry) otherBytes += entry.encodedBodySize;
          }
          return {
            firstPlot: drawn.startTime,
            perfResponseEnd: perf?.entry.responseEnd ?? -1,
            scriptBytes,
            otherBytes,
          };
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`no ${mark} within 30 s`);
    }, FIRST_PLOT);
  } finally {
    await context.close();
  }
}

async function measure(dialect: Dialect, browser: Browser, runs: number, loads: number, reports: number) {
  let token = '';
  const running = await startService('bench', dialect, {
    before: async (cli) => {
      await cli(['bench', 'admin', 'user', 'create', '--name', 'Bench Runner', '--email', 'runner@bench.local']);
      token = (await cli(['bench', 'admin', 'token', '--email', 'runner@bench.local', '--jwt'])).trim();
    },
  });
  const raw = await openBenchDatabase(running.database);
  try {
    const headers = { authorization: `Bearer ${token}` };
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${running.origin}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    };
    await post('/v0/organizations/bench-runner/projects', { name: 'Bench', slug: 'bench' });
    await seedPerfProject(post, reports);
    await vacuumSeeded(raw);
    const { search, query } = perfView(await perfDimensions(running.origin, token), reports, LAST_REPORTS);
    let bytes = 0;
    const request = async () => {
      const response = await fetch(`${running.origin}/v0/projects/bench/perf?${search}`, { headers });
      bytes = (await response.text()).length;
    };
    const cpuBefore = cpuMs(running.pid);
    const { api, sql } = await apiBesideSql(request, () => perfMetrics(raw, query), runs, WARM_UP);
    const serverCpu = (cpuMs(running.pid) - cpuBefore) / (runs + WARM_UP);
    // The project is public: the page is loaded as an anonymous visitor would.
    const pageUrl = `${running.origin}/perf/bench?${search}`;
    await loadPerfPage(browser, pageUrl);
    const pages: PageLoad[] = [];
    for (let i = 0; i < loads; i++) pages.push(await loadPerfPage(browser, pageUrl));
    const firstPlot = pages.map((load) => load.firstPlot);
    const last = pages.at(-1) as PageLoad;
    return {
      dialect,
      'API p50 ms': median(api),
      'API p99 ms': percentile(api, 0.99),
      'SQL p50 ms': median(sql),
      'SQL p99 ms': percentile(sql, 0.99),
      'API/SQL': (median(api) / median(sql)).toFixed(2),
      'server CPU ms/request': serverCpu,
      'answer KB': Math.round(bytes / 1024),
      'data in page p50 ms': median(pages.map((load) => load.perfResponseEnd)),
      'first plot p50 ms': median(firstPlot),
      'first plot p99 ms': percentile(firstPlot, 0.99),
      'JS KB gz': (last.scriptBytes / 1024).toFixed(1),
      'other KB gz': (last.otherBytes / 1024).toFixed(1),
    };
  } finally {
    await raw.close();
    await running.stop();
  }
}

export default async function benchConsole(args: string[]): Promise<BenchReport> {
  const runs = Number(args[0] ?? 200);
  const loads = Number(args[1] ?? 30);
  const which = args[2] ?? 'both';
  const reports = Number(args[3] ?? REPORTS);
  const dialects = (['sqlite', 'postgres'] as const).filter((d) => which === 'both' || which === d);
  const browser = await launchChromium();
  const rows = [];
  try {
    for (const dialect of dialects) rows.push(await measure(dialect, browser, runs, loads, reports));
  } finally {
    await browser.close();
  }
  return {
    title: `Bench console, ${BENCHMARKS} permutations (last ${LAST_REPORTS} reports, ${LAST_REPORTS * BENCHMARKS} metrics) of a project with ${reports * BENCHMARKS} metrics, atrium serve --services bench, ${availableParallelism()} cores`,
    columns: [
      'dialect',
      'API p50 ms',
      'API p99 ms',
      'SQL p50 ms',
      'SQL p99 ms',
      'API/SQL',
      'server CPU ms/request',
      'answer KB',
      'data in page p50 ms',
      'first plot p50 ms',
      'first plot p99 ms',
      'JS KB gz',
      'other KB gz',
    ],
    rows,
    notes: [
      'goals: API p99 < 50 ms; first plot < 1 s after navigation; JavaScript shipped to the perf page < 150 KB gzipped',
      `API = request sent to body received as text, ${runs} sequential requests alternating with ${runs} runs of its SQL (perfMetrics on a second connection from this process), ${WARM_UP} untimed runs of each first`,
      `first plot = navigation start to the '${FIRST_PLOT}' mark after uPlot's first draw, ${loads} cold loads (fresh browser context each) of /perf/bench?<the same view> as an anonymous visitor of the public project, after one untimed load; data in page = navigation start to the last byte of the perf answer`,
      'server CPU = user + system time of the atrium serve process over the API requests (warm-up included), per request: less sensitive to a busy machine than latency',
      'JS KB gz = encoded (gzipped) bytes of every script the page loaded; other = the rest but the perf data (HTML, CSS, other API answers)',
    ],
  };
}
