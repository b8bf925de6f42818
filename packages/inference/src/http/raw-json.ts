import { jsonBodyParser } from '@atrium/core';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON text of the body, in scopes that keep it (`keepRawJson`). */
    rawJson: string | undefined;
  }
}

/**
 * JSON bodies of the routes in `scope` are parsed as everywhere else (core's parser: nesting bound, prototype
 * poisoning refused) and their text is kept as `request.rawJson`, so a body can be forwarded without serialising it again.
 */
export function keepRawJson(scope: FastifyInstance): void {
  const parse = jsonBodyParser(scope);
  scope.decorateRequest('rawJson', undefined);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawJson = text;
    parse(request, text, done);
  });
}
