import { randomBytes } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Html, page } from '../ui/html.js';
import { COPY_SCRIPT } from '../ui/pages.js';

/** Sends a page under a strict CSP: no network, only the page's own inline script (by nonce); `head`: extra `<head>` markup. */
export function sendPage(reply: FastifyReply, title: string, body: Html, nav?: Html, status = 200, head?: Html) {
  const nonce = randomBytes(16).toString('base64');
  reply
    .code(status)
    .headers({
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(page(title, body, { nav, nonce, script: COPY_SCRIPT, head }));
}

/** The posted form (the UI scope parses `application/x-www-form-urlencoded` into `URLSearchParams`). */
export function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams)) throw new HttpError(415, 'unsupported_media_type', 'expected a form');
  return request.body;
}

/** A numeric form field; undefined when left blank. */
export function numberField(form: URLSearchParams, name: string): number | undefined {
  const text = form.get(name)?.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value))
    throw new HttpError(400, 'invalid_request', `${name.replaceAll('_', ' ')} must be a number`);
  return value;
}

/** Runs a form's action; a refusal (a 4xx error) comes back to be shown on the page, anything worse is thrown. */
export async function refusalOf(action: () => Promise<unknown>): Promise<HttpError | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return error;
    throw error;
  }
}
