import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describeEachDialect } from '@atrium/core/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type Bench, seedProject, startBench } from './harness.js';

describeEachDialect('bench backups', ({ dialect, url }) => {
  let bench: Bench;
  let directory: string;
  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'atrium-bench-backup-'));
    bench = await startBench(url(), { backup: { directory, pushCommand: '/bin/ls' } });
    await seedProject(bench);
  });
  afterEach(() => bench.close());

  it('snapshots the database for admins only, compressed on request, pushed and removed on request', async () => {
    expect((await bench.call('POST', '/v0/server/backup', { token: bench.muriel, body: {} })).status).toBe(403);
    const plain = await bench.json('POST', '/v0/server/backup', { token: bench.eustace, body: {} });
    expect(plain.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const [snapshot] = readdirSync(directory);
    const content = readFileSync(join(directory, snapshot as string));
    if (dialect === 'sqlite') expect(content.subarray(0, 15).toString()).toBe('SQLite format 3');
    else expect(content.toString()).toContain('The Computer');

    await bench.json('POST', '/v0/server/backup', { token: bench.eustace, body: { compress: true } });
    const compressed = readdirSync(directory).find((name) => name.endsWith('.gz')) as string;
    expect(gunzipSync(readFileSync(join(directory, compressed))).length).toBeGreaterThan(0);

    const before = readdirSync(directory).length;
    await bench.json('POST', '/v0/server/backup', {
      token: bench.eustace,
      body: { compress: true, data_store: 'aws_s3', remove: true },
    });
    expect(readdirSync(directory)).toHaveLength(before);
  });
});
