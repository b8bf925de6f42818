import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2Session } from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { FastifyServerFactory } from 'fastify';
import { z } from 'zod';
import type { Logger } from '../log/logger.js';

/** `tls = { cert, key }`: PEM files (the certificate chain and its private key), re-read on SIGHUP. */
export const tlsField = z.strictObject({ cert: z.string().min(1), key: z.string().min(1) }).optional();

export interface TlsConfig {
  cert: string;
  key: string;
}

type Handler = (request: IncomingMessage | Http2ServerRequest, response: ServerResponse) => void;

/** An HTTPS server with the methods Atrium's graceful shutdown uses on plain HTTP servers. */
export interface TlsServer extends Http2SecureServer {
  closeIdleConnections(): void;
  closeAllConnections(): void;
  /** Re-reads the certificate and key; new connections use them, open ones keep theirs. */
  reload(): void;
}

const readPair = (tls: TlsConfig) => ({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) });

/**
 * One TLS listener for HTTP/2 and HTTP/1.1 (ALPN decides). A SIGHUP re-reads the PEM files (a renewed
 * certificate) without dropping a connection; a pair that cannot be read or does not match is logged and the
 * old one kept. Connections are tracked so that shutdown can close idle ones (HTTP/2 sessions finish their
 * open streams first) and, at its deadline, all of them.
 */
export function createTlsServer(
  tls: TlsConfig,
  handler: Handler,
  options: { keepAliveTimeoutMs: number; idleTimeoutMs: number },
  logger: Logger,
): TlsServer {
  const server = createSecureServer({ ...readPair(tls), allowHTTP1: true }) as TlsServer;
  // HTTP/1.1 requests arrive here as well, with the objects of `node:http`.
  server.on('request', handler);
  server.setTimeout(options.idleTimeoutMs, (socket?: Socket) => socket?.destroy());
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = options.keepAliveTimeoutMs;

  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  /** HTTP/1.1 requests under way per socket: a socket without any is idle. */
  const busy = new Map<Socket, number>();
  server.on('secureConnection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  server.on('request', (request: IncomingMessage | Http2ServerRequest, response: ServerResponse) => {
    if (request.httpVersionMajor !== 1) return;
    const socket = request.socket as Socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => busy.set(socket, (busy.get(socket) ?? 1) - 1));
  });

  server.closeIdleConnections = () => {
    for (const session of sessions) session.close();
    // HTTP/2 connections close with their sessions; an HTTP/1.1 one when no request is under way on it.
    for (const socket of sockets)
      if ((socket as TLSSocket).alpnProtocol !== 'h2' && !busy.get(socket)) socket.destroy();
  };
  server.closeAllConnections = () => {
    for (const socket of sockets) socket.destroy();
  };
  server.reload = () => {
    try {
      server.setSecureContext(readPair(tls));
      logger.info({ cert: tls.cert }, 'TLS certificate reloaded');
    } catch (error) {
      logger.error({ err: error, cert: tls.cert }, 'TLS certificate reload failed; the previous one stays in use');
    }
  };
  const onHangup = () => server.reload();
  process.on('SIGHUP', onHangup);
  server.once('close', () => process.off('SIGHUP', onHangup));
  return server;
}

/** Fastify's `serverFactory` for a service with `tls` set. */
export const tlsServerFactory =
  (
    tls: TlsConfig,
    http: { keepAliveTimeoutMs: number; requestTimeoutMs: number },
    logger: Logger,
  ): FastifyServerFactory =>
  (handler) =>
    createTlsServer(
      tls,
      handler as Handler,
      { keepAliveTimeoutMs: http.keepAliveTimeoutMs, idleTimeoutMs: http.requestTimeoutMs },
      logger,
    ) as unknown as Server;
