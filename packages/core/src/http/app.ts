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
import { HttpMetrics } from './metrics.js';
import { normalizeError } from './normalize-error.js';
import type { HttpProblem } from './problem.js';
import { requestIdFrom } from './request-id.js';
import { validatorCompiler } from './validators.js';

/** Health checks and scrapes arrive every few seconds forever: counted in metrics, kept out of the access log. */
const PROBE_ROUTES = new Set(['/healthz', '/metrics']);

export interface FormattedError {
  statusCode: number;
  /** A JSON value, or a string that is already serialised JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

/** Turns a problem into the service's own error wire format. */
export type ErrorFormatter = (problem: HttpProblem, request: FastifyRequest) => FormattedError;

export interface HttpAppOptions {
  service: string;
  http: Pick<HttpConfig, 'bodyLimit' | 'corsOrigins'>;
  logger: Logger;
  /** Write one access-log line per request (method, route, status, time; never headers, query or body). */
  accessLog: boolean;
  formatError: ErrorFormatter;
  /** Extra response headers browsers may read, beyond `x-request-id`. */
  exposedHeaders?: string[];
}

/**
 * A Fastify app with Atrium's conventions: request ids, body limit, CORS, JSON errors in the service's
 * format, `/healthz` and Prometheus `/metrics`. Services add their routes to the returned instance.
 */
export async function createHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger.child({ service: options.service }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.http.bodyLimit,
    genReqId: requestIdFrom,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);

  const origins = options.http.corsOrigins;
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    exposedHeaders: ['x-request-id', ...(options.exposedHeaders ?? [])],
    // A plain OPTIONS (no Access-Control-Request-Method) is not a malformed preflight: let routes answer it.
    strictPreflight: false,
  });

  const metrics = new HttpMetrics(options.service);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
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

  const sendProblem = (problem: HttpProblem, request: FastifyRequest, reply: FastifyReply) => {
    const formatted = options.formatError(problem, request);
    if (formatted.headers) reply.headers(formatted.headers);
    const body = typeof formatted.body === 'string' ? formatted.body : JSON.stringify(formatted.body);
    return reply.code(formatted.statusCode).type('application/json').send(body);
  };
  app.setErrorHandler((error, request, reply) => {
    const problem = normalizeError(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(problem, request, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      { status: 404, code: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` },
      request,
      reply,
    ),
  );

  const health = JSON.stringify({ status: 'ok', service: options.service });
  app.get('/healthz', (_request, reply) => {
    reply.type('application/json').send(health);
  });
  app.get('/metrics', (_request, reply) => {
    reply.type('text/plain; version=0.0.4').send(metrics.render());
  });
  return app;
}
