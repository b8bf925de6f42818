import { HttpError, type HttpProblem, normalizeError } from '@atrium/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { QueryQueueFullError, QueryTimeoutError } from '../storage/aiida/sqlite-pool.js';
import { formatProvenanceError } from './errors.js';

/** PostgreSQL's SQLSTATE for a statement cancelled by `statement_timeout`. */
const QUERY_CANCELED = '57014';

type Overload = HttpProblem & { retryAfter?: string };

/** Statements stopped at the deadline or refused by a full queue: 503, whatever the backend. */
export function overloadProblem(error: Error & { code?: unknown }, timeoutMs: number): Overload | undefined {
  if (error instanceof QueryTimeoutError || error.code === QUERY_CANCELED) {
    return {
      status: 503,
      code: 'query_timeout',
      message: `The query took longer than ${timeoutMs} ms and was stopped. Narrow it (filters, a smaller limit, fewer joins).`,
    };
  }
  if (error instanceof QueryQueueFullError) {
    return {
      status: 503,
      code: 'busy',
      message: 'Too many queries are waiting for this database; try again shortly.',
      retryAfter: '1',
    };
  }
  return undefined;
}

/** The stack frames only: the first line repeats the message, which may quote the request. */
function frames(error: Error): string | undefined {
  return error.stack
    ?.split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n');
}

/**
 * The reference's error handler (`App.error_handler` in restapi/api.py) answers with a fresh `jsonify` response:
 * whatever a route had set (`X-Total-Count`, `Link`, and the `Access-Control-Expose-Headers` only
 * `Utils.build_headers` adds) is gone, and flask-cors adds `Access-Control-Allow-Origin` alone.
 */
const ENVELOPE_HEADERS = ['x-total-count', 'link', 'access-control-expose-headers', 'content-disposition'];

function send(problem: Overload, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const formatted = formatProvenanceError(problem, request);
  for (const name of ENVELOPE_HEADERS) reply.removeHeader(name);
  if (problem.retryAfter) reply.header('retry-after', problem.retryAfter);
  return reply.code(formatted.statusCode).type('application/json').send(formatted.body);
}

/**
 * Errors of the API routes. Messages often quote the query string or body (`X is not a column of …`),
 * so none is logged: the reference's deliberate 500s are routine (info, route and code only), the
 * unexpected ones are logged with their class and stack frames. Other errors (framework 4xx, an
 * unreachable database) go on to core's handler, which logs no request content either.
 */
export function provenanceErrorHandler(timeoutMs: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url;
    const overload = overloadProblem(error, timeoutMs);
    if (overload) {
      request.log.warn({ route, code: overload.code }, 'query refused');
      return send(overload, request, reply);
    }
    if (error instanceof HttpError) {
      if (error.status >= 500) request.log.info({ route, code: error.code }, 'request failed as the reference does');
      return send(normalizeError(error), request, reply);
    }
    const problem = normalizeError(error);
    if (problem.status !== 500) throw error;
    request.log.error({ route, error: error.name, code: error.code, stack: frames(error) }, 'request failed');
    return send(problem, request, reply);
  };
}
