import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../src/commands/bench/local-server.js';
import { atriumBench, json } from './bench-support.js';
import { ATRIUM_BIN, cliEnv } from './run-cli.js';

describe('atrium bench up / logs / down (process mode)', () => {
  let dir: string;
  afterEach(async () => {
    // Never leave a server behind, even when an assertion failed half-way.
    await atriumBench(['down', '--mode', 'process', '--dir', dir]);
  });

  it('starts a detached server with its own data, pid and log, follows the log, and stops it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-up-'));
    const data = join(dir, 'volume');
    const up = await atriumBench(
      [
        'up',
        'api',
        '--mode',
        'process',
        '--dir',
        dir,
        '--api-port',
        '0',
        '--console-port',
        '3999',
        '--api-volume',
        `${data}:/var/lib/bencher/data`,
        '--api-env',
        'ATRIUM_LOG_LEVEL=info',
      ],
      { env: { ATRIUM_BENCH_HOST: 'http://127.0.0.1:1' } },
    ); // the client's URL must not reach the server
    expect(up.code, up.stderr).toBe(0);
    // Process mode even when a Docker engine answers on this machine.
    expect(up.stdout).toContain('process mode (--mode process)\n');
    const url = readFileSync(join(dir, 'api.url'), 'utf8').trim();
    const pid = Number(readFileSync(join(dir, 'api.pid'), 'utf8'));
    expect(up.stdout).toContain(`bench API ${url} (pid ${pid}`);
    expect(alive(pid)).toBe(true);
    expect(existsSync(join(data, 'bench.db'))).toBe(true);

    expect(json(await atriumBench(['server', 'version', '--host', url]))).toEqual({ version: '0.6.12' });
    expect(json(await atriumBench(['server', 'config', 'console', '--host', url]))).toEqual({
      url: 'http://localhost:3999',
    });
    const again = await atriumBench(['up', '--mode', 'process', '--dir', dir, '--api-port', '0']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already running');

    const logs = spawn(process.execPath, [ATRIUM_BIN, 'bench', 'logs', '--dir', dir], { env: cliEnv() });
    let followed = '';
    logs.stdout.on('data', (d) => {
      followed += d;
    });
    const logsExited = new Promise<number | null>((resolve) => logs.on('close', resolve));
    await expect.poll(() => followed, { timeout: 10_000 }).toContain(url);

    const down = await atriumBench(['down', '--mode', 'process', '--dir', dir]);
    expect(down.stdout).toBe(`stopped the bench server (pid ${pid})\n`);
    expect(alive(pid)).toBe(false);
    expect(await logsExited).toBe(0);
    expect(existsSync(join(dir, 'api.pid'))).toBe(false);
    expect((await atriumBench(['down', '--mode', 'process', '--dir', dir])).stdout).toBe(
      'the bench server is not running\n',
    );
  });
});
