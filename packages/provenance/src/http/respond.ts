import type { FastifyReply, FastifyRequest } from 'fastify';
import { aiidaJson } from '../wire/json.js';
import { unquote } from '../wire/query-string.js';

export const JSON_TYPE = 'application/json';

/** Splits the raw request URL (as sent, still percent-encoded) into path and query string. */
export function rawParts(request: FastifyRequest): { path: string; query: string } {
  const q = request.url.indexOf('?');
  return q < 0 ? { path: request.url, query: '' } : { path: request.url.slice(0, q), query: request.url.slice(q + 1) };
}

export function urlRoot(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/`;
}

/** The request-describing fields of every AiiDA REST envelope (§3.1). */
export function requestFields(request: FastifyRequest, options: { rawQueryString?: boolean } = {}) {
  const { path, query } = rawParts(request);
  const root = urlRoot(request);
  return {
    method: request.method === 'HEAD' ? 'GET' : request.method,
    path: unquote(path),
    query_string: options.rawQueryString ? query : unquote(query),
    url: unquote(`${root}${request.url.slice(1)}`),
    url_root: root,
  };
}

export interface SendOptions {
  status?: number;
  totalCount?: number;
  link?: string;
}

/** Sends an already-built JSON body with the reference's headers. */
export function sendJson(reply: FastifyReply, body: unknown, options: SendOptions = {}): FastifyReply {
  reply.code(options.status ?? 200).header('content-type', JSON_TYPE);
  if (options.totalCount !== undefined) {
    reply.header('x-total-count', String(options.totalCount));
    reply.header('access-control-expose-headers', options.link ? 'X-Total-Count,Link' : 'X-Total-Count');
  }
  if (options.link) reply.header('link', options.link);
  return reply.send(aiidaJson(body));
}

export function envelope(
  request: FastifyRequest,
  resourceType: string,
  data: unknown,
  id: string | number | null | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = { data, ...requestFields(request), resource_type: resourceType };
  if (id !== undefined) body.id = id;
  return body;
}
