import type { FastifyInstance } from 'fastify';
import { type IngestedReport, ingestReport, UNIQUE_VIOLATION } from '../domain/ingest-report.js';
import type { NewReport } from '../domain/new-report.js';
import { type MetricDetail, metricDetails } from '../storage/metric-details.js';
import { deleteReport, findReport, findReportByIdempotencyKey, listReports } from '../storage/reports.js';
import { UnknownDimensionError } from '../storage/resolve-dimensions.js';
import type { Db, Project, User } from '../storage/types.js';
import { ViewLoader } from '../views/loader.js';
import { type ReportRow, reportJson } from '../views/report-view.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { isUuid, parseNameId } from '../wire/slug.js';
import { actorUser, projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { notFound } from './problems.js';
import { archivedFilter, filterQuery, nameIdFilter, newReportProperties, nullable, pathParams } from './schemas.js';

const newReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['branch', 'testbed', 'start_time', 'end_time', 'results'],
  properties: { ...newReportProperties, idempotency_key: nullable({ type: 'string', format: 'uuid' }) },
};

type ReportListQuery = PaginationQuery & {
  branch?: string;
  testbed?: string;
  start_time?: number;
  end_time?: number;
  archived?: boolean;
  expand?: boolean;
};

/**
 * Loads and renders reports with all their metrics in one query (unless their `known` details are given), and
 * one query per table they show.
 */
export async function renderReports(
  db: Db,
  project: Project,
  reports: ReportRow[],
  expand: boolean,
  loader = new ViewLoader(db, project),
  known?: MetricDetail[],
) {
  const [details] = await Promise.all([
    known ??
      metricDetails(
        db,
        'report',
        reports.map((report) => report.uuid),
      ),
    loader.preloadReports(reports),
  ]);
  if (expand) await loader.preloadDetails(details);
  const byReport = new Map<string, typeof details>();
  for (const detail of details) {
    const list = byReport.get(detail.report_uuid);
    if (list) list.push(detail);
    else byReport.set(detail.report_uuid, [detail]);
  }
  return Promise.all(reports.map((report) => reportJson(loader, report, byReport.get(report.uuid) ?? [], expand)));
}

/** Ingests and answers 201 with the full report. */
export async function createReport(
  context: BenchContext,
  project: Project,
  user: User | null,
  report: NewReport,
  idempotencyKey?: string,
): Promise<unknown> {
  const { db } = context.database;
  const earlier = idempotencyKey ? await findReportByIdempotencyKey(db, project.uuid, idempotencyKey) : undefined;
  if (earlier) return (await renderReports(db, project, [earlier], true))[0];
  let created: IngestedReport;
  try {
    const limits = context.config.plus.rateLimiting;
    created = await ingestReport(db, {
      project,
      userUuid: user?.uuid ?? null,
      report,
      idempotencyKey,
      limits: { reportsPerDay: limits.resourcesPerDay, metricsPerDay: limits.metricsPerDay },
    });
  } catch (error) {
    if (error instanceof UnknownDimensionError) throw notFound(error.table, error.uuid);
    // A concurrent request with the same key stored its report first: answer that one.
    const racing =
      idempotencyKey && UNIQUE_VIOLATION.has((error as { code?: string }).code ?? '')
        ? await findReportByIdempotencyKey(db, project.uuid, idempotencyKey)
        : undefined;
    if (racing) return (await renderReports(db, project, [racing], true))[0];
    throw error;
  }
  const loader = new ViewLoader(db, project);
  if (user) loader.remember('user', user);
  loader.remember('version', created.version);
  loader.remember('head', created.head);
  for (const { table, row } of created.shown) loader.remember(table, row);
  const [json] = await renderReports(db, project, [created.report], true, loader, created.details);
  return json;
}

export function registerReportRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.post<{ Params: { project: string }; Body: NewReport & { idempotency_key?: string | null } }>(
    '/v0/projects/:project/reports',
    { schema: { params: pathParams('project'), body: newReportSchema } },
    async (request, reply) => {
      const { project, actor } = await projectFor(context, request, request.params.project, 'create');
      const { idempotency_key: key, ...report } = request.body;
      const json = await createReport(context, project, actorUser(actor), report, key?.toLowerCase() ?? undefined);
      return reply.code(201).send(json);
    },
  );

  app.get<{ Params: { project: string }; Querystring: ReportListQuery }>(
    '/v0/projects/:project/reports',
    {
      schema: {
        params: pathParams('project'),
        querystring: filterQuery(['date_time'], {
          branch: nameIdFilter,
          testbed: nameIdFilter,
          start_time: { type: 'integer' },
          end_time: { type: 'integer' },
          archived: archivedFilter,
          expand: { type: 'boolean' },
        }),
      },
    },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const query = request.query;
      const listed = await listReports(
        db,
        {
          projectUuid: project.uuid,
          archived: query.archived === true,
          branch: query.branch === undefined ? undefined : parseNameId(query.branch),
          testbed: query.testbed === undefined ? undefined : parseNameId(query.testbed),
          startTime: query.start_time,
          endTime: query.end_time,
        },
        pageOf(query),
      );
      return sendList(reply, await renderReports(db, project, listed.rows, query.expand === true), listed.total);
    },
  );

  app.get<{ Params: { project: string; report: string } }>(
    '/v0/projects/:project/reports/:report',
    { schema: { params: pathParams('project', 'report') } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const id = request.params.report;
      const report = isUuid(id) ? await findReport(db, project.uuid, id.toLowerCase()) : undefined;
      if (!report) throw notFound('Report', id);
      const [json] = await renderReports(db, project, [report], true);
      return json;
    },
  );

  app.delete<{ Params: { project: string; report: string } }>(
    '/v0/projects/:project/reports/:report',
    { schema: { params: pathParams('project', 'report') } },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'delete', { userOnly: true });
      const id = request.params.report;
      const report = isUuid(id) ? await findReport(db, project.uuid, id.toLowerCase()) : undefined;
      if (!report) throw notFound('Report', id);
      await db.transaction().execute((trx) => deleteReport(trx, report));
      return reply.code(204).send();
    },
  );
}
