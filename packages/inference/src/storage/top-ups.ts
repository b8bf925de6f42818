import type { Kysely } from 'kysely';
import type { InferenceDatabase } from './schema.js';

export async function insertTopUp(
  db: Kysely<InferenceDatabase>,
  resourceId: string,
  microCredits: number,
  operatorId: string | null,
  now: number,
) {
  await db
    .insertInto('credit_top_up')
    .values({ resource_id: resourceId, credits: microCredits, operator_id: operatorId, created: now })
    .execute();
}

/** The latest top-ups with their project and operator (null: the CLI, or an account since deleted). */
export const recentTopUps = (db: Kysely<InferenceDatabase>, limit: number) =>
  db
    .selectFrom('credit_top_up')
    .innerJoin('inference_resource', 'inference_resource.id', 'credit_top_up.resource_id')
    .innerJoin('project', 'project.id', 'inference_resource.project_id')
    .leftJoin('account', 'account.id', 'credit_top_up.operator_id')
    .select([
      'credit_top_up.id',
      'project.name as project_name',
      'credit_top_up.credits',
      'account.email as operator_email',
      'credit_top_up.created',
    ])
    .orderBy('credit_top_up.created', 'desc')
    .orderBy('credit_top_up.id', 'desc')
    .limit(limit)
    .execute();

export type TopUpRow = Awaited<ReturnType<typeof recentTopUps>>[number];
