import { expect } from 'vitest';
import type { OutageObservation } from './outage.js';

/**
 * What every service must do through a database outage: succeed before it, answer each request during
 * it with a quick 503 (with Retry-After) whose body `isServiceShape` accepts, and succeed again after it.
 */
export function expectRidesOutOutage(observation: OutageObservation, isServiceShape: (body: unknown) => boolean) {
  const { before, during, after } = observation;
  expect(before.length).toBeGreaterThan(0);
  expect(before.map((s) => s.status).filter((status) => status >= 400)).toEqual([]);
  expect(during.length).toBeGreaterThanOrEqual(3);
  for (const sample of during) {
    expect(sample.status).toBe(503);
    expect(sample.ms).toBeLessThan(2000);
    expect(sample.retryAfter).toBe('5');
    expect(isServiceShape(JSON.parse(sample.body))).toBe(true);
  }
  expect(after.every((s) => s.status < 400 || s.status === 503)).toBe(true);
  expect(after.at(-1)?.status).toBeLessThan(400);
}
