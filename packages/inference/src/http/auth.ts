import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyRing } from '../auth/static-keys.js';

const BEARER = /^bearer\s+/i;

function presentedToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && BEARER.test(authorization)) return authorization.replace(BEARER, '').trim();
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

/** Every `/v1/*` route needs `Authorization: Bearer <key>` (or `x-api-key`, as the Anthropic SDK sends). */
export function registerBearerAuth(app: FastifyInstance, keys: KeyRing): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/v1/')) return done();
    const token = presentedToken(request);
    if (!token) {
      return done(
        new HttpError(
          401,
          'missing_api_key',
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        ),
      );
    }
    if (!keys.accepts(token)) return done(new HttpError(401, 'invalid_api_key', 'Incorrect API key provided.'));
    done();
  });
}
