import { expect } from 'vitest';
import type { OutageObservation } from './outage.js';

/**
 * What every service must do through a database outage: succeed before it; during it, answer each request
 * quickly, either from what it holds in memory or with a 503 (with Retry-After) whose body
 * `isServiceShape` accepts, and at least one with that 503; succeed again after it.
 */
export function expectRidesOutOutage(observation: OutageObservation, isServiceShape: (body: unknown) => boolean) {
  const { before, during, after } = observation;
  expect(before.length).toBeGreaterThan(0);
  expect(before.map((s) => s.status).filter((status) => status >= 400)).toEqual([]);
  expect(during.length).toBeGreaterThanOrEqual(3);
  for (const sample of during) {
    expect(sample.ms).toBeLessThan(2000);
    if (sample.status < 400) continue;
    expect(sample.status).toBe(503);
    expect(sample.retryAfter).toBe('5');
    expect(isServiceShape(JSON.parse(sample.body))).toBe(true);
  }
  expect(during.some((s) => s.status === 503)).toBe(true);
  expect(after.every((s) => s.status < 400 || s.status === 503)).toBe(true);
  expect(after.at(-1)?.status).toBeLessThan(400);
}
