import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atriumBench, json, type LiveBench, startLiveBench } from './bench-support.js';

/** A proxy (HTTP, or HTTPS with `tls`) in front of the live server; `answer(n)` injects a status for request n. */
function flakyProxy(
  target: string,
  answer: (n: number) => number | undefined,
  tls?: { key: Buffer; cert: Buffer },
): Promise<{ url: string; server: Server; seen: string[] }> {
  const seen: string[] = [];
  const handler: RequestListener = async (req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    const status = answer(seen.length);
    if (status !== undefined) {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ request_id: 'x', message: `injected ${status}\nsecond line` }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: req.headers.authorization ? { authorization: req.headers.authorization } : {},
    });
    res.writeHead(upstream.status, { 'content-type': 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  };
  const server: Server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, server, seen });
    }),
  );
}

/** A throw-away self-signed certificate for 127.0.0.1. */
function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-tls-'));
  const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ],
    {
      stdio: 'ignore',
    },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

describe('atrium bench retries', () => {
  let bench: LiveBench | undefined;
  let proxy: Server | undefined;
  afterEach(async () => {
    proxy?.close();
    await bench?.close();
  });

  it('retries a server that answers 503 twice, then succeeds', async () => {
    bench = await startLiveBench();
    const flaky = await flakyProxy(bench.base, (n) => (n <= 2 ? 503 : undefined));
    proxy = flaky.server;
    const result = await atriumBench(['server', 'version', '--host', flaky.url, '--retry-after', '0.05']);
    expect(json(result)).toEqual({ version: '0.6.12' });
    expect(result.stderr).toContain('Send attempt #1/10');
    expect(result.stderr).toContain('Send attempt #2/10');
    expect(result.stderr).not.toContain('#3/10');
    expect(flaky.seen.filter((s) => s === 'GET /v0/server/version')).toHaveLength(3);
  });

  it('does not retry a 4xx, and gives up after --attempts on 5xx with one line', async () => {
    bench = await startLiveBench();
    const rejecting = await flakyProxy(bench.base, (n) => (n > 1 ? 400 : undefined));
    proxy = rejecting.server;
    const rejected = await atriumBench(['project', 'view', 'x', '--host', rejecting.url, '--retry-after', '0.05']);
    expect(rejected.code).toBe(1);
    expect(rejected.stderr).toBe('atrium: GET /v0/projects/x: 400 injected 400. second line\n');
    expect(rejecting.seen).toHaveLength(2);
    proxy.close();

    const down = await flakyProxy(bench.base, () => 502);
    proxy = down.server;
    const failed = await atriumBench([
      'project',
      'view',
      'x',
      '--host',
      down.url,
      '--attempts',
      '3',
      '--retry-after',
      '0',
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim().split('\n').at(-1)).toBe(
      'atrium: GET /v0/server/version: failed to send after 3 attempt(s): 502 injected 502. second line',
    );
    expect(down.seen).toHaveLength(3);
  });

  it('refuses an untrusted certificate at once, and accepts it with --insecure-host', async () => {
    bench = await startLiveBench();
    const tls = await flakyProxy(bench.base, () => undefined, selfSigned());
    proxy = tls.server;
    const refused = await atriumBench(['server', 'version', '--host', tls.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^atrium: GET \/v0\/server\/version: DEPTH_ZERO_SELF_SIGNED_CERT 127\.0\.0\.1:\d+: /,
    );
    expect(refused.stderr).not.toContain('Send attempt');
    expect(json(await atriumBench(['server', 'version', '--host', tls.url, '--insecure-host']))).toEqual({
      version: '0.6.12',
    });
  });
});
