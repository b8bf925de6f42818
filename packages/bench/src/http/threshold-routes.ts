import { HttpError } from '@atrium/core';
import type { FastifyInstance } from 'fastify';
import { toModel } from '../domain/model-input.js';
import type { ModelInput } from '../domain/new-report.js';
import { findDimension } from '../storage/dimensions.js';
import { checkResourceLimit } from '../storage/rate-limits.js';
import type { DimensionTableName } from '../storage/schema.js';
import {
  deleteThreshold,
  findThreshold,
  findThresholdFor,
  insertThreshold,
  listModels,
  listThresholds,
  replaceModel,
} from '../storage/thresholds.js';
import { type Db, inTransaction, type Project, type Threshold } from '../storage/types.js';
import { ViewLoader } from '../views/loader.js';
import { jsonModel } from '../wire/json.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { isUuid, parseNameId } from '../wire/slug.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { conflictOnConstraint, notFound } from './problems.js';
import {
  archivedFilter,
  filterQuery,
  modelFields,
  modelTest,
  nameId,
  nameIdFilter,
  nullable,
  pathParams,
} from './schemas.js';

const newThreshold = {
  type: 'object',
  additionalProperties: false,
  required: ['branch', 'testbed', 'measure', 'test'],
  properties: { branch: nameId, testbed: nameId, measure: nameId, ...modelFields },
};
const updateThreshold = {
  type: 'object',
  additionalProperties: false,
  required: ['test'],
  properties: { ...modelFields, test: nullable(modelTest) },
};

type NewThresholdBody = ModelInput & { branch: string; testbed: string; measure: string };
type ThresholdParams = { project: string; threshold: string };
type ThresholdListQuery = PaginationQuery & {
  sort?: 'created' | 'modified';
  branch?: string;
  testbed?: string;
  measure?: string;
  archived?: boolean;
};

async function existing(db: Db, table: DimensionTableName, project: Project, id: string) {
  const row = await findDimension(db, table, project.uuid, parseNameId(id));
  if (!row) throw notFound(table[0]?.toUpperCase() + table.slice(1), id);
  return row;
}

export function registerThresholdRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  async function thresholdFor(dbx: Db, project: Project, id: string): Promise<Threshold> {
    const threshold = isUuid(id) ? await findThreshold(dbx, project.uuid, id.toLowerCase()) : undefined;
    if (!threshold) throw notFound('Threshold', id);
    return threshold;
  }

  app.get<{ Params: { project: string }; Querystring: ThresholdListQuery }>(
    '/v0/projects/:project/thresholds',
    {
      schema: {
        params: pathParams('project'),
        querystring: filterQuery(['created', 'modified'], {
          branch: nameIdFilter,
          testbed: nameIdFilter,
          measure: nameIdFilter,
          archived: archivedFilter,
        }),
      },
    },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const { branch, testbed, measure, archived, sort } = request.query;
      const listed = await listThresholds(
        db,
        { projectUuid: project.uuid, archived: archived === true, branch, testbed, measure },
        sort ?? 'created',
        pageOf(request.query),
      );
      const loader = new ViewLoader(db, project);
      await loader.preloadThresholds(listed.rows);
      return sendList(reply, await Promise.all(listed.rows.map((row) => loader.threshold(row))), listed.total);
    },
  );

  app.post<{ Params: { project: string }; Body: NewThresholdBody }>(
    '/v0/projects/:project/thresholds',
    { schema: { params: pathParams('project'), body: newThreshold } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'create');
      const body = request.body;
      const model = toModel(body, body.measure);
      const threshold = await inTransaction(db, async (trx) => {
        await checkResourceLimit(trx, 'threshold', project.uuid, context.config.plus.rateLimiting.resourcesPerDay);
        const [branch, testbed, measure] = await Promise.all([
          existing(trx, 'branch', project, body.branch),
          existing(trx, 'testbed', project, body.testbed),
          existing(trx, 'measure', project, body.measure),
        ]);
        if (await findThresholdFor(trx, branch.uuid, testbed.uuid, measure.uuid)) {
          throw new HttpError(409, 'conflict', 'A threshold for this branch, testbed and measure already exists');
        }
        return conflictOnConstraint(
          insertThreshold(trx, {
            projectUuid: project.uuid,
            branchUuid: branch.uuid,
            testbedUuid: testbed.uuid,
            measureUuid: measure.uuid,
            model,
          }),
          'Threshold',
        );
      });
      return reply.code(201).send(await new ViewLoader(db, project).threshold(threshold));
    },
  );

  app.get<{ Params: ThresholdParams; Querystring: { model?: string } }>(
    '/v0/projects/:project/thresholds/:threshold',
    {
      schema: {
        params: pathParams('project', 'threshold'),
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { model: { type: 'string', format: 'uuid' } },
        },
      },
    },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const threshold = await thresholdFor(db, project, request.params.threshold);
      const modelUuid = request.query.model;
      if (modelUuid !== undefined) {
        const model = await db
          .selectFrom('model')
          .select('uuid')
          .where('uuid', '=', modelUuid)
          .where('threshold_uuid', '=', threshold.uuid)
          .executeTakeFirst();
        if (!model) throw notFound('Model', modelUuid);
      }
      return new ViewLoader(db, project).threshold(threshold, modelUuid ?? threshold.model_uuid);
    },
  );

  // Atrium's addition to Bencher's API: the model history (Bencher shows an old model only by `?model=`).
  app.get<{ Params: ThresholdParams; Querystring: PaginationQuery }>(
    '/v0/projects/:project/thresholds/:threshold/models',
    { schema: { params: pathParams('project', 'threshold'), querystring: filterQuery(['created'], {}) } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const threshold = await thresholdFor(db, project, request.params.threshold);
      const listed = await listModels(db, threshold.uuid, pageOf(request.query));
      return sendList(reply, listed.rows.map(jsonModel), listed.total);
    },
  );

  app.put<{ Params: ThresholdParams; Body: Omit<ModelInput, 'test'> & { test: string | null } }>(
    '/v0/projects/:project/thresholds/:threshold',
    { schema: { params: pathParams('project', 'threshold'), body: updateThreshold } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'edit');
      const { test, ...fields } = request.body;
      const model = test === null ? null : toModel({ ...fields, test });
      const threshold = await inTransaction(db, async (trx) => {
        const current = await thresholdFor(trx, project, request.params.threshold);
        await replaceModel(trx, current, model);
        return current;
      });
      return new ViewLoader(db, project).threshold(threshold);
    },
  );

  app.delete<{ Params: ThresholdParams }>(
    '/v0/projects/:project/thresholds/:threshold',
    { schema: { params: pathParams('project', 'threshold') } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'delete', { userOnly: true });
      const threshold = await thresholdFor(db, project, request.params.threshold);
      await conflictOnConstraint(
        inTransaction(db, (trx) => deleteThreshold(trx, threshold.uuid)),
        'Threshold',
      );
      return reply.code(204).send();
    },
  );
}
