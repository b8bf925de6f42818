import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageFile {
  contentType: string;
  body: string;
}

export interface CrossOriginPage {
  /** `http://127.0.0.1:<port>`: another port than the service under test, so another origin to a browser. */
  origin: string;
  close(): Promise<void>;
}

const BLANK: PageFile = { contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>other origin</title>' };

/**
 * Serves fixed files (by path; `/` is a blank page unless given) from a plain node:http server on its own
 * loopback port, for browser tests of what a page on another origin may do with a service (CORS).
 */
export async function serveCrossOriginPage(files: Record<string, PageFile> = {}): Promise<CrossOriginPage> {
  const served: Record<string, PageFile> = { '/': BLANK, ...files };
  const server = createServer((request, response) => {
    const file = served[new URL(request.url ?? '/', 'http://page').pathname];
    if (!file) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
