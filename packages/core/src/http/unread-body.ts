import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * For an answer sent before the body was read (a route that does not exist): the body is read and thrown away,
 * never parsed, so that the client reads the answer (closing on unread data resets the connection, and a reset
 * can destroy the answer before the client reads it) and the connection serves its next request. A body declared
 * larger than `limit` is not read at all, and a longer one is cut there: both close the connection, as Fastify
 * does for a body over its limit.
 */
export function discardBody(request: FastifyRequest, reply: FastifyReply, limit: number): void {
  // HTTP/2 ends the stream with the answer; `connection` is not an HTTP/2 header.
  if (request.raw.httpVersionMajor !== 1) return;
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > limit) {
    reply.header('connection', 'close');
    return;
  }
  if (request.headers['transfer-encoding'] === undefined && !(declared > 0)) return;
  let received = 0;
  request.raw.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) request.raw.socket.destroy();
  });
}
