import { request } from 'node:http';
import type { Json } from './harness.js';

/**
 * A JSON POST to the server at `base` from the loopback address `address` (any of 127.0.0.0/8 on Linux), so the
 * server sees that client address: how tests play many clients.
 */
export function postFrom(
  base: string,
  address: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress: address,
        headers: { 'content-type': 'application/json', ...headers },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}
