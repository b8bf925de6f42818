import type { FastifyInstance } from 'fastify';

/** Werkzeug's upper-case reason phrases, which the reference's tests compare. */
const REASONS: Record<number, string> = {
  200: 'OK',
  400: 'BAD REQUEST',
  404: 'NOT FOUND',
  405: 'METHOD NOT ALLOWED',
  413: 'REQUEST ENTITY TOO LARGE',
  415: 'UNSUPPORTED MEDIA TYPE',
  500: 'INTERNAL SERVER ERROR',
  501: 'NOT IMPLEMENTED',
  503: 'SERVICE UNAVAILABLE',
};

/**
 * App-wide reply rules (they also cover core's error and not-found replies): JSON is sent as plain
 * `application/json` without a charset, and status lines carry upper-case reasons. Only answers built by
 * `Utils.build_headers` expose headers to browsers, and those always carry `X-Total-Count`: flask-cors,
 * configured without `expose_headers`, adds none to errors, unknown routes, preflights or file downloads.
 */
export function replyConventions(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('x-total-count')) reply.removeHeader('access-control-expose-headers');
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', 'application/json');
    const reason = REASONS[reply.statusCode];
    if (reason) reply.raw.statusMessage = reason;
    return payload;
  });
}
