import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeEngine, startFakeEngine } from './docker-engine-fake.js';
import { ATRIUM_BIN, cliEnv, runCli } from './run-cli.js';

/** `atrium bench …` with no CI variables, plus `env` (the Docker engine's address). */
const atriumBench = (args: string[], options: { env?: Record<string, string> } = {}) =>
  runCli(['bench', ...args], cliEnv({ CI: undefined, GITHUB_ACTIONS: undefined, ...options.env }));

/** A port nothing listens on right now (the fake engine publishes the container's port on it). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

// Each test starts `atrium` processes several times: minutes on a loaded 2-core machine, seconds when quiet.
describe('atrium bench up / logs / down through the Docker engine API', { timeout: 180_000 }, () => {
  let fake: FakeEngine;
  let dir: string;
  let env: Record<string, string>;
  beforeEach(async () => {
    fake = await startFakeEngine({ runnable: ['atrium:latest', 'registry.example.org/atrium:0.1'] });
    dir = mkdtempSync(join(tmpdir(), 'atrium-up-container-'));
    env = { DOCKER_HOST: `unix://${fake.socket}` };
  });
  afterEach(async () => {
    await atriumBench(['down', '--dir', dir], { env });
    await fake.close();
  });

  it('runs the image as a container with the seed flags, follows its log, and removes it', async () => {
    fake.images.add('atrium:latest');
    const port = await freePort();
    const data = join(dir, 'volume');
    const up = await atriumBench(
      [
        'up',
        'api',
        '--dir',
        dir,
        '--api-port',
        String(port),
        '--console-port',
        '3999',
        '--api-volume',
        `${data}:/var/lib/bencher/data`,
        '--api-env',
        'ATRIUM_LOG_LEVEL=info',
      ],
      { env },
    );
    expect(up.code, up.stderr).toBe(0);
    const url = `http://127.0.0.1:${port}`;
    expect(up.stdout).toBe(
      `container mode (Docker engine fake-1.0 at unix://${fake.socket})\n` +
        `bench API ${url} (container atrium-bench-api, image atrium:latest, data ${data}:/var/lib/bencher/data)\n`,
    );
    const container = fake.containers.get('atrium-bench-api');
    expect(container?.body).toMatchObject({
      Image: 'atrium:latest',
      Cmd: ['serve', '--services', 'bench'],
      Labels: { 'dev.atrium.bench.service': 'api' },
      User: `${process.getuid?.()}:${process.getgid?.()}`,
      HostConfig: { Binds: [`${data}:/var/lib/bencher/data`] },
    });
    expect(container?.body.Env).toEqual([
      'ATRIUM_DATA_DIR=/var/lib/bencher/data',
      'ATRIUM_BENCH_CONSOLE_URL=http://localhost:3999',
      'ATRIUM_LOG_LEVEL=info',
    ]);
    expect(existsSync(join(data, 'bench.db'))).toBe(true);
    expect(JSON.parse((await atriumBench(['server', 'config', 'console', '--host', url])).stdout)).toEqual({
      url: 'http://localhost:3999',
    });

    const again = await atriumBench(['up', '--dir', dir], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already running (container atrium-bench-api)');

    const logs = spawn(process.execPath, [ATRIUM_BIN, 'bench', 'logs'], { env: cliEnv(env) });
    let followed = '';
    logs.stdout.on('data', (d) => {
      followed += d;
    });
    const logsExited = new Promise<number | null>((resolve) => logs.on('close', resolve));
    await expect.poll(() => followed, { timeout: 10_000 }).toContain(`${url}/v0/`);

    const down = await atriumBench(['down'], { env });
    expect(down.stdout).toBe('stopped and removed the bench container atrium-bench-api\n');
    expect(await logsExited).toBe(0);
    expect(fake.containers.has('atrium-bench-api')).toBe(false);
    expect(fake.requests).toEqual(
      expect.arrayContaining(['POST /containers/atrium-bench-api/stop', 'DELETE /containers/atrium-bench-api']),
    );
    // No container left: `down` falls back to process mode, where nothing runs either.
    expect((await atriumBench(['down', '--dir', dir], { env })).stdout).toBe('the bench server is not running\n');
  });

  it('--pull: missing pulls an absent image, never refuses, and a failed pull says how to build the image', async () => {
    const never = await atriumBench(['up', '--pull', 'never'], { env });
    expect(never.code).toBe(1);
    expect(never.stderr).toContain(
      "no image 'atrium:latest' (--pull never); build it with 'docker build -t atrium:latest .'",
    );
    const failed = await atriumBench(['up'], { env });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('pulling atrium:latest');
    expect(failed.stderr).toContain(
      "pull access denied for atrium:latest; build the image with 'docker build -t atrium:latest .'",
    );
    expect(fake.containers.size).toBe(0);

    fake.pullable.add('registry.example.org/atrium:0.1');
    const port = await freePort();
    const up = await atriumBench(['up', '--image', 'registry.example.org/atrium:0.1', '--api-port', String(port)], {
      env,
    });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toContain('pulling registry.example.org/atrium:0.1\n');
    expect(up.stdout).toContain(
      `bench API http://127.0.0.1:${port} (container atrium-bench-api, image registry.example.org/atrium:0.1, data atrium-bench-data:/data)`,
    );
    expect(fake.containers.get('atrium-bench-api')?.body.User).toBeUndefined();

    const bad = await atriumBench(['up', '--pull', 'sometimes'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--pull must be one of always, missing, never, got 'sometimes'");
  });

  it('falls back to process mode when no engine answers, and says so; --mode container then fails', async () => {
    const nowhere = `unix://${join(dir, 'no-docker.sock')}`;
    const forced = await atriumBench(['up', '--mode', 'container'], { env: { DOCKER_HOST: nowhere } });
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain(`--mode container: no Docker engine answers at ${nowhere} (ENOENT)`);

    const up = await atriumBench(['up', '--dir', dir, '--api-port', '0'], { env: { DOCKER_HOST: nowhere } });
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toMatch(
      new RegExp(
        `^process mode \\(no Docker engine answers at ${nowhere} \\(ENOENT\\)\\)\\nbench API http://\\S+ \\(pid \\d+`,
      ),
    );
    // An engine that answers but runs no bench container leaves `down` to process mode.
    const down = await atriumBench(['down', '--dir', dir], { env });
    expect(down.stdout).toMatch(/^stopped the bench server \(pid \d+\)\n$/);
    expect(fake.requests).toContain('GET /containers/atrium-bench-api/json');
  });
});
