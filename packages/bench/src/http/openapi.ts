import type { FastifyInstance, RouteOptions } from 'fastify';
import { BENCHER_API_VERSION } from './server-routes.js';

type JsonSchema = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

interface RecordedRoute {
  method: string;
  path: string;
  /** A route answering other than 200/201/204 says so in its `config.status` (202 for invitations). */
  status: number | undefined;
  schema: { params?: JsonSchema; querystring?: JsonSchema; body?: JsonSchema } | undefined;
}

const parameters = (where: 'path' | 'query', schema: JsonSchema | undefined) =>
  Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (schema?.required ?? []).includes(name),
    schema: property,
  }));

const ERROR = {
  description: 'Error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['request_id', 'message'],
        properties: { request_id: { type: 'string' }, error_code: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

function operation(route: RecordedRoute) {
  const success = String(route.status ?? (route.method === 'post' ? 201 : route.method === 'delete' ? 204 : 200));
  return {
    operationId: `${route.method}_${route.path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')}`,
    parameters: [...parameters('path', route.schema?.params), ...parameters('query', route.schema?.querystring)],
    ...(route.schema?.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: route.schema.body } } } }
      : {}),
    responses: { [success]: { description: 'Success' }, '4XX': ERROR, '5XX': ERROR },
  };
}

/**
 * Records every `/v0/` route as it is registered, with the JSON schemas Fastify validates it by, and
 * renders them as an OpenAPI 3.1 document: the spec cannot drift from what the server enforces.
 */
export function recordOpenApi(app: FastifyInstance): () => string {
  const routes: RecordedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/v0/')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || method === 'OPTIONS') continue;
      routes.push({
        method: method.toLowerCase(),
        path: route.url.replace(/:([A-Za-z_]+)/g, '{$1}'),
        status: (route.config as { status?: number } | undefined)?.status,
        schema: route.schema as RecordedRoute['schema'],
      });
    }
  });
  let rendered: string | undefined;
  return () => {
    if (rendered === undefined) {
      const paths: Record<string, Record<string, unknown>> = {};
      for (const route of routes) {
        paths[route.path] ??= {};
        (paths[route.path] as Record<string, unknown>)[route.method] = operation(route);
      }
      rendered = JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Atrium Bench (Bencher API v0 compatible)', version: BENCHER_API_VERSION },
        paths,
      });
    }
    return rendered;
  };
}
