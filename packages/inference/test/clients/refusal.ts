import { expect } from 'vitest';
import type { ClientGateway } from './gateway.js';
import type { ClientRun } from './run.js';

/**
 * Asserts that the gateway refused the run's first request and the client had given up (exited) within `ms` of
 * that refusal, whatever its own start-up took. Returns the delay, for the record.
 */
export function expectRefusedWithin(gateway: ClientGateway, run: ClientRun, ms: number): number {
  const started = run.ended - run.ms;
  const first = gateway.answered.find((answer) => answer.at >= started);
  expect(first?.status, 'the status of the first request the client sent').toBeGreaterThanOrEqual(400);
  const delay = run.ended - (first?.at ?? started);
  expect(delay, 'from the refusal to the client giving up (ms)').toBeLessThan(ms);
  return delay;
}
