import { HttpError } from '@atrium/core';
import type { Kysely } from 'kysely';
import type { DimensionColumns } from './schema.js';
import type { Db } from './types.js';

export const DAY_MS = 24 * 3600 * 1000;

/** What may be created at most `limit` times per project (projects: per organisation) per rolling day. */
export type LimitedResource = 'branch' | 'testbed' | 'benchmark' | 'measure' | 'threshold' | 'report';

const tooMany = (what: string, limit: number) =>
  new HttpError(429, 'too_many_requests', `Daily limit of ${limit} ${what} reached; try again later.`);

/** 429 when `count` more would exceed the daily limit of the resource in this project. */
export async function checkResourceLimit(
  db: Db,
  resource: LimitedResource,
  projectUuid: string,
  limit: number,
  now = Date.now(),
): Promise<void> {
  const view = db as unknown as Kysely<{ resource: Pick<DimensionColumns, 'project_uuid' | 'created'> }>;
  const row = await view
    .selectFrom(resource as 'resource')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_uuid', '=', projectUuid)
    .where('created', '>=', now - DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= limit) throw tooMany(`${resource} creations`, limit);
}

export async function checkProjectLimit(db: Db, organizationUuid: string, limit: number, now = Date.now()) {
  const row = await db
    .selectFrom('project')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_uuid', '=', organizationUuid)
    .where('created', '>=', now - DAY_MS)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= limit) throw tooMany('project creations', limit);
}

const HOUR_MS = 3_600_000;

/**
 * 429 when one more report, or `adding` more metrics, would take the project over its daily limits.
 * The day is counted in whole hours: this hour and the 24 before it (at most 25 hours), from
 * `report_usage`'s counters, so the check reads at most 25 rows however many reports the day holds.
 * Deleting a report does not give its creation back.
 */
export async function checkReportLimits(
  db: Db,
  projectUuid: string,
  adding: number,
  limits: { reportsPerDay: number; metricsPerDay: number },
  now = Date.now(),
) {
  const row = await db
    .selectFrom('report_usage')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('reports'), eb.lit(0)).as('reports'),
      eb.fn.coalesce(eb.fn.sum<number>('metrics'), eb.lit(0)).as('metrics'),
    ])
    .where('project_uuid', '=', projectUuid)
    .where('hour', '>=', Math.floor((now - DAY_MS) / HOUR_MS))
    .executeTakeFirstOrThrow();
  if (Number(row.reports) >= limits.reportsPerDay) throw tooMany('report creations', limits.reportsPerDay);
  if (Number(row.metrics) + adding > limits.metricsPerDay) throw tooMany('metrics', limits.metricsPerDay);
}

/**
 * The upsert that counts a stored report and its metrics in its hour. Run last in the report's transaction:
 * on PostgreSQL the counter row stays locked to other reports of the project only until the commit that follows.
 */
export function reportUsageUpsert(db: Db, projectUuid: string, metrics: number, now: number) {
  return db
    .insertInto('report_usage')
    .values({ project_uuid: projectUuid, hour: Math.floor(now / HOUR_MS), reports: 1, metrics })
    .onConflict((conflict) =>
      conflict.columns(['project_uuid', 'hour']).doUpdateSet((eb) => ({
        reports: eb('report_usage.reports', '+', 1),
        metrics: eb('report_usage.metrics', '+', eb.ref('excluded.metrics')),
      })),
    );
}

/**
 * Counts one project created on the fly by an anonymous run from `address`: 429 past the daily limit,
 * 401 when the limit is 0 (anonymous creation disabled). Rows older than a day are dropped on the way.
 */
export async function countAnonymousCreation(db: Db, address: string, limit: number, now = Date.now()) {
  if (limit === 0) {
    throw new HttpError(401, 'unauthorized', 'This server does not create projects for anonymous runs; sign in.');
  }
  await db
    .deleteFrom('anonymous_creation')
    .where('created', '<', now - DAY_MS)
    .execute();
  const row = await db
    .selectFrom('anonymous_creation')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('address', '=', address)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= limit) throw tooMany('anonymous project creations from this address', limit);
  await db.insertInto('anonymous_creation').values({ address, created: now }).execute();
}
