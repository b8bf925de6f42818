import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { DELIBERATE_DIFFERENCES } from './support/deliberate-differences.js';
import { FIXTURES, serveArchive } from './support/fixtures.js';

const HERE = new URL('./fixtures/aiida-diff/', import.meta.url).pathname;
const SETS = [
  { name: 'arithmetic.add', archive: `${FIXTURES}/calcjob/arithmetic.add.aiida` },
  { name: 'export_0.4_simple', archive: `${FIXTURES}/export/migrate/export_0.4_simple.aiida` },
  { name: 'restapi_fixture', archive: `${HERE}restapi_fixture.aiida` },
];
const scratch = mkdtempSync(join(tmpdir(), 'atrium-aiida-diff-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The replay tool's label of a failing request: `METHOD path[ body]` (up to its tags or problems). */
const labelOf = (line: string) => line.slice('FAIL '.length).split(/ \[[a-z,]+\] :: | :: /)[0] ?? '';

let identical = 0;
let total = 0;
afterAll(() => console.log(`aiida-diff: ${identical} / ${total} requests answered exactly as AiiDA 2.9`));

describe('answers recorded from AiiDA 2.9 REST API, replayed against this server', () => {
  it.each(SETS)(
    '$name',
    async ({ name, archive }) => {
      const goldens = join(scratch, `${name}.json`);
      writeFileSync(goldens, gunzipSync(readFileSync(`${HERE}${name}.json.gz`)));
      const api = await serveArchive(archive, 'sqlite', undefined, '2.9.0.dev0');
      try {
        const args = [`${HERE}aiida-diff.mjs`, '--goldens', goldens, '--base', api.base];
        const output = await promisify(execFile)(process.execPath, args, { maxBuffer: 64 << 20 }).then(
          (done) => done.stdout,
          (failed: { stdout?: string }) => failed.stdout ?? '',
        );
        const counts = /aiida-diff: (\d+) passed, (\d+) failed/.exec(output);
        expect(counts, output).not.toBeNull();
        identical += Number(counts?.[1]);
        total += Number(counts?.[1]) + Number(counts?.[2]);
        const unexplained = output
          .split('\n')
          .filter((line) => line.startsWith('FAIL '))
          .filter((line) => {
            const label = labelOf(line);
            return !DELIBERATE_DIFFERENCES.some((d) => (d.archive ?? name) === name && d.request.test(label));
          });
        expect(unexplained).toEqual([]);
      } finally {
        await api.stop();
      }
    },
    120_000,
  );
});
