import type { FastifyInstance } from 'fastify';
import { type AlertStatus, dismissAllAlerts, findAlert, listAlerts, setAlertStatus } from '../storage/alerts.js';
import { metricDetails } from '../storage/metric-details.js';
import type { Db, Project } from '../storage/types.js';
import { ViewLoader } from '../views/loader.js';
import { alertJson } from '../views/report-view.js';
import { type PaginationQuery, pageOf } from '../wire/pagination.js';
import { isUuid } from '../wire/slug.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { sendList } from './list-reply.js';
import { notFound } from './problems.js';
import { archivedFilter, filterQuery, pathParams } from './schemas.js';

type AlertParams = { project: string; alert: string };
type AlertListQuery = PaginationQuery & { sort?: 'created' | 'modified'; archived?: boolean; status?: AlertStatus };

/** Renders alerts (in the given order) with one detail query. */
async function renderAlerts(db: Db, project: Project, alerts: readonly { uuid: string; report_created: number }[]) {
  const details = await metricDetails(
    db,
    'alert',
    alerts.map((alert) => alert.uuid),
  );
  const byAlert = new Map(details.map((detail) => [detail.alert_uuid, detail]));
  const loader = new ViewLoader(db, project);
  await loader.preloadDetails(details);
  return Promise.all(
    alerts.map((alert) => alertJson(loader, byAlert.get(alert.uuid) as (typeof details)[number], alert.report_created)),
  );
}

export function registerAlertRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  async function alertFor(project: Project, id: string) {
    const alert = isUuid(id) ? await findAlert(db, project.uuid, id.toLowerCase()) : undefined;
    if (!alert) throw notFound('Alert', id);
    return alert;
  }

  app.get<{ Params: { project: string }; Querystring: AlertListQuery }>(
    '/v0/projects/:project/alerts',
    {
      schema: {
        params: pathParams('project'),
        querystring: filterQuery(['created', 'modified'], {
          archived: archivedFilter,
          status: { type: 'string', enum: ['active', 'dismissed', 'silenced'] },
        }),
      },
    },
    async (request, reply) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const { archived, status, sort } = request.query;
      const listed = await listAlerts(
        db,
        { projectUuid: project.uuid, archived: archived === true, status },
        sort ?? 'modified',
        pageOf(request.query),
      );
      return sendList(reply, await renderAlerts(db, project, listed.rows), listed.total);
    },
  );

  app.get<{ Params: AlertParams }>(
    '/v0/projects/:project/alerts/:alert',
    { schema: { params: pathParams('project', 'alert') } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const [json] = await renderAlerts(db, project, [await alertFor(project, request.params.alert)]);
      return json;
    },
  );

  app.patch<{ Params: AlertParams; Body: { status?: 'active' | 'dismissed' } }>(
    '/v0/projects/:project/alerts/:alert',
    {
      schema: {
        params: pathParams('project', 'alert'),
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { status: { type: 'string', enum: ['active', 'dismissed'] } },
        },
      },
    },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'edit');
      const alert = await alertFor(project, request.params.alert);
      if (request.body.status) await setAlertStatus(db, alert.uuid, request.body.status);
      const [json] = await renderAlerts(db, project, [alert]);
      return json;
    },
  );

  /** Atrium extension (the console's "dismiss all"): dismisses every active alert listed by default. */
  app.post<{ Params: { project: string } }>(
    '/v0/projects/:project/alerts/dismiss',
    { schema: { params: pathParams('project') } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'edit');
      return { dismissed: await db.transaction().execute((trx) => dismissAllAlerts(trx, project.uuid)) };
    },
  );
}
