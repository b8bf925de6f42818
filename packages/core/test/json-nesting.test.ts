import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from '../src/http/json-nesting.js';

describe('nestsDeeperThan', () => {
  it.each([
    ['[]', 1, false],
    ['[[]]', 1, true],
    ['[[]]', 2, false],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[1]}}', 2, true],
    ['[[],[],[],[]]', 2, false],
    ['["[[[[[["]', 1, false],
    ['["\\"[[[["]', 1, false],
    ['["\\\\", [[]]]', 2, true],
    ['{"[": "{", "b": [{}]}', 3, false],
    ['[[[', 2, true],
    ['"]]]]][[["', 0, false],
    ['', 0, false],
  ])('%s deeper than %i: %s', (text, limit, deeper) => {
    expect(nestsDeeperThan(text, limit)).toBe(deeper);
  });

  it('stops at the first level too deep of a huge body', () => {
    const text = Buffer.alloc(50_000_000, '[').toString('latin1');
    const started = performance.now();
    expect(nestsDeeperThan(text, 256)).toBe(true);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
