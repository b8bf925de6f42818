import cors from '@fastify/cors';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { HttpConfig } from '../config/fields.js';
import type { Logger } from '../log/logger.js';
import { canonicalUrl } from './canonical-url.js';
import { trustedProxyCheck } from './client-address.js';
import { capPerClient } from './client-cap.js';
import { clientErrorHandler } from './client-error.js';
import { jsonBodyParser } from './json-body.js';
import { logProblem } from './log-problem.js';
import { HttpMetrics } from './metrics.js';
import { normalizeError } from './normalize-error.js';
import type { HttpProblem } from './problem.js';
import { requestIdFrom } from './request-id.js';
import { tlsServerFactory } from './tls.js';
import { discardBody } from './unread-body.js';
import { validatorCompiler } from './validators.js';

/** Health checks and scrapes arrive every few seconds forever: counted in metrics, kept out of the access log. */
const PROBE_ROUTES = new Set(['/healthz', '/metrics']);

/**
 * The body limit of every route outside a service's `largeBodyRoutes` (forms, sign-in, settings): enough for any
 * of them (bench's largest, a plot naming 4 × 256 uuids, is about 40 KB), small enough to parse in a few ms.
 */
export const SMALL_BODY_LIMIT = 256 * 1024;

export interface FormattedError {
  statusCode: number;
  /** A JSON value, or a string that is already serialised JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Turns a problem into the service's own error wire format. Errors of the HTTP framing itself come
 * before there is a request: the formatter then gets only a request id.
 */
export type ErrorFormatter = (problem: HttpProblem, request: Pick<FastifyRequest, 'id'>) => FormattedError;

export interface HttpAppOptions {
  service: string;
  http: Pick<
    HttpConfig,
    | 'bodyLimit'
    | 'corsOrigins'
    | 'requestTimeoutMs'
    | 'headersTimeoutMs'
    | 'keepAliveTimeoutMs'
    | 'maxConnections'
    | 'maxConnectionsPerAddress'
    | 'tls'
    | 'trustedProxies'
  >;
  logger: Logger;
  /** Write one access-log line per request (method, route, status, time; never headers, query or body). */
  accessLog: boolean;
  formatError: ErrorFormatter;
  /** Extra response headers browsers may read, beyond `x-request-id`. */
  exposedHeaders?: string[];
  /**
   * The routes (matched on their pattern, e.g. `/v0/projects/:project/reports`) that take bodies of up to
   * `http.bodyLimit`; every other route takes at most `SMALL_BODY_LIMIT`.
   */
  largeBodyRoutes?: RegExp;
  /** The service's own series, in Prometheus text format, appended to `/metrics`. */
  metrics?: () => string;
}

/**
 * A Fastify app with Atrium's conventions: one canonical path before routing, request ids, body limits,
 * JSON bodies refused past a nesting bound before they are parsed, unknown routes answered before their body is
 * read, timeouts, a connection cap overall and per client, CORS, JSON errors in the service's format (router and
 * HTTP parser errors too), `/healthz` and Prometheus `/metrics`. Services add their routes to the returned instance.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const { http } = options;
  const sendProblem = (problem: HttpProblem, request: FastifyRequest, reply: FastifyReply) => {
    const formatted = options.formatError(problem, request);
    if (problem.headers) reply.headers(problem.headers);
    if (formatted.headers) reply.headers(formatted.headers);
    const body = typeof formatted.body === 'string' ? formatted.body : JSON.stringify(formatted.body);
    return reply.code(formatted.statusCode).type('application/json').send(body);
  };
  const app = Fastify({
    loggerInstance: options.logger.child({ service: options.service }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: Math.min(http.bodyLimit, SMALL_BODY_LIMIT),
    genReqId: requestIdFrom,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    http: {
      // Node refuses a headers timeout longer than the request timeout; the shorter one bounds both anyway.
      headersTimeout: Math.min(http.headersTimeoutMs, http.requestTimeoutMs),
      // Node enforces both timeouts on this tick (default 30 s, which would stretch them by up to that much).
      connectionsCheckingInterval: Math.min(1000, http.headersTimeoutMs, http.requestTimeoutMs),
    },
    // `https` only tells Fastify the factory's server speaks TLS (its "listening at https://…" log line).
    ...(http.tls && { serverFactory: tlsServerFactory(http.tls, http, options.logger), https: {} }),
    ...(http.trustedProxies.length > 0 && { trustProxy: http.trustedProxies }),
    rewriteUrl: (req) => canonicalUrl(req.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
      return sendProblem(normalizeError(error), request, reply);
    },
    clientErrorHandler: clientErrorHandler(options.formatError),
  });
  app.server.maxConnections = http.maxConnections;
  app.setValidatorCompiler(validatorCompiler);
  const { largeBodyRoutes } = options;
  if (largeBodyRoutes) {
    app.addHook('onRoute', (route) => {
      if (route.bodyLimit === undefined && largeBodyRoutes.test(route.url)) route.bodyLimit = http.bodyLimit;
    });
  }
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonBodyParser(app));

  const origins = options.http.corsOrigins;
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    // The plugin's default (GET, HEAD, POST) would make browsers refuse the services' PATCH, PUT and DELETE.
    methods: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'],
    exposedHeaders: ['x-request-id', ...(options.exposedHeaders ?? [])],
    // A plain OPTIONS (no Access-Control-Request-Method) is not a malformed preflight: let routes answer it.
    strictPreflight: false,
  });

  const metrics = new HttpMetrics(options.service);
  // Under TLS, browsers are told to use HTTPS only for this host from now on (a year).
  const hsts = http.tls ? 'max-age=31536000' : undefined;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (hsts) reply.header('strict-transport-security', hsts);
    done();
  });
  capPerClient(app, {
    cap: http.maxConnectionsPerAddress,
    isTrustedProxy: trustedProxyCheck(http.trustedProxies),
    exempt: PROBE_ROUTES,
  });
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendProblem(
      { status: 404, code: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` },
      request,
      reply,
    );
  // Before any body is read: no parser runs for a route that does not exist, and its body is thrown away.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) {
      done();
      return;
    }
    discardBody(request, reply, http.bodyLimit);
    notFound(request, reply);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? '(unmatched)';
    metrics.observe(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (options.accessLog && !PROBE_ROUTES.has(route)) {
      request.log.info(
        { method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
        'request',
      );
    }
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = normalizeError(error);
    logProblem(request, error, problem);
    return sendProblem(problem, request, reply);
  });
  app.setNotFoundHandler(notFound);

  const health = JSON.stringify({ status: 'ok', service: options.service });
  app.get('/healthz', (_request, reply) => {
    reply.type('application/json').send(health);
  });
  app.get('/metrics', (_request, reply) => {
    reply.type('text/plain; version=0.0.4').send(metrics.render() + (options.metrics?.() ?? ''));
  });
  return app;
}
