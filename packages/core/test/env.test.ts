import { describe, expect, it } from 'vitest';
import { envName, readEnvOverlay } from '../src/config/env.js';

describe('envName', () => {
  it.each([
    [['bench', 'port'], 'ATRIUM_BENCH_PORT'],
    [['inference', 'databaseUrl'], 'ATRIUM_INFERENCE_DATABASE_URL'],
    [['dataDir'], 'ATRIUM_DATA_DIR'],
    [['log', 'level'], 'ATRIUM_LOG_LEVEL'],
    [['inference', 'auth', 'staticKeys'], 'ATRIUM_INFERENCE_AUTH_STATIC_KEYS'],
  ])('%j -> %s', (path, name) => {
    expect(envName(path)).toBe(name);
  });
});

describe('readEnvOverlay coercion', () => {
  it.each([
    ['number', '8080', 8080],
    ['number', ' 12 ', 12],
    ['number', 'abc', 'abc'],
    ['boolean', 'true', true],
    ['boolean', 'off', false],
    ['boolean', 'maybe', 'maybe'],
    ['string-list', 'a, b,,c', ['a', 'b', 'c']],
    ['string', '007', '007'],
  ] as const)('%s from %j', (kind, raw, expected) => {
    const overlay = readEnvOverlay([{ path: ['svc', 'key'], kind }], { ATRIUM_SVC_KEY: raw });
    expect(overlay.values).toEqual({ svc: { key: expected } });
    expect(overlay.sources.get('svc.key')).toBe('ATRIUM_SVC_KEY');
  });

  it('ignores variables for unknown keys and leaves of kind other', () => {
    const overlay = readEnvOverlay([{ path: ['models'], kind: 'other' }], { ATRIUM_MODELS: 'x', ATRIUM_NOPE: '1' });
    expect(overlay.values).toEqual({});
  });
});
