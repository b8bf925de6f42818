import { describe, expect, it } from 'vitest';
import { uuid7 } from '../src/index.js';

const FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millis = (uuid: string) => Number.parseInt(uuid.replaceAll('-', '').slice(0, 12), 16);

describe('uuid7', () => {
  it.each([0, 1, 65_535, 65_536, Date.UTC(2026, 10, 25), 2 ** 48 - 1])(
    'carries %d ms in its first 48 bits, with version 7 and the RFC variant',
    (now) => {
      const uuid = uuid7(now);
      expect(uuid).toMatch(FORMAT);
      expect(millis(uuid)).toBe(now);
    },
  );

  it('sorts by creation time across milliseconds', () => {
    const made = [5, 1_000, 1_001, 70_000, Date.now()].map((now) => uuid7(now));
    expect([...made].sort()).toEqual(made);
  });

  it('is unique within one millisecond, across refills of its random pool', () => {
    const made = new Set(Array.from({ length: 5_000 }, () => uuid7(42)));
    expect(made.size).toBe(5_000);
  });
});
