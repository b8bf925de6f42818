import { randomUUID } from 'node:crypto';
import { HttpError } from '@atrium/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findDimensionsByUuid } from '../storage/dimensions.js';
import {
  countPlots,
  deletePlot,
  findPlot,
  insertPlot,
  listPlots,
  MAX_PLOTS,
  type PlotChanges,
  type PlotListFilter,
  updatePlot,
} from '../storage/plots.js';
import type { DimensionTableName, PlotTable } from '../storage/schema.js';
import { type Db, inTransaction, type Plot, type Project } from '../storage/types.js';
import { jsonPlot } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { isUuid } from '../wire/slug.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { notFound } from './problems.js';
import { filterQuery, nullable, pathParams, resourceName } from './schemas.js';

const DIMENSIONS = [
  ['branches', 'branch', 'Branch'],
  ['testbeds', 'testbed', 'Testbed'],
  ['benchmarks', 'benchmark', 'Benchmark'],
  ['measures', 'measure', 'Measure'],
] as const satisfies readonly (readonly [keyof PlotBody, DimensionTableName, string])[];

const FLAGS = ['lower_value', 'upper_value', 'lower_boundary', 'upper_boundary'] as const;

const uuidList = {
  type: 'array',
  minItems: 1,
  maxItems: 256,
  items: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' },
};
const plotFields = {
  index: { type: 'integer', minimum: 0, maximum: MAX_PLOTS },
  title: resourceName,
  window: { type: 'integer', minimum: 0, maximum: 4294967295 },
  x_axis: { type: 'string', enum: ['date_time', 'version'] },
  y_axis: { type: 'string', enum: ['auto', 'linear', 'log'] },
  ...Object.fromEntries(FLAGS.map((flag) => [flag, { type: 'boolean' }])),
  ...Object.fromEntries(DIMENSIONS.map(([field]) => [field, uuidList])),
};
const newPlot = {
  type: 'object',
  additionalProperties: false,
  required: ['window', 'x_axis', ...DIMENSIONS.map(([field]) => field)],
  properties: { ...plotFields, index: nullable(plotFields.index), title: nullable(resourceName) },
};
const plotPatch = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(plotFields).map(([field, schema]) => [field, nullable(schema)])),
};

/** `JsonNewPlot` / `JsonUpdatePlot`: in a patch every field may be absent or null (a null title removes it). */
type PlotBody = {
  index?: number | null;
  title?: string | null;
  window?: number | null;
  x_axis?: PlotTable['x_axis'] | null;
  y_axis?: PlotTable['y_axis'] | null;
  branches?: string[] | null;
  testbeds?: string[] | null;
  benchmarks?: string[] | null;
  measures?: string[] | null;
} & { [F in (typeof FLAGS)[number]]?: boolean | null };

type PlotColumns = Omit<Plot, 'uuid' | 'project_uuid' | 'rank' | 'created' | 'modified'>;

/** Bencher requires the four display flags; they default to off here, as the CLI's flags do. */
const PLOT_DEFAULTS: Partial<PlotColumns> = {
  title: null,
  y_axis: 'auto',
  lower_value: 0,
  upper_value: 0,
  lower_boundary: 0,
  upper_boundary: 0,
};

type PlotParams = { project: string; plot: string };
type PlotListQuery = PaginationQuery & { sort?: 'index' | 'title'; title?: string; search?: string };

/** 404 unless every UUID names a dimension of the project. */
async function checkDimensions(db: Db, project: Project, body: PlotBody): Promise<void> {
  for (const [field, table, label] of DIMENSIONS) {
    const uuids = body[field];
    if (!uuids) continue;
    const wanted = new Set(uuids.map((uuid) => uuid.toLowerCase()));
    const found = await findDimensionsByUuid(db, table, [...wanted]);
    for (const row of found) if (row.project_uuid === project.uuid) wanted.delete(row.uuid);
    const [missing] = wanted;
    if (missing !== undefined) throw notFound(label, missing);
  }
}

/** The columns a body sets; absent and null fields are left alone, except a null title. */
function changesOf(body: PlotBody): PlotChanges {
  const changes: PlotChanges = {};
  if (body.title !== undefined) changes.title = body.title;
  if (body.window != null) changes.window_seconds = body.window;
  if (body.x_axis != null) changes.x_axis = body.x_axis;
  if (body.y_axis != null) changes.y_axis = body.y_axis;
  for (const flag of FLAGS) if (body[flag] != null) changes[flag] = body[flag] ? 1 : 0;
  for (const [field] of DIMENSIONS) {
    const uuids = body[field];
    if (uuids != null) changes[field] = JSON.stringify(uuids.map((uuid) => uuid.toLowerCase()));
  }
  return changes;
}

export function registerPlotRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;
  const collection = '/v0/projects/:project/plots';
  const item = `${collection}/:plot`;

  async function plotFor(request: FastifyRequest<{ Params: PlotParams }>, permission: 'view' | 'edit' | 'delete') {
    const { project } = await projectFor(context, request, request.params.project, permission);
    const id = request.params.plot;
    const plot = isUuid(id) ? await findPlot(db, project.uuid, id.toLowerCase()) : undefined;
    if (!plot) throw notFound('Plot', id);
    return { project, plot };
  }

  app.get<{ Params: { project: string }; Querystring: PlotListQuery }>(
    collection,
    {
      schema: {
        params: pathParams('project'),
        querystring: filterQuery(['index', 'title'], {
          title: { type: 'string', maxLength: 1024 },
          search: { type: 'string', maxLength: 1024 },
        }),
      },
    },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const { title, search, sort } = request.query;
      const filter: PlotListFilter = { title, search, ...(sort ? { sort } : {}) };
      const listed = await listPlots(db, project.uuid, filter, pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonPlot), listed.total);
    },
  );

  app.post<{ Params: { project: string }; Body: PlotBody }>(
    collection,
    { schema: { params: pathParams('project'), body: newPlot } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'create');
      await checkDimensions(db, project, request.body);
      const now = Date.now();
      const plot = await inTransaction(db, async (trx) => {
        if ((await countPlots(trx, project.uuid)) >= MAX_PLOTS) {
          throw new HttpError(400, 'bad_request', `A project can have at most ${MAX_PLOTS} plots.`);
        }
        const row = { ...PLOT_DEFAULTS, ...changesOf(request.body) } as PlotColumns;
        return insertPlot(
          trx,
          { ...row, uuid: randomUUID(), project_uuid: project.uuid, created: now, modified: now },
          request.body.index ?? undefined,
        );
      });
      return reply.code(201).send(jsonPlot(plot));
    },
  );

  app.get<{ Params: PlotParams }>(item, { schema: { params: pathParams('project', 'plot') } }, async (request) =>
    jsonPlot((await plotFor(request, 'view')).plot),
  );

  app.patch<{ Params: PlotParams; Body: PlotBody }>(
    item,
    { schema: { params: pathParams('project', 'plot'), body: plotPatch } },
    async (request) => {
      const { project, plot } = await plotFor(request, 'edit');
      await checkDimensions(db, project, request.body);
      await updatePlot(db, plot, changesOf(request.body), request.body.index ?? undefined);
      return jsonPlot((await findPlot(db, project.uuid, plot.uuid)) as Plot);
    },
  );

  app.delete<{ Params: PlotParams }>(
    item,
    { schema: { params: pathParams('project', 'plot') } },
    async (request, reply) => {
      await deletePlot(db, (await plotFor(request, 'delete')).plot);
      return reply.code(204).send();
    },
  );
}
