import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATRIUM_BIN } from './run-cli.js';

/**
 * A small Docker Engine (API v1.41) on a unix socket, for tests: images, containers (create, start, inspect,
 * stop, remove, multiplexed logs) and pulls. A started container of `runnable` images runs the image's
 * entrypoint (`atrium`) as a local process with the container's environment: published ports become the
 * service's port on 127.0.0.1 and a volume mounted at ATRIUM_DATA_DIR becomes its data directory.
 */

export interface FakeContainer {
  id: string;
  name: string;
  body: {
    Image: string;
    Cmd: string[];
    Env: string[];
    Labels: Record<string, string>;
    User?: string;
    ExposedPorts: Record<string, object>;
    HostConfig: { Binds: string[]; PortBindings: Record<string, { HostIp: string; HostPort: string }[]> };
  };
  process?: ChildProcess;
  exitCode?: number;
  log: Buffer[];
  followers: Set<ServerResponse>;
}

export interface FakeEngine {
  socket: string;
  images: Set<string>;
  /** images a pull finds */
  pullable: Set<string>;
  containers: Map<string, FakeContainer>;
  /** every request: method and path without the version prefix */
  requests: string[];
  close(): Promise<void>;
}

const frame = (stream: 1 | 2, payload: Buffer) => {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
}

export async function startFakeEngine(options: { runnable?: string[] } = {}): Promise<FakeEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-fake-docker-'));
  const runnable = new Set(options.runnable ?? []);
  const engine: FakeEngine = {
    socket: join(dir, 'docker.sock'),
    images: new Set(),
    pullable: new Set(),
    containers: new Map(),
    requests: [],
    close: async () => {
      for (const c of engine.containers.values()) await stopContainer(c);
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  const running = (c: FakeContainer) => c.process !== undefined && c.exitCode === undefined;
  const find = (key: string) => engine.containers.get(key) ?? [...engine.containers.values()].find((c) => c.id === key);

  const append = (c: FakeContainer, stream: 1 | 2, data: Buffer) => {
    const framed = frame(stream, data);
    c.log.push(framed);
    for (const res of c.followers) res.write(framed);
  };

  function startContainer(c: FakeContainer) {
    const env = Object.fromEntries(c.body.Env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
    const dataDir = env.ATRIUM_DATA_DIR ?? '/data';
    const volume = c.body.HostConfig.Binds.map((b) => b.split(':')).find(([, target]) => target === dataDir);
    const hostData = volume?.[0]?.startsWith('/') ? volume[0] : mkdtempSync(join(dir, 'volume-'));
    const hostPort = c.body.HostConfig.PortBindings['6610/tcp']?.[0]?.HostPort ?? '';
    const child = spawn(process.execPath, [ATRIUM_BIN, ...c.body.Cmd], {
      env: {
        PATH: process.env.PATH,
        ...env,
        ATRIUM_DATA_DIR: hostData,
        ATRIUM_BENCH_BIND: '127.0.0.1',
        ATRIUM_BENCH_PORT: hostPort,
      },
    });
    c.process = child;
    child.stdout?.on('data', (d: Buffer) => append(c, 1, d));
    child.stderr?.on('data', (d: Buffer) => append(c, 2, d));
    child.on('exit', (code, signal) => {
      c.exitCode = code ?? (signal ? 128 + 15 : 1);
      for (const res of c.followers) res.end();
      c.followers.clear();
    });
  }

  async function stopContainer(c: FakeContainer) {
    if (!running(c)) return;
    const exited = new Promise((r) => c.process?.once('exit', r));
    c.process?.kill('SIGTERM');
    await exited;
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://docker');
    const path = url.pathname.replace(/^\/v1\.\d+/, '');
    engine.requests.push(`${req.method} ${path}`);
    const send = (status: number, body?: unknown) => {
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
      res.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
    };
    const noSuch = (what: string) => send(404, { message: `No such ${what}` });
    const image = /^\/images\/(.+)\/json$/.exec(path);
    const container = /^\/containers\/([^/]+)(\/[a-z]+)?$/.exec(path);
    if (req.method === 'GET' && path === '/_ping') return send(200, 'OK');
    if (req.method === 'GET' && path === '/version') return send(200, { Version: 'fake-1.0', ApiVersion: '1.41' });
    if (req.method === 'GET' && image) {
      const name = decodeURIComponent(image[1] as string);
      return engine.images.has(name) ? send(200, { Id: `sha256:${name}` }) : noSuch(`image: ${name}`);
    }
    if (req.method === 'POST' && path === '/images/create') {
      const image = `${url.searchParams.get('fromImage')}:${url.searchParams.get('tag')}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ status: `Pulling from ${image}` })}\n`);
      if (!engine.pullable.has(image))
        return res.end(`${JSON.stringify({ error: `pull access denied for ${image}` })}\n`);
      engine.images.add(image);
      return res.end(`${JSON.stringify({ status: `Downloaded newer image for ${image}` })}\n`);
    }
    if (req.method === 'POST' && path === '/containers/create') {
      const name = url.searchParams.get('name') ?? '';
      const body = (await readJson(req)) as FakeContainer['body'];
      if (engine.containers.has(name))
        return send(409, { message: `Conflict. The container name "/${name}" is already in use` });
      if (!engine.images.has(body.Image)) return noSuch(`image: ${body.Image}`);
      const id = `${name}-id-${engine.containers.size}`;
      engine.containers.set(name, { id, name, body, log: [], followers: new Set() });
      return send(201, { Id: id, Warnings: [] });
    }
    if (container) {
      const c = find(decodeURIComponent(container[1] as string));
      if (!c) return noSuch(`container: ${container[1]}`);
      const action = `${req.method} ${container[2] ?? ''}`;
      if (action === 'POST /start') {
        if (running(c)) return send(304);
        if (!runnable.has(c.body.Image)) return send(500, { message: 'this fake cannot run that image' });
        startContainer(c);
        return send(204);
      }
      if (action === 'GET /json') {
        const ports = Object.fromEntries(
          Object.entries(c.body.HostConfig.PortBindings).map(([key, b]) => [key, running(c) ? b : null]),
        );
        const status = running(c) ? 'running' : c.process ? 'exited' : 'created';
        return send(200, {
          Id: c.id,
          Name: `/${c.name}`,
          State: { Running: running(c), Status: status, ExitCode: c.exitCode ?? 0 },
          Config: { Labels: c.body.Labels, Env: c.body.Env },
          NetworkSettings: { Ports: ports },
        });
      }
      if (action === 'POST /stop') {
        if (!running(c)) return send(304);
        await stopContainer(c);
        return send(204);
      }
      if (action === 'DELETE ') {
        if (running(c) && url.searchParams.get('force') !== 'true')
          return send(409, { message: 'container is running' });
        await stopContainer(c);
        engine.containers.delete(c.name);
        return send(204);
      }
      if (action === 'GET /logs') {
        res.writeHead(200, { 'content-type': 'application/vnd.docker.multiplexed-stream' });
        for (const chunk of c.log) res.write(chunk);
        if (url.searchParams.get('follow') === '1' && running(c)) {
          c.followers.add(res);
          return;
        }
        return res.end();
      }
    }
    return send(404, { message: `page not found: ${req.method} ${path}` });
  }

  const server: Server = createServer((req, res) => {
    route(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: error.message }));
    });
  });
  await new Promise<void>((r) => server.listen(engine.socket, r));
  return engine;
}
