import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

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

export interface PageAnswer<Body = unknown> {
  /** 0 when fetch() itself failed (a refused preflight, a blocked response). */
  status: number;
  requestId: string | null;
  /** The parsed JSON body; null when empty or when fetch() failed. */
  body: Body | null;
  /** What fetch() threw. */
  error?: string;
}

/**
 * fetch() run inside `page`, so under its origin's CORS rules; a `body` is sent as JSON (a content type that, like
 * an Authorization header, makes the browser send a preflight).
 */
export const fetchFromPage = <Body = unknown>(
  page: Page,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: unknown },
): Promise<PageAnswer<Body>> =>
  page.evaluate(
    async ({ url, method, headers, body }) => {
      try {
        const response = await fetch(url, {
          method,
          headers: { ...headers, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        return {
          status: response.status,
          requestId: response.headers.get('x-request-id'),
          body: text ? JSON.parse(text) : null,
        };
      } catch (error) {
        return { status: 0, requestId: null, body: null, error: String(error) };
      }
    },
    { url, method: init.method, headers: init.headers ?? {}, body: init.body },
  );
