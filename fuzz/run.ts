// `npm run fuzz`: replays the hostile-input corpus against real `atrium serve` processes (SQLite defaults for all
// three services, PostgreSQL for bench and inference) and fails on any answer outside a case's expectation,
// any 500 that is not a listed AiiDA-compatible one, any answer over its time limit, any /healthz slower than
// 1 s meanwhile, any process exit, and any secret or sentinel in a service's logs.

import type { Dialect, Service } from '../bench/lib/atrium-serve.js';
import type { Case } from './case.js';
import { benchCases } from './corpus/bench.js';
import { exhaustionCases } from './corpus/exhaustion.js';
import { framingCases } from './corpus/framing.js';
import { inferenceCases } from './corpus/inference.js';
import { provenanceCases } from './corpus/provenance.js';
import { sendFlood } from './flood.js';
import { judge } from './judge.js';
import { startProber } from './prober.js';
import { send, sendRaw } from './send.js';
import { startTarget, type Target } from './targets.js';
import { startEchoUpstream } from './upstream.js';

const CORPUS: Record<Service, Case[]> = {
  inference: [...inferenceCases, ...framingCases('inference'), ...exhaustionCases('inference')],
  provenance: [...provenanceCases, ...framingCases('provenance'), ...exhaustionCases('provenance')],
  bench: [...benchCases, ...framingCases('bench'), ...exhaustionCases('bench')],
};
const TARGETS: [Service, Dialect][] = [
  ['inference', 'sqlite'],
  ['provenance', 'sqlite'],
  ['bench', 'sqlite'],
  ['inference', 'postgres'],
  ['bench', 'postgres'],
];
const only = process.argv[2]; // e.g. `npm run fuzz -- bench` while working on one service

const started = performance.now();
const runTag = `FZ${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
const failures: string[] = [];
const upstream = await startEchoUpstream();
const targets: Target[] = await Promise.all(
  TARGETS.filter(([service]) => !only || service === only).map(([s, d]) => startTarget(s, d, upstream.origin)),
);
const answersHealthz = (origin: string) =>
  send(origin, { method: 'GET', path: '/healthz' }, 2000).then(
    (answer) => answer.status === 200,
    () => false,
  );
const label = (t: Target) => `${t.running.service}/${t.running.dialect}`;
process.stdout.write(`started ${targets.map(label).join(', ')} in ${Math.round(performance.now() - started)} ms\n`);
const timeline: { at: number; name: string }[] = [];
const during = (at: number) => timeline.findLast((entry) => entry.at <= at)?.name ?? 'start-up';
/** Targets that stopped answering, and since when: their later /healthz misses say nothing new. */
const stalledAt = new Map<string, number>();
const prober = startProber(targets.map((t) => ({ name: label(t), origin: t.running.origin })));
let cases = 0;
try {
  for (const target of targets) {
    for (const [index, c] of CORPUS[target.running.service].entries()) {
      if (c.parserOnly && target.running.dialect !== 'sqlite') continue;
      const sentinel = `${runTag}x${target.running.service}x${index}`;
      const current = `${label(target)} ${c.name}`;
      timeline.push({ at: Date.now(), name: current });
      cases++;
      try {
        const request = c.request(target.secrets, sentinel);
        const answer =
          'raw' in request
            ? await sendRaw(target.running.origin, request.raw)
            : 'flood' in request
              ? await sendFlood(target.running.origin, request.flood)
              : await send(target.running.origin, request);
        const problems = judge(c, target.running.service, answer);
        const checked = await c.check?.({ dialect: target.running.dialect, database: target.running.database });
        if (checked) problems.push(checked);
        for (const problem of problems) failures.push(`${current}: ${problem}`);
      } catch (error) {
        failures.push(`${current}: no answer (${(error as Error).message})`);
        if (!(await answersHealthz(target.running.origin))) {
          failures.push(`${label(target)} stalled: /healthz unanswered after '${c.name}'; its remaining cases not run`);
          stalledAt.set(label(target), Date.now());
          break;
        }
      }
      const exit = target.running.exit();
      if (exit !== undefined) {
        failures.push(`${label(target)} exited (${exit}) after ${c.name}`);
        break;
      }
    }
  }
  timeline.push({ at: Date.now(), name: 'after the corpus' });
  await new Promise((resolve) => setTimeout(resolve, 1000));
} finally {
  for (const slow of await prober.stop()) {
    if (slow.at < (stalledAt.get(slow.name) ?? Number.POSITIVE_INFINITY)) {
      failures.push(`${slow.name} /healthz: ${slow.text} during ${during(slow.at)}`);
    }
  }
  for (const target of targets) {
    const logs = target.running.logs();
    for (const [what, value] of target.markers) {
      if (logs.includes(value)) failures.push(`${label(target)}: the ${what} is in the log`);
    }
    const leaked = new Set(logs.match(new RegExp(`${runTag}x\\w+x\\d+`, 'g')));
    for (const sentinel of leaked) {
      const index = Number(sentinel.split('x').at(-1));
      const name = CORPUS[target.running.service][index]?.name;
      failures.push(`${label(target)}: the sentinel of '${name}' is in the log`);
    }
    const exit = target.running.exit();
    if (exit !== undefined) failures.push(`${label(target)} exited (${exit}); last log lines: ${logs.slice(-800)}`);
  }
  await Promise.all(targets.map((t) => t.running.stop()));
  await upstream.close();
}

const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`${cases} requests against ${targets.length} services in ${seconds} s\n`);
for (const failure of failures) process.stdout.write(`FAIL ${failure}\n`);
process.stdout.write(failures.length ? `${failures.length} failures\n` : 'fuzz: all held\n');
process.exit(failures.length ? 1 : 0);
