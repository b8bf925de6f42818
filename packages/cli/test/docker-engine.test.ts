import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCommandLine, Values } from '../src/commands/bench/args.js';
import {
  DockerEngine,
  EngineError,
  engineAddress,
  LogDemuxer,
  splitImage,
} from '../src/commands/bench/docker-engine.js';
import { containerSpec, mountOf } from '../src/commands/bench/docker-server.js';
import { UP_OPTIONS } from '../src/commands/bench/local-server.js';
import { type FakeEngine, startFakeEngine } from './docker-engine-fake.js';

describe('Docker engine client: pure parts', () => {
  it.each([
    [undefined, { socketPath: '/var/run/docker.sock' }],
    ['unix:///run/user/1000/docker.sock', { socketPath: '/run/user/1000/docker.sock' }],
    ['tcp://10.0.0.5:2375', { host: '10.0.0.5', port: 2375 }],
  ])('DOCKER_HOST %s', (value, address) => {
    expect(engineAddress(value)).toEqual(address);
  });

  it('refuses a DOCKER_HOST it cannot speak to', () => {
    expect(() => engineAddress('ssh://user@host')).toThrow(/unix:\/\/\/path or tcp:\/\/host:port/);
  });

  it.each([
    ['atrium', 'atrium', 'latest'],
    ['atrium:0.1', 'atrium', '0.1'],
    ['registry.example.org:5000/atrium', 'registry.example.org:5000/atrium', 'latest'],
    ['registry.example.org:5000/hpc/atrium:v2', 'registry.example.org:5000/hpc/atrium', 'v2'],
  ])('image %s', (image, repository, tag) => {
    expect(splitImage(image)).toEqual({ repository, tag });
  });

  it('demultiplexes log frames split anywhere, header or payload', () => {
    const frame = (stream: number, text: string) => {
      const header = Buffer.alloc(8);
      header[0] = stream;
      header.writeUInt32BE(Buffer.byteLength(text), 4);
      return Buffer.concat([header, Buffer.from(text)]);
    };
    const all = Buffer.concat([frame(1, 'out one\n'), frame(2, 'err ü\n'), frame(1, ''), frame(1, 'out two\n')]);
    for (const cut of [1, 3, 8, 9, 15, 16, 20, all.length - 1]) {
      const seen: string[] = [];
      const demuxer = new LogDemuxer((stream, text) => seen.push(`${stream}:${text.toString('utf8')}`));
      demuxer.push(all.subarray(0, cut));
      demuxer.push(all.subarray(cut));
      expect(seen, `cut at ${cut}`).toEqual(['stdout:out one\n', 'stderr:err ü\n', 'stdout:', 'stdout:out two\n']);
    }
  });

  const spec = (args: string[], uid?: number) =>
    containerSpec(new Values(parseCommandLine(['up', ...args], UP_OPTIONS, { usage: 'up' }), {}), uid);

  it('builds the container from the seed flags: ports, env, labels, volumes', () => {
    expect(spec([])).toEqual({
      name: 'atrium-bench-api',
      image: 'atrium:latest',
      cmd: ['serve', '--services', 'bench'],
      env: { ATRIUM_DATA_DIR: '/data', ATRIUM_BENCH_CONSOLE_URL: 'http://localhost:3000' },
      labels: { 'dev.atrium.bench.service': 'api' },
      ports: { 6610: 6610 },
      binds: ['atrium-bench-data:/data'],
    });
    const custom = spec(
      [
        '--api-port',
        '7000',
        '--console-port',
        '3999',
        '--api-env',
        'ATRIUM_LOG_LEVEL=debug',
        '--api-env',
        'ATRIUM_BENCH_DATABASE=postgres://db/atrium?schema=bench',
        '--api-volume',
        '/srv/bench:/var/lib/bencher/data',
        '--image',
        'registry.example.org/atrium:0.1',
      ],
      1234,
    );
    expect(custom.ports).toEqual({ 6610: 7000 });
    expect(custom.image).toBe('registry.example.org/atrium:0.1');
    expect(custom.binds).toEqual(['/srv/bench:/var/lib/bencher/data']);
    // A host directory's files belong to the caller; the last volume is the data directory.
    expect(custom.user).toMatch(/^1234:\d+$/);
    expect(custom.env).toEqual({
      ATRIUM_DATA_DIR: '/var/lib/bencher/data',
      ATRIUM_BENCH_CONSOLE_URL: 'http://localhost:3999',
      ATRIUM_LOG_LEVEL: 'debug',
      ATRIUM_BENCH_DATABASE: 'postgres://db/atrium?schema=bench',
    });
  });

  it.each([
    ['bench-data', { bind: 'bench-data:/data', target: '/data', hostPath: undefined }],
    ['vol:/x:ro', { bind: 'vol:/x:ro', target: '/x', hostPath: undefined }],
    ['/abs/dir', { bind: '/abs/dir:/data', target: '/data', hostPath: '/abs/dir' }],
  ])('volume %s', (volume, mount) => {
    expect(mountOf(volume)).toEqual(mount);
  });

  it.each([':/data', 'vol:relative'])('refuses volume %s', (volume) => {
    expect(() => mountOf(volume)).toThrow(/--api-volume takes/);
  });
});

describe('Docker engine client over a unix socket', () => {
  let fake: FakeEngine;
  let engine: DockerEngine;
  beforeEach(async () => {
    fake = await startFakeEngine();
    engine = new DockerEngine({ socketPath: fake.socket });
  });
  afterEach(() => fake.close());

  it('probes the engine, and says why when none answers', async () => {
    expect(await engine.probe()).toEqual({ version: 'fake-1.0' });
    const nowhere = join(mkdtempSync(join(tmpdir(), 'atrium-no-docker-')), 'docker.sock');
    expect(await new DockerEngine({ socketPath: nowhere }).probe()).toEqual({ error: 'ENOENT' });
    // Something else on the socket (no _ping) is not an engine.
    const other = createServer((_req, res) => res.writeHead(404).end('not docker'));
    const otherSocket = join(mkdtempSync(join(tmpdir(), 'atrium-not-docker-')), 'other.sock');
    await new Promise<void>((r) => other.listen(otherSocket, r));
    const probe = await new DockerEngine({ socketPath: otherSocket }).probe();
    other.close();
    expect(probe).toEqual({ error: expect.stringContaining('404 not docker') });
  });

  it('creates, inspects and removes a container with the request body the engine expects', async () => {
    fake.images.add('atrium:latest');
    const id = await engine.create({
      name: 'atrium-bench-api',
      image: 'atrium:latest',
      cmd: ['serve', '--services', 'bench'],
      env: { A: '1', B: 'x=y' },
      labels: { 'dev.atrium.bench.service': 'api' },
      ports: { 6610: 0 },
      binds: ['atrium-bench-data:/data'],
      user: '1000:1000',
    });
    const stored = fake.containers.get('atrium-bench-api');
    expect(stored?.id).toBe(id);
    expect(stored?.body).toEqual({
      Image: 'atrium:latest',
      Cmd: ['serve', '--services', 'bench'],
      Env: ['A=1', 'B=x=y'],
      Labels: { 'dev.atrium.bench.service': 'api' },
      User: '1000:1000',
      ExposedPorts: { '6610/tcp': {} },
      HostConfig: { Binds: ['atrium-bench-data:/data'], PortBindings: { '6610/tcp': [{ HostIp: '', HostPort: '' }] } },
    });
    expect(await engine.inspect('atrium-bench-api')).toEqual({
      id,
      running: false,
      status: 'created',
      exitCode: 0,
      health: undefined,
      hostPorts: {},
      labels: { 'dev.atrium.bench.service': 'api' },
    });
    const again = engine.create({
      name: 'atrium-bench-api',
      image: 'atrium:latest',
      cmd: [],
      env: {},
      labels: {},
      ports: {},
      binds: [],
    });
    await expect(again).rejects.toThrow(/409 Conflict. The container name "\/atrium-bench-api" is already in use/);
    await expect(again).rejects.toBeInstanceOf(EngineError);
    await engine.stop('atrium-bench-api'); // not running: 304 is fine
    await engine.remove('atrium-bench-api');
    expect(await engine.inspect('atrium-bench-api')).toBeUndefined();
    await engine.remove('atrium-bench-api'); // already gone: fine
    expect(fake.requests).toContain('DELETE /containers/atrium-bench-api');
  });

  it('checks and pulls images; a pull error in the progress stream fails', async () => {
    expect(await engine.hasImage('atrium:latest')).toBe(false);
    fake.pullable.add('registry.example.org:5000/atrium:0.1');
    await engine.pull('registry.example.org:5000/atrium:0.1');
    expect(await engine.hasImage('registry.example.org:5000/atrium:0.1')).toBe(true);
    await expect(engine.pull('atrium:latest')).rejects.toThrow('pull access denied for atrium:latest');
    await expect(
      engine.create({ name: 'x', image: 'nope', cmd: [], env: {}, labels: {}, ports: {}, binds: [] }),
    ).rejects.toThrow(/404 No such image: nope/);
  });

  it('a log request for a missing container fails with the engine message', async () => {
    await expect(engine.logs('missing', false, () => {})).rejects.toThrow(/404 No such container: missing/);
  });
});
