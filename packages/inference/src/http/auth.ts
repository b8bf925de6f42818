import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ActiveKey, accessRefusal } from '../tenancy/active-key.js';
import type { KeyStore } from '../tenancy/key-store.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a `/v1` request, set by the bearer-auth hook. */
    apiKey: ActiveKey | undefined;
  }
}

const BEARER = /^bearer\s+/i;

function presentedToken(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && BEARER.test(authorization)) return authorization.replace(BEARER, '').trim();
  const apiKey = request.headers['x-api-key'];
  return typeof apiKey === 'string' ? apiKey.trim() : undefined;
}

/** The key of an authenticated `/v1` request. */
export function keyOf(request: FastifyRequest): ActiveKey {
  if (!request.apiKey) throw new Error('keyOf: route is outside the bearer-auth hook');
  return request.apiKey;
}

/**
 * Every `/v1/*` route needs `Authorization: Bearer <key>` (or `x-api-key`, as the Anthropic SDK sends).
 * Decided by the matched route, not the raw URL (`//v1/models` and `/%761/…` reach the same handlers), and
 * before the body is read or validated. Unknown and revoked keys get the same answer, which never repeats the key;
 * an expired key or one of a project without an active grant is refused saying so.
 */
export function registerBearerAuth(app: FastifyInstance, keys: KeyStore): void {
  app.decorateRequest('apiKey', undefined);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.url?.startsWith('/v1/')) return;
    const token = presentedToken(request);
    if (!token) {
      throw new HttpError(
        401,
        'missing_api_key',
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      );
    }
    const key = await keys.lookup(token);
    if (!key) throw new HttpError(401, 'invalid_api_key', 'Incorrect API key provided.');
    const refusal = accessRefusal(key, keys.clock());
    if (refusal) throw refusal;
    request.apiKey = key;
  });
}
