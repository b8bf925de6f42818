import { type Kysely, sql } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/** Every key (of one project, or all), with its project's name: the operator's key list. Never the secret. */
export function keysWithProjects(db: Kysely<InferenceDatabase>, projectId?: string) {
  let query = db
    .selectFrom('api_key')
    .innerJoin('project', 'project.id', 'api_key.project_id')
    .leftJoin('account', 'account.id', 'api_key.created_by')
    .select([
      'api_key.id',
      'project.name as project',
      'api_key.alias',
      'api_key.secret_hint',
      'api_key.budget_tokens',
      'api_key.reset_period',
      'api_key.allowed_models',
      'api_key.period_used',
      'api_key.created',
      'api_key.last_used',
      'api_key.revoked',
      'api_key.expires',
      'api_key.requests_per_minute',
      'api_key.tokens_per_minute',
      'api_key.rotated',
      'account.email as created_by',
    ])
    .orderBy('project.name')
    .orderBy('api_key.created');
  if (projectId !== undefined) query = query.where('api_key.project_id', '=', projectId);
  return query.execute();
}

/** Every project with its member count, its latest grant end and whether it has a resource. */
export const projectsOverview = (db: Kysely<InferenceDatabase>) =>
  db
    .selectFrom('project')
    .leftJoin('inference_resource', 'inference_resource.project_id', 'project.id')
    .select((eb) => [
      'project.id',
      'project.name',
      'project.organisation',
      'project.created',
      'inference_resource.id as resource_id',
      eb
        .selectFrom('project_member')
        .whereRef('project_member.project_id', '=', 'project.id')
        .select((m) => m.fn.countAll<number>().as('n'))
        .as('members'),
      eb
        .selectFrom('project_grant')
        .whereRef('project_grant.project_id', '=', 'project.id')
        .select((g) => g.fn.max('project_grant.ends').as('ends'))
        .as('grant_ends'),
    ])
    .orderBy('project.name')
    .execute();

/** What usage is summed by. */
export const USAGE_GROUPS = ['key', 'project', 'model', 'day'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageFilter {
  projectId?: string | undefined;
  keyId?: string | undefined;
  model?: string | undefined;
  /** Unix ms, inclusive; hours starting in [from, to). */
  from: number;
  to: number;
}

const DAY_MS = 86_400_000;

/** Usage summed per key, project, model or day over a time range, optionally of one project, key or model. */
export async function usageReport(db: Kysely<InferenceDatabase>, filter: UsageFilter, by: UsageGroup) {
  const group = {
    key: sql<string>`project.name || '/' || api_key.alias`,
    project: sql<string>`project.name`,
    model: sql<string>`usage_hourly.model`,
    day: sql<string>`cast(usage_hourly.hour - usage_hourly.hour % ${sql.lit(DAY_MS)} as text)`,
  }[by];
  let query = db
    .selectFrom('usage_hourly')
    .innerJoin('api_key', 'api_key.id', 'usage_hourly.key_id')
    .innerJoin('project', 'project.id', 'api_key.project_id')
    .select((eb) => [
      group.as('group'),
      eb.fn.sum<number>('usage_hourly.requests').as('requests'),
      eb.fn.sum<number>('usage_hourly.prompt_tokens').as('prompt_tokens'),
      eb.fn.sum<number>('usage_hourly.completion_tokens').as('completion_tokens'),
      eb.fn.sum<number>('usage_hourly.credits').as('credits'),
    ])
    .where('usage_hourly.hour', '>=', filter.from)
    .where('usage_hourly.hour', '<', filter.to)
    .groupBy(group)
    .orderBy(group);
  if (filter.projectId !== undefined) query = query.where('api_key.project_id', '=', filter.projectId);
  if (filter.keyId !== undefined) query = query.where('api_key.id', '=', filter.keyId);
  if (filter.model !== undefined) query = query.where('usage_hourly.model', '=', filter.model);
  // PostgreSQL sums bigints as numeric, which pg returns as text.
  return (await query.execute()).map((r) => ({
    group: by === 'day' ? new Date(Number(r.group)).toISOString().slice(0, 10) : r.group,
    requests: Number(r.requests),
    prompt_tokens: Number(r.prompt_tokens),
    completion_tokens: Number(r.completion_tokens),
    credits: Number(r.credits),
  }));
}
