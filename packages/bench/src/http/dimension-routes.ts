import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { createBranch, deleteBranch, type StartPointRequest, updateStartPoint } from '../storage/branches.js';
import {
  type DimensionChanges,
  deleteDimension,
  findDimension,
  insertDimension,
  listDimensions,
  updateDimension,
} from '../storage/dimensions.js';
import { checkResourceLimit } from '../storage/rate-limits.js';
import type { DimensionTableName } from '../storage/schema.js';
import { type Branch, type Db, type Dimension, inTransaction, type Measure, type Project } from '../storage/types.js';
import { ViewLoader } from '../views/loader.js';
import { jsonDimension, jsonMeasure, jsonTestbed } from '../wire/json.js';
import { branchNameProblem, MAX_BRANCH_NAME, resourceNameProblem } from '../wire/names.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { parseNameId, parseResourceId, slugForName } from '../wire/slug.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { badRequest, conflictOnConstraint, notFound } from './problems.js';
import { listQuery, pathParams, resourceName, slugField, startPointSchema } from './schemas.js';

interface DimensionKind {
  table: DimensionTableName;
  /** Path segment: `branches`, `testbeds`, … */
  plural: string;
  label: string;
  nameSchema: Record<string, unknown>;
  nameProblem: (name: string) => string | undefined;
  extraProperties?: Record<string, unknown>;
  required?: string[];
  toJson(loader: ViewLoader, row: Dimension): Promise<unknown> | unknown;
  /** Branches also take a start point on create and patch. */
  create?(db: Db, project: Project, body: NewDimension): Promise<Dimension>;
  afterUpdate?(db: Db, row: Dimension, body: DimensionPatch): Promise<void>;
}

type NewDimension = { name: string; slug?: string; units?: string; start_point?: StartPointRequest };
type DimensionPatch = DimensionChanges & { start_point?: StartPointRequest | null };

const KINDS: DimensionKind[] = [
  {
    table: 'branch',
    plural: 'branches',
    label: 'Branch',
    nameSchema: { type: 'string', minLength: 1, maxLength: MAX_BRANCH_NAME },
    nameProblem: branchNameProblem,
    extraProperties: { start_point: startPointSchema },
    toJson: (loader, row) => loader.branch(row as Branch),
    create: (db, project, body) =>
      createBranch(
        db,
        {
          projectUuid: project.uuid,
          name: body.name,
          slug: body.slug ?? slugForName(body.name),
          startPoint: body.start_point,
        },
        parseNameId,
      ),
    afterUpdate: async (db, row, body) => {
      if (body.start_point) await updateStartPoint(db, row as Branch, body.start_point, parseNameId);
    },
  },
  {
    table: 'testbed',
    plural: 'testbeds',
    label: 'Testbed',
    nameSchema: resourceName,
    nameProblem: (name) => resourceNameProblem(name),
    toJson: (_loader, row) => jsonTestbed(row),
  },
  {
    table: 'benchmark',
    plural: 'benchmarks',
    label: 'Benchmark',
    nameSchema: { type: 'string', minLength: 1, maxLength: 1024 },
    nameProblem: (name) => resourceNameProblem(name, 'name', 1024),
    toJson: (_loader, row) => jsonDimension(row),
  },
  {
    table: 'measure',
    plural: 'measures',
    label: 'Measure',
    nameSchema: resourceName,
    nameProblem: (name) => resourceNameProblem(name),
    extraProperties: { units: resourceName },
    required: ['units'],
    toJson: (_loader, row) => jsonMeasure(row as Measure),
  },
];

function registerKind(app: FastifyInstance, context: BenchContext, kind: DimensionKind): void {
  const { db } = context.database;
  const collection = `/v0/projects/:project/${kind.plural}`;
  const item = `${collection}/:${kind.table}`;
  const params = pathParams('project', kind.table);
  const createBody = {
    type: 'object',
    additionalProperties: false,
    required: ['name', ...(kind.required ?? [])],
    properties: { name: kind.nameSchema, slug: slugField, ...kind.extraProperties },
  };
  const patchBody = {
    type: 'object',
    additionalProperties: false,
    properties: { name: kind.nameSchema, slug: slugField, archived: { type: 'boolean' }, ...kind.extraProperties },
  };
  type ItemParams = { project: string } & Record<string, string>;

  async function rowFor(dbx: Db, project: Project, id: string): Promise<Dimension> {
    const row = await findDimension(dbx, kind.table, project.uuid, parseResourceId(id));
    if (!row) throw notFound(kind.label, id);
    return row;
  }

  app.get<{
    Params: { project: string };
    Querystring: PaginationQuery & { name?: string; search?: string; archived?: boolean };
  }>(
    collection,
    { schema: { params: pathParams('project'), querystring: listQuery(['name'], { archived: { type: 'boolean' } }) } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const { name, search, archived } = request.query;
      const listed = await listDimensions(
        db,
        kind.table,
        { projectUuid: project.uuid, archived: archived === true, name, search },
        pageOf(request.query),
      );
      const loader = new ViewLoader(db, project);
      return sendList(reply, await Promise.all(listed.rows.map((row) => kind.toJson(loader, row))), listed.total);
    },
  );

  app.post<{ Params: { project: string }; Body: NewDimension }>(
    collection,
    { schema: { params: pathParams('project'), body: createBody } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'create');
      const body = request.body;
      const problem = kind.nameProblem(body.name);
      if (problem) throw badRequest(problem, 'body.name');
      const row = await inTransaction(db, async (trx) => {
        await checkResourceLimit(trx, kind.table, project.uuid, context.config.plus.rateLimiting.resourcesPerDay);
        if (await findDimension(trx, kind.table, project.uuid, { column: 'name', value: body.name })) {
          throw new HttpError(409, 'conflict', `${kind.label} (${body.name.slice(0, 300)}) already exists`);
        }
        if (kind.create) return kind.create(trx, project, body);
        const slug = body.slug ?? slugForName(body.name);
        const extra = body.units === undefined ? undefined : { units: body.units };
        return conflictOnConstraint(
          insertDimension(trx, kind.table, { projectUuid: project.uuid, name: body.name, slug, extra }),
          kind.label,
        );
      });
      return reply.code(201).send(await kind.toJson(new ViewLoader(db, project), row));
    },
  );

  app.get<{ Params: ItemParams; Querystring: { head?: string } }>(
    item,
    {
      schema: {
        params,
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: kind.table === 'branch' ? { head: { type: 'string', format: 'uuid' } } : {},
        },
      },
    },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const row = await rowFor(db, project, request.params[kind.table] as string);
      const loader = new ViewLoader(db, project);
      const head = request.query.head;
      if (head === undefined) return kind.toJson(loader, row);
      const headRow = await db.selectFrom('head').selectAll().where('uuid', '=', head).executeTakeFirst();
      if (headRow?.branch_uuid !== row.uuid) throw notFound('Head', head);
      return loader.branch(row as Branch, head);
    },
  );

  app.patch<{ Params: ItemParams; Body: DimensionPatch }>(
    item,
    { schema: { params, body: patchBody } },
    async (request) => {
      const { project, actor } = await projectFor(context, request, request.params.project, 'edit');
      const body = request.body;
      if (actor.kind === 'project_key' && (body.name !== undefined || body.slug !== undefined)) {
        throw new HttpError(403, 'forbidden', `Project keys cannot rename a ${kind.table}.`);
      }
      const problem = body.name === undefined ? undefined : kind.nameProblem(body.name);
      if (problem) throw badRequest(problem, 'body.name');
      const row = await inTransaction(db, async (trx) => {
        const current = await rowFor(trx, project, request.params[kind.table] as string);
        const { start_point: _startPoint, ...changes } = body;
        await conflictOnConstraint(updateDimension(trx, kind.table, current.uuid, changes), kind.label);
        await kind.afterUpdate?.(trx, current, body);
        return (await findDimension(trx, kind.table, project.uuid, {
          column: 'uuid',
          value: current.uuid,
        })) as Dimension;
      });
      return kind.toJson(new ViewLoader(db, project), row);
    },
  );

  app.delete<{ Params: ItemParams }>(item, { schema: { params } }, async (request, reply) => {
    const { project } = await projectFor(context, request, request.params.project, 'delete', { userOnly: true });
    const row = await rowFor(db, project, request.params[kind.table] as string);
    await conflictOnConstraint(
      inTransaction(db, (trx) =>
        kind.table === 'branch' ? deleteBranch(trx, row as Branch) : deleteDimension(trx, kind.table, row.uuid),
      ),
      kind.label,
    );
    return reply.code(204).send();
  });
}

export function registerDimensionRoutes(app: FastifyInstance, context: BenchContext): void {
  for (const kind of KINDS) registerKind(app, context, kind);
}
