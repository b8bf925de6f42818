import type { FastifyReply, FastifyRequest } from 'fastify';

/** The sign-in routes' cookies: HTTP-only, sent only to `/v0/auth`, `Secure` under TLS. */

export function setAuthCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  cookie: { name: string; value: string; maxAgeSeconds: number; sameSite: 'Lax' | 'Strict' },
): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${cookie.name}=${cookie.value}; Path=/v0/auth; HttpOnly; SameSite=${cookie.sameSite}; Max-Age=${cookie.maxAgeSeconds}${secure}`,
  );
}

export function authCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
