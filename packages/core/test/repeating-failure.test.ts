import { describe, expect, it } from 'vitest';
import { RepeatingFailureLog } from '../src/index.js';
import { captureLog } from '../src/testing/index.js';

const FAILED = 'sweeping failed; retrying';
const RECOVERED = 'sweeping works again';

/** `fail` or `ok` at a time (ms); what each line should say, in order. */
type Event = ['fail' | 'ok', number];
interface Line {
  level: 'warn' | 'error' | 'info';
  msg: typeof FAILED | typeof RECOVERED;
  stack?: true;
  repeats?: number;
  failures?: number;
  failingForMs?: number;
}

const cases: Array<[string, Event[], Line[], { intervalMs?: number; level?: 'warn' | 'error' }?]> = [
  [
    'nothing while the work succeeds',
    [
      ['ok', 0],
      ['ok', 1_000],
    ],
    [],
  ],
  [
    'a single failure: its stack, then the recovery',
    [
      ['fail', 0],
      ['ok', 250],
    ],
    [
      { level: 'warn', msg: FAILED, stack: true },
      { level: 'info', msg: RECOVERED, failures: 1, failingForMs: 250 },
    ],
  ],
  [
    'four failures a second for 2.5 s with a 1 s interval: the first, then one line a second with the count',
    [...Array.from({ length: 11 }, (_, i): Event => ['fail', i * 250]), ['ok', 2_750]],
    [
      { level: 'warn', msg: FAILED, stack: true },
      { level: 'warn', msg: FAILED, repeats: 4, failingForMs: 1_000 },
      { level: 'warn', msg: FAILED, repeats: 4, failingForMs: 2_000 },
      { level: 'info', msg: RECOVERED, failures: 11, failingForMs: 2_750 },
    ],
    { intervalMs: 1_000 },
  ],
  [
    'failures within the interval are only counted, in the recovery line',
    [
      ['fail', 0],
      ['fail', 100],
      ['fail', 200],
      ['ok', 300],
    ],
    [
      { level: 'warn', msg: FAILED, stack: true },
      { level: 'info', msg: RECOVERED, failures: 3, failingForMs: 300 },
    ],
  ],
  [
    'a new episode after a recovery logs its stack again',
    [
      ['fail', 0],
      ['ok', 10],
      ['fail', 20],
      ['fail', 60_020],
      ['ok', 60_030],
    ],
    [
      { level: 'warn', msg: FAILED, stack: true },
      { level: 'info', msg: RECOVERED, failures: 1, failingForMs: 10 },
      { level: 'warn', msg: FAILED, stack: true },
      { level: 'warn', msg: FAILED, repeats: 1, failingForMs: 60_000 },
      { level: 'info', msg: RECOVERED, failures: 2, failingForMs: 60_010 },
    ],
  ],
  [
    'at error level when asked',
    [
      ['fail', 0],
      ['fail', 5_000],
    ],
    [
      { level: 'error', msg: FAILED, stack: true },
      { level: 'error', msg: FAILED, repeats: 1, failingForMs: 5_000 },
    ],
    { intervalMs: 5_000, level: 'error' },
  ],
];

const LEVELS: Record<number, Line['level']> = { 30: 'info', 40: 'warn', 50: 'error' };

describe('RepeatingFailureLog', () => {
  it.each(cases)('%s', (_name, events, expected, options = {}) => {
    const log = captureLog('info');
    let now = 0;
    const failures = new RepeatingFailureLog(
      log.logger,
      { failed: FAILED, recovered: RECOVERED },
      { ...options, clock: () => now },
    );
    for (const [event, at] of events) {
      now = at;
      if (event === 'fail') failures.failed(new Error(`connect ECONNREFUSED at ${at}`));
      else failures.succeeded();
    }
    const lines = log
      .text()
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(
      lines.map((line) => {
        const err = line.err as { stack?: string; message?: string } | undefined;
        const seen: Line = { level: LEVELS[line.level as number] ?? 'info', msg: line.msg as Line['msg'] };
        if (err?.stack?.includes('ECONNREFUSED')) seen.stack = true;
        for (const field of ['repeats', 'failures', 'failingForMs'] as const)
          if (typeof line[field] === 'number') seen[field] = line[field] as number;
        return seen;
      }),
    ).toEqual(expected);
    // A repeat line names the latest error, without a stack.
    for (const line of lines.filter((l) => typeof l.repeats === 'number')) {
      expect(line.err).toBeUndefined();
      expect(line.error).toMatch(/^connect ECONNREFUSED at \d+$/);
    }
  });
});
