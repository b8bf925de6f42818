import { describe, expect, it } from 'vitest';
import { aiidaJson } from '../src/index.js';

describe('aiidaJson', () => {
  it.each([
    [{ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } }, '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}\n'],
    [{ name: 'Ångström ✓' }, '{"name":"\\u00c5ngstr\\u00f6m \\u2713"}\n'],
    [[3, 'x', true], '[3,"x",true]\n'],
  ])('%j', (value, expected) => {
    expect(aiidaJson(value)).toBe(expected);
  });
});
