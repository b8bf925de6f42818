import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
}

/**
 * Sends `chunks` as they are over one TCP connection (waiting `gapMs` between them, for slow clients),
 * then reads until the server closes it; for requests `fetch` cannot make (raw paths, bad framing).
 */
export function rawHttp(baseUrl: string, chunks: (string | Buffer)[], gapMs = 0): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const received: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) });
    let closed = false;
    socket.on('data', (data) => received.push(data));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      const text = Buffer.concat(received).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = (split === -1 ? text : text.slice(0, split)).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(' ')[1] ?? 0),
        headers,
        body: split === -1 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString('utf8'),
        closedAfterMs: performance.now() - started,
      });
    });
    socket.once('connect', async () => {
      try {
        for (const [i, chunk] of chunks.entries()) {
          if (closed) return;
          if (i > 0 && gapMs > 0) await sleep(gapMs);
          if (!closed) socket.write(chunk);
        }
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** A complete `Connection: close` request line and headers for `rawHttp`. */
export const rawRequest = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`;
