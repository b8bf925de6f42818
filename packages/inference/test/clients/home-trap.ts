import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HomeTrap {
  /** Proxy variables that send a client's every outside call here, where it is refused at once. */
  env: Record<string, string>;
  /** The hosts clients tried to reach (`host:port`), in order. */
  hosts: string[];
  close(): Promise<void>;
}

/**
 * A forward proxy that refuses everything (403) and records where clients tried to go, so a client's calls home
 * (telemetry, updates, model lists) fail fast on any network and show up in the test.
 */
export async function startHomeTrap(): Promise<HomeTrap> {
  const hosts: string[] = [];
  const server = createServer((request, response) => {
    hosts.push(new URL(request.url ?? '/', 'http://unknown').host);
    response.writeHead(403).end();
  });
  server.on('connect', (request, socket) => {
    hosts.push(request.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    env: {
      HTTPS_PROXY: proxy,
      HTTP_PROXY: proxy,
      https_proxy: proxy,
      http_proxy: proxy,
      NO_PROXY: '127.0.0.1,localhost',
      no_proxy: '127.0.0.1,localhost',
    },
    hosts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
