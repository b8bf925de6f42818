import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { clientKey } from './client-address.js';
import { HttpError } from './problem.js';

/** Open connections or requests under way, per client. */
class Counts {
  private readonly open = new Map<string, number>();

  /** Counts one more for `key` unless it already has `cap`; false when refused. */
  take(key: string, cap: number): boolean {
    const now = this.open.get(key) ?? 0;
    if (now >= cap) return false;
    this.open.set(key, now + 1);
    return true;
  }

  release(key: string): void {
    const left = (this.open.get(key) ?? 1) - 1;
    if (left > 0) this.open.set(key, left);
    else this.open.delete(key);
  }
}

export interface ClientCapOptions {
  /** Connections one client may hold open; through a trusted proxy, its requests under way. */
  cap: number;
  isTrustedProxy: (address: string) => boolean;
  /** Requests never refused (health checks). */
  exempt: ReadonlySet<string>;
}

/**
 * One client cannot take every connection. A connection is counted against its remote address (IPv6: its /64)
 * when it arrives, before any byte is read, and closed at once beyond the cap; `maxConnections` still bounds them
 * all. A trusted proxy's connections carry many clients, so there the cap counts each client's requests under
 * way, by `request.ip` (from `X-Forwarded-For`), and refuses more with 429.
 */
export function capPerClient(app: FastifyInstance, options: ClientCapOptions): void {
  const connections = new Counts();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || options.isTrustedProxy(address)) return;
    const key = clientKey(address);
    if (!connections.take(key, options.cap)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => connections.release(key));
  });

  const requests = new Counts();
  app.addHook('onRequest', (request, reply, done) => {
    const address = request.socket.remoteAddress;
    if (
      address === undefined ||
      !options.isTrustedProxy(address) ||
      options.exempt.has(request.routeOptions.url ?? '')
    ) {
      done();
      return;
    }
    const key = clientKey(request.ip);
    if (!requests.take(key, options.cap)) {
      done(
        new HttpError(429, 'too_many_connections', 'too many requests under way from this client address', undefined, {
          'retry-after': '1',
        }),
      );
      return;
    }
    reply.raw.once('close', () => requests.release(key));
    done();
  });
}
