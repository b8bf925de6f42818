import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nestsDeeperThan } from './json-nesting.js';
import { HttpError } from './problem.js';

/**
 * Arrays and objects a JSON request body may nest. AiiDA's QueryBuilder allows 256, Bencher (serde_json) 128,
 * inference's own fields 64; far deeper is only an attack on the parser and on every recursive walk after it.
 */
export const MAX_JSON_NESTING = 256;

export type JsonBodyParser = (
  request: FastifyRequest,
  body: string,
  done: (error: Error | null, value?: unknown) => void,
) => void;

/**
 * The one JSON body parser of every service (a content-type parser `{ parseAs: 'string' }`): a body nesting deeper
 * than `MAX_JSON_NESTING` is refused (400 `invalid_json`) by a scan of its text before any value is built; the
 * rest goes to Fastify's parser of `scope` (empty bodies and `__proto__`/`constructor` keys refused).
 */
export function jsonBodyParser(scope: FastifyInstance): JsonBodyParser {
  const parse = scope.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    if (nestsDeeperThan(body, MAX_JSON_NESTING)) {
      done(
        new HttpError(
          400,
          'invalid_json',
          `request body nests arrays and objects deeper than ${MAX_JSON_NESTING} levels`,
        ),
      );
      return;
    }
    parse(request, body, done);
  };
}
