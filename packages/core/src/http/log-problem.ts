import type { FastifyRequest } from 'fastify';
import type { HttpProblem } from './problem.js';

/**
 * Logs a failed request once, without request content: a database outage as one warn line with the
 * driver's code, any other 5xx at error with its stack; client errors not at all.
 */
export function logProblem(request: FastifyRequest, error: unknown, problem: HttpProblem): void {
  if (problem.code === 'database_unavailable') {
    request.log.warn({ code: (error as { code?: unknown }).code }, 'database unavailable');
  } else if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
}
