// The provenance browser's node pages on a served archive: server time (the page's Server-Timing) and answer
// time over distinct nodes of the common kinds, requested one after another (nothing memoised but the source's
// user and computer names), throughput at 8 connections on one CalcJob page, and Chromium's first paint.

import { readdirSync, readFileSync } from 'node:fs';
import { launchChromium } from '@atrium/core/testing/chromium';
import { load, percentileOfSorted } from './load.js';
import { cpuMicros } from './process-cpu.js';

/** The kinds of node sampled: `count` distinct nodes of each, spread over the archive. */
const KINDS = [
  ['CalcJob (pw)', 'process_type="aiida.calculations:quantumespresso.pw"'],
  ['WorkChain (relax)', 'process_type="aiida.workflows:quantumespresso.pw.relax"'],
  ['StructureData', 'node_type="data.core.structure.StructureData."'],
  ['Dict', 'node_type="data.core.dict.Dict."'],
] as const;

const HTML = { accept: 'text/html' };

/** CPU microseconds of a process and its children (the server and its SQLite query workers). */
function treeCpuMicros(pid: number): number {
  let children: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      children = children.concat(
        readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpuMicros(pid) + children.reduce((sum, child) => sum + treeCpuMicros(child), 0);
}

async function uuidsOf(base: string, filter: string, count: number, offset: number): Promise<string[]> {
  const answer = await fetch(`${base}/api/v4/nodes?${filter}&limit=${count}&offset=${offset}&orderby=id`);
  const body = (await answer.json()) as { data: { nodes: { uuid: string }[] } };
  return body.data.nodes.map((n) => n.uuid);
}

const round = (ms: number) => Math.round(ms * 10) / 10;

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: round(percentileOfSorted(sorted, 0.5)), p99: round(percentileOfSorted(sorted, 0.99)) };
}

export interface BrowseRow {
  page: string;
  nodes: number;
  'server p50 ms': number;
  'server p99 ms': number;
  'answer p50 ms': number;
  'answer p99 ms': number;
  'KB p50': number;
  /** CPU of the server and its query workers per page: what the page costs, whatever the machine's load. */
  'CPU ms/page': number;
}

/** One row per kind of node page, one for throughput, one for the first paint. */
export async function measureNodePages(base: string, serverPid: number, totalNodes: number, perKind = 50, paints = 20) {
  const landing = await (await fetch(`${base}/`, { headers: HTML })).text();
  const source = /href="\/browse\/([^/"]+)\/nodes"/.exec(landing)?.[1];
  if (!source) throw new Error('the landing page names no source');
  const pageOf = (uuid: string) => `${base}/browse/${source}/nodes/${uuid}`;
  // Untimed, two nodes of each kind outside the samples: the first pages read the source's user and computer
  // names and prepare each statement on each query worker.
  for (const [, filter] of KINDS) {
    for (const uuid of await uuidsOf(base, filter, 2, 0)) await (await fetch(pageOf(uuid), { headers: HTML })).text();
  }
  const rows: BrowseRow[] = [];
  const all: number[] = [];
  let calcjobs: string[] = [];
  for (const [name, filter] of KINDS) {
    const uuids = await uuidsOf(base, filter, perKind, Math.floor(totalNodes / 200));
    if (name.startsWith('CalcJob')) calcjobs = uuids;
    const server: number[] = [];
    const answer: number[] = [];
    const sizes: number[] = [];
    const cpuBefore = treeCpuMicros(serverPid);
    for (const uuid of uuids) {
      const started = performance.now();
      const response = await fetch(pageOf(uuid), { headers: HTML });
      const text = await response.text();
      answer.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${name} ${uuid}: HTTP ${response.status}`);
      server.push(Number(/dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN));
      sizes.push(Buffer.byteLength(text) / 1024);
    }
    const cpuMs = (treeCpuMicros(serverPid) - cpuBefore) / 1000 / uuids.length;
    all.push(...server);
    const s = percentiles(server);
    const a = percentiles(answer);
    rows.push({
      page: `node page: ${name}`,
      nodes: uuids.length,
      'server p50 ms': s.p50,
      'server p99 ms': s.p99,
      'answer p50 ms': a.p50,
      'answer p99 ms': a.p99,
      'KB p50': round(percentiles(sizes).p50),
      'CPU ms/page': round(cpuMs),
    });
  }
  const overall = percentiles(all);
  const first = calcjobs[0] ?? '';
  const loaded = await load(pageOf(first), { connections: 8, durationSeconds: 5, headers: HTML });

  const browser = await launchChromium();
  const firstPaint: number[] = [];
  try {
    // One tab going from page to page, as a reader clicking through links (the first load starts the renderer).
    const tab = await browser.newPage();
    for (const uuid of calcjobs.slice(0, paints + 1)) {
      await tab.goto(pageOf(uuid), { waitUntil: 'load' });
      // The entry can come after the load event: wait for it (buffered), at most 5 s. (Node's types of
      // PerformanceObserver, which type this page function, know no 'paint' entries.)
      const paint = await tab.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entry = list.getEntriesByName('first-contentful-paint')[0];
              if (entry) resolve(entry.startTime);
            }).observe({ type: 'paint' as 'mark', buffered: true });
            setTimeout(() => resolve(Number.NaN), 5000);
          }),
      );
      firstPaint.push(paint);
    }
  } finally {
    await browser.close();
  }
  const coldStart = round(firstPaint.shift() ?? Number.NaN);
  const paint = percentiles(firstPaint);
  return {
    rows,
    overall,
    throughput: {
      'req/s': Math.round(loaded.requestsPerSecond),
      p50: loaded.p50Ms,
      p99: loaded.p99Ms,
      errors: loaded.errors + loaded.non2xx,
    },
    firstPaint: { ...paint, max: round(Math.max(...firstPaint)), loads: firstPaint.length, coldStart },
  };
}
