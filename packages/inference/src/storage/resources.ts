import { randomUUID } from 'node:crypto';
import { HttpError } from '@atrium/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import { toMicro } from '../tenancy/pricing.js';
import { nodeHourRateAt } from './rates.js';
import type { InferenceDatabase, InferenceResourceTable } from './schema.js';

export type InferenceResource = Selectable<InferenceResourceTable>;

export const resourceOfProject = (db: Kysely<InferenceDatabase>, projectId: string) =>
  db.selectFrom('inference_resource').selectAll().where('project_id', '=', projectId).executeTakeFirst();

export const findResource = (db: Kysely<InferenceDatabase>, id: string) =>
  db.selectFrom('inference_resource').selectAll().where('id', '=', id).executeTakeFirst();

/** Creates the project's (only) inference resource with no credits. */
export async function insertResource(db: Kysely<InferenceDatabase>, projectId: string, now: number) {
  const resource: InferenceResource = {
    id: randomUUID(),
    project_id: projectId,
    credits_total: 0,
    credits_used: 0,
    requests_per_minute: null,
    tokens_per_minute: null,
    concurrent_requests: null,
    window_minute: 0,
    window_requests: 0,
    window_tokens: 0,
    created: now,
  };
  await db.insertInto('inference_resource').values(resource).execute();
  return resource;
}

/**
 * Takes node hours from the project's allocation on a cluster and adds them to the resource as credits at the
 * rate in force now. The deduction is conditional, so two conversions cannot overdraw the allocation.
 * Returns the micro-credits added. Run it inside a transaction.
 */
export async function convertNodeHours(
  trx: Kysely<InferenceDatabase>,
  resourceId: string,
  projectId: string,
  cluster: string,
  nodeHours: number,
  now: number,
): Promise<number> {
  const rate = await nodeHourRateAt(trx, cluster, now);
  if (rate === undefined) throw new HttpError(409, 'no_rate', `no node-hour rate is set for cluster '${cluster}'`);
  const deducted = await trx
    .updateTable('allocation')
    .set({ node_hours: sql`node_hours - ${nodeHours}` })
    .where('project_id', '=', projectId)
    .where('cluster', '=', cluster)
    .where('node_hours', '>=', nodeHours)
    .executeTakeFirst();
  if (deducted.numUpdatedRows === 0n) {
    throw new HttpError(
      409,
      'allocation_exceeded',
      `the project does not have ${nodeHours} node hours left on cluster '${cluster}'`,
    );
  }
  const credits = toMicro(nodeHours * rate);
  await addCredits(trx, resourceId, credits);
  return credits;
}

export async function addCredits(db: Kysely<InferenceDatabase>, resourceId: string, microCredits: number) {
  await db
    .updateTable('inference_resource')
    .set({ credits_total: sql`credits_total + ${microCredits}` })
    .where('id', '=', resourceId)
    .execute();
}

export interface ResourceLimits {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  concurrentRequests: number | null;
}

export async function setResourceLimits(db: Kysely<InferenceDatabase>, resourceId: string, limits: ResourceLimits) {
  await db
    .updateTable('inference_resource')
    .set({
      requests_per_minute: limits.requestsPerMinute,
      tokens_per_minute: limits.tokensPerMinute,
      concurrent_requests: limits.concurrentRequests,
    })
    .where('id', '=', resourceId)
    .execute();
}

/** Every inference resource with its project's name, by project name (the operator's resource list). */
export const resourcesWithProjects = (db: Kysely<InferenceDatabase>) =>
  db
    .selectFrom('inference_resource')
    .innerJoin('project', 'project.id', 'inference_resource.project_id')
    .selectAll('inference_resource')
    .select('project.name as project_name')
    .orderBy('project.name')
    .execute();

export type ResourceWithProject = Awaited<ReturnType<typeof resourcesWithProjects>>[number];
