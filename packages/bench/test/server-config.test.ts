import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleUrlOf } from '../src/wire/console-url.js';
import { databaseLocation, REDACTED } from '../src/wire/server-config.js';
import { type Bench, SECRET, startBench } from './harness.js';

describe('databaseLocation', () => {
  it.each([
    ['sqlite:/var/lib/atrium/bench.db', '/var/lib/atrium/bench.db'],
    ['postgres://bench:s3cret@db:5432/atrium?schema=bench', `postgres://bench:${REDACTED}@db:5432/atrium?schema=bench`],
    ['postgres://postgres@127.0.0.1:5432/atrium', 'postgres://postgres@127.0.0.1:5432/atrium'],
    ['not a url', REDACTED],
  ])('%s reads as %s', (url, location) => {
    expect(databaseLocation(url)).toBe(location);
  });
});

describe('consoleUrlOf', () => {
  it.each([
    [{ consoleUrl: 'https://console.example/', bind: '127.0.0.1' }, 6610, 'https://console.example'],
    [{ bind: '127.0.0.1' }, 9200, 'http://127.0.0.1:9200'],
    [{ bind: '0.0.0.0' }, 9200, 'http://localhost:9200'],
    [{ bind: '::' }, 9200, 'http://localhost:9200'],
    [{ bind: '::1', tls: { cert: 'c', key: 'k' } }, 443, 'https://[::1]:443'],
  ])('%o on port %d is %s', (config, port, expected) => {
    expect(consoleUrlOf(config, port)).toBe(expected);
  });
});

describeEachDialect('bench console URL by default', ({ url }) => {
  it('is the address and port the service listens on, in the console config and the server config', async () => {
    const bench = await startBench(url());
    try {
      expect(bench.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await bench.json('GET', '/v0/server/config/console')).toEqual({ url: bench.base });
      expect((await bench.json('GET', '/v0/server/config', { token: bench.eustace })).console.url).toBe(bench.base);
    } finally {
      await bench.close();
    }
  });
});

describeEachDialect('bench GET /v0/server/config', ({ url }) => {
  let bench: Bench;
  beforeEach(async () => {
    bench = await startBench(url(), { bodyLimit: 1234, consoleUrl: 'https://console.example/' });
  });
  afterEach(() => bench.close());

  it('answers admins the running configuration in Bencher shape with secrets redacted', async () => {
    const response = await bench.call('GET', '/v0/server/config', { token: bench.eustace });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(SECRET);
    const config = JSON.parse(text);
    expect(config).toMatchObject({
      server: { request_body_max_bytes: 1234, tls: null },
      console: { url: 'https://console.example' },
      security: { issuer: 'http://localhost:3000/', secret_key: REDACTED },
      logging: { name: 'atrium-bench' },
      smtp: null,
    });
    expect(config.server.bind_address).toMatch(/:0$/);
    expect(config.database.file).not.toContain('sqlite:');
  });

  it('refuses everyone else', async () => {
    expect((await bench.call('GET', '/v0/server/config', { token: bench.muriel })).status).toBe(403);
    expect((await bench.call('GET', '/v0/server/config')).status).toBe(400);
  });
});
