import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ADD, SIMPLE } from './support/fixtures.js';

const BIN = fileURLToPath(new URL('../../cli/bin/atrium.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'atrium-provenance-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'provenance', ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('atrium provenance (the built CLI)', () => {
  it('make-archive writes an archive that inspect describes', async () => {
    const made = await run(['make-archive', '--nodes', '200', '--out', 'small.aiida']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^wrote .*small\.aiida: \d+ nodes, \d+ links, \d+ repository objects\n$/);
    const inspected = await run(['inspect', 'small.aiida', '--data-dir', dir]);
    expect(inspected.code, inspected.stderr).toBe(0);
    const report = JSON.parse(inspected.stdout);
    expect(report).toMatchObject({ kind: 'archive', formatVersion: 'main_0001', legacy: false });
    expect(report.counts.nodes).toBeGreaterThanOrEqual(200);
  });

  it('make-archive --shapes writes the chosen shapes, each --count times', async () => {
    const made = await run(['make-archive', '--shapes', 'structures,bands', '--count', '3', '--out', 'shapes.aiida']);
    expect(made.code, made.stderr).toBe(0);
    const inspected = await run(['inspect', 'shapes.aiida', '--data-dir', dir]);
    expect(JSON.parse(inspected.stdout).counts.nodes).toBe(6);
    expect((await run(['make-archive', '--shapes', 'structures,spaceships'])).stderr).toContain(
      'make-archive --shapes takes a comma-separated subset of: workflows, calcjobs',
    );
  });

  it('serve answers on /api/v4 (the first source), on each /<name>/api/v4 and with ?profile= until SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        'provenance',
        'serve',
        `simple=${SIMPLE}`,
        `add=${ADD}`,
        '--port',
        '0',
        '--data-dir',
        dir,
        '--log-level',
        'warn',
      ],
      { cwd: dir },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
          const match = /AiiDA REST API v4 at (http:\/\/\S+)\/api\/v4\//.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}`)));
      });
      const named = (await (await fetch(`${base}/simple/api/v4/nodes/statistics`)).json()) as {
        data: { total: number };
      };
      expect(named.data.total).toBe(10);
      expect((await fetch(`${base}/api/v4/server`)).status).toBe(200);
      const total = async (path: string) =>
        ((await (await fetch(`${base}${path}`)).json()) as { data: { total: number } }).data.total;
      expect(await total('/add/api/v4/nodes/statistics')).toBe(7);
      expect(await total('/api/v4/nodes/statistics')).toBe(10);
      expect(await total('/api/v4/nodes/statistics?profile=add')).toBe(7);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });

  it('rejects unknown subcommands and missing arguments with exit code 2', async () => {
    const unknown = await run(['frobnicate']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining("unknown provenance subcommand 'frobnicate'"),
    ]);
    expect((await run(['make-archive'])).code).toBe(2);
    expect((await run(['serve'])).code).toBe(2);
  });
});
