import type { FastifyInstance } from 'fastify';
import { metricDetails } from '../storage/metric-details.js';
import { ViewLoader } from '../views/loader.js';
import { jsonBoundary, jsonMetric, jsonThresholdModel } from '../wire/json.js';
import { isUuid } from '../wire/slug.js';
import { toDateTime } from '../wire/time.js';
import { projectFor } from './access.js';
import type { BenchContext } from './context.js';
import { notFound } from './problems.js';
import { pathParams } from './schemas.js';

export function registerMetricRoutes(app: FastifyInstance, context: BenchContext): void {
  const { db } = context.database;

  app.get<{ Params: { project: string; metric: string } }>(
    '/v0/projects/:project/metrics/:metric',
    { schema: { params: pathParams('project', 'metric') } },
    async (request) => {
      const { project } = await projectFor(context, request, request.params.project, 'view');
      const id = request.params.metric;
      const [detail] = isUuid(id) ? await metricDetails(db, 'metric', [id.toLowerCase()]) : [];
      const report = detail
        ? await db
            .selectFrom('report')
            .selectAll()
            .where('uuid', '=', detail.report_uuid)
            .where('project_uuid', '=', project.uuid)
            .executeTakeFirst()
        : undefined;
      if (!detail || !report) throw notFound('Metric', id);
      const loader = new ViewLoader(db, project);
      const head = await loader.head(report.head_uuid);
      const threshold = detail.threshold_uuid ? await loader.thresholdRow(detail.threshold_uuid) : undefined;
      const [branch, testbed, benchmark, measure, model] = await Promise.all([
        loader.branch(head.branch_uuid, report.head_uuid, report.version_uuid),
        loader.testbed(report.testbed_uuid),
        loader.benchmark(detail.benchmark_uuid),
        loader.measure(detail.measure_uuid),
        loader.model(detail.model_uuid),
      ]);
      return {
        uuid: detail.metric_uuid,
        report: report.uuid,
        iteration: detail.iteration,
        start_time: toDateTime(report.start_time),
        end_time: toDateTime(report.end_time),
        branch,
        testbed,
        benchmark,
        measure,
        metric: jsonMetric({ ...detail, uuid: detail.metric_uuid }),
        threshold: threshold ? jsonThresholdModel(threshold, model) : null,
        boundary: threshold ? jsonBoundary(detail) : null,
        alert: detail.alert_uuid
          ? {
              uuid: detail.alert_uuid,
              limit: detail.boundary_limit,
              status: detail.status,
              modified: toDateTime(detail.alert_modified as number),
            }
          : null,
      };
    },
  );
}
