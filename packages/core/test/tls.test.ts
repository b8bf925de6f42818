import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect as http2Connect } from 'node:http2';
import { get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeGracefully, createHttpApp } from '../src/index.js';
import { type CapturedLog, captureLog, testHttpConfig } from '../src/testing/index.js';
import { makeCertificate, type TestCertificate } from './tls-certificate.js';

interface Answer {
  status: number;
  body: string;
  version: string;
  /** The certificate the server presented on this connection. */
  cn: string;
}

/** A GET over HTTP/1.1 (HTTPS) trusting `ca`. */
function getHttp1(origin: string, path: string, ca: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpsGet(`${origin}${path}`, { ca, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => {
        body += d;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          version: response.httpVersion,
          cn: String((response.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''),
        }),
      );
    });
    request.on('error', reject);
  });
}

/** An HTTP/2 session trusting `ca`; `get` sends a request on it. */
function http2Session(origin: string, ca: string) {
  const session = http2Connect(origin, { ca });
  const get = (path: string) =>
    new Promise<Answer>((resolve, reject) => {
      const stream = session.request({ ':path': path });
      let status = 0;
      let body = '';
      stream.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => {
        body += d;
      });
      stream.on('end', () =>
        resolve({
          status,
          body,
          version: '2.0',
          cn: String((session.socket as TLSSocket).getPeerCertificate().subject?.CN ?? ''),
        }),
      );
      stream.on('error', reject);
    });
  return { session, get };
}

describe('HTTPS: tls = { cert, key }', () => {
  let dir: string;
  let first: TestCertificate;
  let second: TestCertificate;
  let live: TestCertificate;
  let app: FastifyInstance;
  let origin: string;
  let release: () => void;
  let log: CapturedLog;

  beforeEach(async () => {
    log = captureLog('info');
    dir = mkdtempSync(join(tmpdir(), 'atrium-tls-test-'));
    first = makeCertificate(dir, 'first');
    second = makeCertificate(dir, 'second');
    // The files the service reads: the first pair now, the second after a renewal.
    live = { certFile: join(dir, 'live.crt'), keyFile: join(dir, 'live.key'), pem: first.pem };
    copyFileSync(first.certFile, live.certFile);
    copyFileSync(first.keyFile, live.keyFile);
    app = await createHttpApp({
      service: 'demo',
      http: testHttpConfig({ tls: { cert: live.certFile, key: live.keyFile } }),
      logger: log.logger,
      accessLog: false,
      formatError: (problem) => ({ statusCode: problem.status, body: { error: problem.code } }),
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.get('/slow', async () => {
      await gate;
      return { done: true };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    origin = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    release();
    await closeGracefully(app, 2_000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTP/1.1 and HTTP/2 over TLS with the configured certificate; an untrusted client is refused', async () => {
    const http1 = await getHttp1(origin, '/healthz', first.pem);
    expect(http1).toEqual({ status: 200, body: '{"status":"ok","service":"demo"}', version: '1.1', cn: 'first' });
    const h2 = http2Session(origin, first.pem);
    try {
      expect(await h2.get('/healthz')).toEqual({
        status: 200,
        body: '{"status":"ok","service":"demo"}',
        version: '2.0',
        cn: 'first',
      });
      expect((h2.session.socket as TLSSocket).alpnProtocol).toBe('h2');
    } finally {
      h2.session.close();
    }
    await expect(getHttp1(origin, '/healthz', second.pem)).rejects.toThrow(/self[- ]signed|certificate/i);
    await expect(fetch(origin.replace('https:', 'http:'))).rejects.toThrow();
  });

  it('tells browsers to stay on HTTPS (HSTS) and logs the https:// address it listens at', async () => {
    const hsts = await new Promise<unknown>((resolve, reject) => {
      httpsGet(`${origin}/healthz`, { ca: first.pem, agent: false }, (response) => {
        response.resume();
        resolve(response.headers['strict-transport-security']);
      }).on('error', reject);
    });
    expect(hsts).toBe('max-age=31536000');
    expect(log.text()).toContain(`"msg":"Server listening at ${origin}"`);
  });

  it('re-reads the certificate on SIGHUP: new connections get the new one, open connections and requests carry on', async () => {
    const h2 = http2Session(origin, first.pem);
    try {
      expect((await h2.get('/healthz')).cn).toBe('first');
      const slowH2 = h2.get('/slow');
      const slowHttp1 = getHttp1(origin, '/slow', first.pem);
      await sleep(200);

      copyFileSync(second.certFile, live.certFile);
      copyFileSync(second.keyFile, live.keyFile);
      process.kill(process.pid, 'SIGHUP');
      let renewed: Answer | undefined;
      for (let i = 0; i < 50 && !renewed; i++) {
        await sleep(100);
        renewed = await getHttp1(origin, '/healthz', second.pem).catch(() => undefined);
      }
      expect(renewed).toMatchObject({ status: 200, cn: 'second' });

      // The open HTTP/2 session still works on its first handshake; the requests under way finish.
      expect(await h2.get('/healthz')).toMatchObject({ status: 200, cn: 'first' });
      release();
      expect(await slowH2).toMatchObject({ status: 200, body: '{"done":true}' });
      expect(await slowHttp1).toMatchObject({ status: 200, body: '{"done":true}', cn: 'first' });
      // The first certificate no longer opens a connection.
      await expect(getHttp1(origin, '/healthz', first.pem)).rejects.toThrow();
    } finally {
      h2.session.close();
    }
  });

  it('keeps the old certificate when the new files cannot be used', async () => {
    copyFileSync(first.certFile, live.keyFile); // a certificate where the key should be
    process.kill(process.pid, 'SIGHUP');
    await sleep(300);
    expect(await getHttp1(origin, '/healthz', first.pem)).toMatchObject({ status: 200, cn: 'first' });
  });
});
