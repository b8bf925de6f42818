import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
