import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../src/index.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:data/bench.db', { dialect: 'sqlite', path: 'data/bench.db' }],
    ['sqlite:/abs/path.db', { dialect: 'sqlite', path: '/abs/path.db' }],
    ['sqlite:///abs/path.db', { dialect: 'sqlite', path: '/abs/path.db' }],
    ['sqlite::memory:', { dialect: 'sqlite', path: ':memory:' }],
    [
      'postgres://u@h:5432/db',
      { dialect: 'postgres', connectionString: 'postgres://u@h:5432/db', schema: undefined, prepare: true },
    ],
    [
      'postgresql://u@h/db?schema=bench&sslmode=disable',
      { dialect: 'postgres', connectionString: 'postgresql://u@h/db?sslmode=disable', schema: 'bench', prepare: true },
    ],
    [
      'postgres://u@h/db?prepare=false&schema=bench',
      { dialect: 'postgres', connectionString: 'postgres://u@h/db', schema: 'bench', prepare: false },
    ],
  ])('%s', (url, expected) => {
    expect(parseDatabaseUrl(url)).toEqual(expected);
  });

  it.each([
    ['mysql://x', /must start with sqlite: or postgres:\/\//],
    ['sqlite:', /missing file path/],
    ['postgres://h/db?schema=x;drop', /schema must be a lower-case SQL identifier/],
    ['postgres://h/db?prepare=no', /prepare must be true or false/],
  ])('rejects %s', (url, message) => {
    expect(() => parseDatabaseUrl(url)).toThrow(message);
  });
});
