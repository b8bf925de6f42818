import type { FastifyReply } from 'fastify';

/** Bencher lists: a bare JSON array, the total before paging in `X-Total-Count`. */
export function sendList(reply: FastifyReply, rows: unknown[], total: number) {
  return reply.header('x-total-count', String(total)).send(rows);
}
