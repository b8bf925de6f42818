import type { FastifyInstance } from 'fastify';
import { type PerfQuerystring, type PerfRequest, parsePerfRequest } from '../domain/perf-query.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { badRequest } from './problems.js';
import { pathParams } from './schemas.js';

export const perfQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    branches: { type: 'string', maxLength: 65536 },
    heads: { type: 'string', maxLength: 65536 },
    testbeds: { type: 'string', maxLength: 65536 },
    specs: { type: 'string', maxLength: 65536 },
    benchmarks: { type: 'string', maxLength: 65536 },
    measures: { type: 'string', maxLength: 65536 },
    start_time: { type: 'integer' },
    end_time: { type: 'integer' },
    title: { type: 'string', maxLength: 256 },
    y_axis: { type: 'string', enum: ['auto', 'linear', 'log'] },
  },
};

function perfRequest(query: PerfQuerystring): PerfRequest {
  const parsed = parsePerfRequest(query);
  if (typeof parsed === 'string') throw badRequest(parsed);
  return parsed;
}

export function registerPerfRoutes(app: FastifyInstance, context: BenchContext): void {
  app.get<{ Params: { project: string }; Querystring: PerfQuerystring }>(
    '/v0/projects/:project/perf/img',
    { schema: { params: pathParams('project'), querystring: perfQuerySchema } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const png = await context.perf.render(project, perfRequest(request.query), 'png');
      return reply.type('image/png').header('cache-control', 'private, max-age=0, no-cache').send(png);
    },
  );

  app.get<{ Params: { project: string }; Querystring: PerfQuerystring }>(
    '/v0/projects/:project/perf',
    { schema: { params: pathParams('project'), querystring: perfQuerySchema } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      return reply
        .type('application/json; charset=utf-8')
        .send(await context.perf.render(project, perfRequest(request.query), 'json'));
    },
  );
}
