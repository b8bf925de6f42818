import { type ClientRequest, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { Request } from './case.js';

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Longest any one request may take before it counts as a stall and is abandoned. */
const GIVE_UP_MS = 15_000;
const CHUNK = 1024 * 1024;
const REFUSAL_WAIT_MS = 1000;

/** One request on a fresh connection, the path sent byte for byte; the time covers the whole answer. */
export function send(origin: string, req: Request, giveUpMs = GIVE_UP_MS): Promise<Answer> {
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const client = httpRequest({
      host: url.hostname,
      port: url.port,
      method: req.method,
      path: req.path,
      headers: { ...(req.body !== undefined ? { 'content-length': Buffer.byteLength(req.body) } : {}), ...req.headers },
      agent: false,
      timeout: giveUpMs,
    });
    let answered = false;
    // The client's own pause is not the server's time.
    const paused = { ms: 0 };
    client.on('response', (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started - paused.ms,
        }),
      );
      response.on('error', reject);
    });
    client.on('timeout', () => client.destroy(new Error(`no answer in ${giveUpMs} ms`)));
    // A server that answers early (413) and closes while the body is still being written is fine.
    client.on('error', (error) => {
      if (!answered) reject(error);
    });
    void writeBody(client, req.body, () => answered, paused);
  });
}

/**
 * Writes the body in chunks, stopping once the server has answered. After the first chunk of a big body it
 * gives the server a moment to refuse it by its Content-Length (413): a server that closes the connection
 * with unread data resets it, and the reset can destroy the answer before the client reads it.
 */
async function writeBody(
  client: ClientRequest,
  body: string | Buffer | undefined,
  answered: () => boolean,
  paused: { ms: number },
) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  for (let at = 0; bytes && at < bytes.length && !answered() && !client.destroyed; at += CHUNK) {
    if (at === CHUNK) {
      await new Promise((resolve) => setTimeout(resolve, REFUSAL_WAIT_MS));
      paused.ms += REFUSAL_WAIT_MS;
    }
    if (answered() || client.destroyed) return;
    if (!client.write(bytes.subarray(at, at + CHUNK))) {
      await new Promise<void>((resolve) => {
        const done = () => {
          client.off('drain', done);
          client.off('close', done);
          resolve();
        };
        client.on('drain', done);
        client.on('close', done);
      });
    }
  }
  if (!client.destroyed) client.end();
}

/** Raw bytes on a fresh connection (malformed framing); the status is read from the first line answered. */
export function sendRaw(origin: string, bytes: Buffer): Promise<Answer> {
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(GIVE_UP_MS, () => socket.destroy(new Error(`no answer in ${GIVE_UP_MS} ms`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4), ms: performance.now() - started });
    });
    socket.end(bytes);
  });
}
