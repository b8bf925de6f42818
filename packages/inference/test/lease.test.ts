import { describe, expect, it } from 'vitest';
import { chunkFor, LEASE_HORIZON_MS, Lease } from '../src/tenancy/lease.js';

describe('chunkFor', () => {
  it.each([
    { case: 'no rate yet: exactly the need', need: 10, rate: 0, headroom: Number.POSITIVE_INFINITY, chunk: 10 },
    { case: 'the recent rate over the horizon', need: 10, rate: 1, headroom: Number.POSITIVE_INFINITY, chunk: 200 },
    { case: 'capped at an eighth of the headroom', need: 10, rate: 1, headroom: 800, chunk: 100 },
    { case: 'little headroom left: the need only', need: 10, rate: 1, headroom: 40, chunk: 10 },
    { case: 'a slow rate: the need', need: 10, rate: 0.01, headroom: 1000, chunk: 10 },
    { case: 'fractional rates round up', need: 1, rate: 0.026, headroom: Number.POSITIVE_INFINITY, chunk: 6 },
  ])('$case', ({ need, rate, headroom, chunk }) => {
    expect(LEASE_HORIZON_MS).toBe(200);
    expect(chunkFor(need, rate, headroom)).toBe(chunk);
  });
});

describe('Lease', () => {
  it('hands out only what it holds, in every dimension at once', () => {
    const lease = new Lease([false, true]);
    expect(lease.take(1, [5, 1], 0)).toBe(false);
    lease.credit(1, [10, 2], [100, 8], 0);
    expect(lease.take(1, [5, 1], 1)).toBe(true);
    expect(lease.take(1, [6, 1], 1)).toBe(false);
    expect(lease.held).toEqual([5, 1]);
    expect(lease.lastUse).toBe(1);
  });

  it('voids windowed amounts of an earlier window, keeps the others', () => {
    const lease = new Lease([false, true]);
    lease.credit(1, [10, 2], [100, 8], 0);
    expect(lease.take(2, [1, 1], 0)).toBe(false);
    expect(lease.held).toEqual([10, 0]);
    expect(lease.headroom).toEqual([100, Number.POSITIVE_INFINITY]);
    lease.give(1, [3, 3]);
    expect(lease.held).toEqual([13, 0]);
    // A refill for the window that passed while it was under way: only its unwindowed part counts.
    lease.credit(1, [1, 1], [1, 1], 0);
    expect(lease.held).toEqual([14, 0]);
  });

  it('takes back unused amounts, also negative ones, and releases what it holds', () => {
    const lease = new Lease([true]);
    lease.credit(7, [10], [90], 0);
    expect(lease.take(7, [10], 0)).toBe(true);
    lease.give(7, [-2]);
    expect(lease.release()).toEqual({ window: 7, amounts: [-2] });
    expect(lease.release()).toBeUndefined();
    expect(lease.held).toEqual([0]);
  });

  it('is low below half of its last refill, and sizes the next refill by the rate of use', () => {
    const lease = new Lease([true]);
    lease.credit(1, [100], [Number.POSITIVE_INFINITY], 1_000);
    expect(lease.low).toBe(false);
    for (let i = 0; i < 6; i++) lease.take(1, [10], 1_010);
    expect(lease.low).toBe(true);
    // 60 tokens in 10 ms, averaged with the rate before (none): 3 per ms over the horizon.
    expect(lease.chunk([10], 1_010)).toEqual([600]);
    lease.credit(1, [600], [800], 1_010);
    expect(lease.chunk([10], 1_010)).toEqual([100]);
  });
});
