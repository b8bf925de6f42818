import { request } from 'node:http';

/**
 * A small client of the Docker Engine HTTP API (v1.41, Docker 20.10 and later; Podman's compatible API too),
 * over the engine's unix socket or a plain `tcp://` address, with node's `http`: no docker CLI needed.
 */

export const API_VERSION = 'v1.41';
export const DEFAULT_SOCKET = '/var/run/docker.sock';

/** Where the engine listens: `DOCKER_HOST` (`unix:///path` or `tcp://host:port`), else the default socket. */
export type EngineAddress = { socketPath: string } | { host: string; port: number };

export function engineAddress(dockerHost: string | undefined): EngineAddress {
  if (!dockerHost) return { socketPath: DEFAULT_SOCKET };
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  const tcp = /^tcp:\/\/([^:/]+):(\d+)\/?$/.exec(dockerHost);
  if (tcp) return { host: tcp[1] as string, port: Number(tcp[2]) };
  throw new Error(`DOCKER_HOST must be unix:///path or tcp://host:port, got '${dockerHost}'`);
}

export const describeAddress = (address: EngineAddress) =>
  'socketPath' in address ? `unix://${address.socketPath}` : `tcp://${address.host}:${address.port}`;

/** An answer of the engine outside the expected statuses, with the engine's `message`. */
export class EngineError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ContainerSpec {
  name: string;
  image: string;
  cmd: string[];
  env: Record<string, string>;
  labels: Record<string, string>;
  /** container port (e.g. 6610) -> host port ('0': the engine picks one) */
  ports: Record<number, number>;
  /** `source:target[:ro]`: a named volume or an absolute host path */
  binds: string[];
  user?: string;
}

export interface ContainerState {
  id: string;
  running: boolean;
  status: string;
  exitCode: number;
  health?: string;
  /** container port -> the host port the engine bound */
  hostPorts: Record<number, number>;
  labels: Record<string, string>;
}

/** JSON, else the text itself (`_ping` answers plain `OK`). */
function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The `message` of an engine's error body, else its text. */
function engineMessage(text: string): string {
  const parsed = parseJson(text) as { message?: unknown } | undefined;
  return typeof parsed?.message === 'string' ? parsed.message : text.trim();
}

interface Answer {
  status: number;
  body: Buffer;
}

/** `name[:tag]` -> repository and tag; a registry's `host:port/` prefix is not a tag. */
export function splitImage(image: string): { repository: string; tag: string } {
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return { repository: image.slice(0, colon), tag: image.slice(colon + 1) };
  return { repository: image, tag: 'latest' };
}

/** The frames of a non-TTY container's log stream: 8-byte headers (stream, 0, 0, 0, size) then the payload. */
export class LogDemuxer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly write: (stream: 'stdout' | 'stderr', text: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) return;
      const stream = this.pending[0] === 2 ? 'stderr' : 'stdout';
      this.write(stream, this.pending.subarray(8, 8 + size));
      this.pending = this.pending.subarray(8 + size);
    }
  }
}

export class DockerEngine {
  constructor(readonly address: EngineAddress) {}

  private send(method: string, path: string, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        {
          ...this.address,
          method,
          path: `/${API_VERSION}${path}`,
          headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
          // A connection that closes mid-answer must fail the call, not leave it pending while the process exits.
          res.on('close', () => {
            if (!res.complete) reject(new Error(`the Docker engine closed the connection during ${method} ${path}`));
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`the Docker engine did not answer ${method} ${path} in time`)));
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Sends a request and returns its JSON body when the status is one of `ok`, else throws the engine's message. */
  private async call(method: string, path: string, ok: number[], body?: unknown, timeoutMs?: number) {
    const answer = await this.send(method, path, body, timeoutMs);
    const text = answer.body.toString('utf8');
    if (!ok.includes(answer.status)) {
      throw new EngineError(answer.status, `Docker engine: ${method} ${path}: ${answer.status} ${engineMessage(text)}`);
    }
    return { status: answer.status, json: parseJson(text) };
  }

  /** The engine's version when it answers `_ping` within `timeoutMs`, else why not. */
  async probe(timeoutMs = 2000): Promise<{ version: string } | { error: string }> {
    try {
      await this.call('GET', '/_ping', [200], undefined, timeoutMs);
      const { json } = await this.call('GET', '/version', [200], undefined, timeoutMs);
      return { version: String((json as { Version?: string }).Version ?? 'unknown') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return { error: code ?? (error as Error).message };
    }
  }

  async hasImage(image: string): Promise<boolean> {
    const { status } = await this.call('GET', `/images/${encodeURIComponent(image)}/json`, [200, 404]);
    return status === 200;
  }

  /** Pulls an image; the engine streams progress as JSON lines, an `error` line is a failure. */
  async pull(image: string): Promise<void> {
    const { repository, tag } = splitImage(image);
    const query = new URLSearchParams({ fromImage: repository, tag });
    const answer = await this.send('POST', `/images/create?${query}`, undefined, 600_000);
    const lines = answer.body.toString('utf8').split('\n').filter(Boolean);
    const failed = lines
      .map((line) => {
        try {
          return JSON.parse(line) as { error?: string; message?: string };
        } catch {
          return {};
        }
      })
      .find((line) => line.error || (answer.status !== 200 && line.message));
    if (answer.status !== 200 || failed) {
      throw new EngineError(
        answer.status,
        `Docker engine: pull ${image}: ${failed?.error ?? failed?.message ?? answer.status}`,
      );
    }
  }

  /** Creates (not starts) a container; returns its id. */
  async create(spec: ContainerSpec): Promise<string> {
    const ports = Object.entries(spec.ports);
    const body = {
      Image: spec.image,
      Cmd: spec.cmd,
      Env: Object.entries(spec.env).map(([key, value]) => `${key}=${value}`),
      Labels: spec.labels,
      ...(spec.user ? { User: spec.user } : {}),
      ExposedPorts: Object.fromEntries(ports.map(([port]) => [`${port}/tcp`, {}])),
      HostConfig: {
        Binds: spec.binds,
        PortBindings: Object.fromEntries(
          ports.map(([port, host]) => [`${port}/tcp`, [{ HostIp: '', HostPort: host === 0 ? '' : String(host) }]]),
        ),
      },
    };
    const { json } = await this.call('POST', `/containers/create?name=${encodeURIComponent(spec.name)}`, [201], body);
    return (json as { Id: string }).Id;
  }

  async start(id: string): Promise<void> {
    await this.call('POST', `/containers/${encodeURIComponent(id)}/start`, [204, 304]);
  }

  /** The container's state, or undefined when no container has this name or id. */
  async inspect(name: string): Promise<ContainerState | undefined> {
    const { status, json } = await this.call('GET', `/containers/${encodeURIComponent(name)}/json`, [200, 404]);
    if (status === 404) return undefined;
    const c = json as {
      Id: string;
      State: { Running: boolean; Status: string; ExitCode: number; Health?: { Status: string } };
      Config: { Labels?: Record<string, string> | null };
      NetworkSettings?: { Ports?: Record<string, { HostPort: string }[] | null> | null };
    };
    const hostPorts: Record<number, number> = {};
    for (const [key, bindings] of Object.entries(c.NetworkSettings?.Ports ?? {})) {
      const host = bindings?.[0]?.HostPort;
      if (host) hostPorts[Number.parseInt(key, 10)] = Number(host);
    }
    return {
      id: c.Id,
      running: c.State.Running,
      status: c.State.Status,
      exitCode: c.State.ExitCode,
      health: c.State.Health?.Status,
      hostPorts,
      labels: c.Config.Labels ?? {},
    };
  }

  /** Stops (SIGTERM, then SIGKILL after `graceSeconds`); a stopped or missing container is fine. */
  async stop(name: string, graceSeconds = 15): Promise<void> {
    await this.call(
      'POST',
      `/containers/${encodeURIComponent(name)}/stop?t=${graceSeconds}`,
      [204, 304, 404],
      undefined,
      (graceSeconds + 30) * 1000,
    );
  }

  /** Removes the container (forced) and its anonymous volumes; named volumes stay. */
  async remove(name: string): Promise<void> {
    await this.call('DELETE', `/containers/${encodeURIComponent(name)}?force=true&v=true`, [204, 404]);
  }

  /** Writes the container's log (stdout and stderr); with `follow`, until the container stops. */
  logs(name: string, follow: boolean, write: (stream: 'stdout' | 'stderr', text: Buffer) => void): Promise<void> {
    const query = new URLSearchParams({ stdout: '1', stderr: '1', follow: follow ? '1' : '0' });
    return new Promise((resolve, reject) => {
      const req = request(
        {
          ...this.address,
          method: 'GET',
          path: `/${API_VERSION}/containers/${encodeURIComponent(name)}/logs?${query}`,
        },
        (res) => {
          if (res.statusCode !== 200) {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const message = engineMessage(Buffer.concat(chunks).toString('utf8'));
              reject(new EngineError(res.statusCode ?? 0, `Docker engine: logs ${name}: ${res.statusCode} ${message}`));
            });
            return;
          }
          // Containers made here have no TTY, so their log is always multiplexed.
          const demuxer = new LogDemuxer(write);
          res.on('data', (chunk: Buffer) => demuxer.push(chunk));
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }
}
