import type { Kysely } from 'kysely';
import type { InferenceDatabase } from './schema.js';

/** Records a node-hour rate for a cluster, in force from `effectiveFrom` until a later one. */
export async function setNodeHourRate(
  db: Kysely<InferenceDatabase>,
  cluster: string,
  creditsPerNodeHour: number,
  effectiveFrom = Date.now(),
) {
  await db
    .insertInto('node_hour_rate')
    .values({ cluster, effective_from: effectiveFrom, credits_per_node_hour: creditsPerNodeHour })
    .onConflict((oc) =>
      oc.columns(['cluster', 'effective_from']).doUpdateSet({ credits_per_node_hour: creditsPerNodeHour }),
    )
    .execute();
}

/** The rate in force on a cluster at a time; undefined when none had been set yet. */
export async function nodeHourRateAt(
  db: Kysely<InferenceDatabase>,
  cluster: string,
  at: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('node_hour_rate')
    .select('credits_per_node_hour')
    .where('cluster', '=', cluster)
    .where('effective_from', '<=', at)
    .orderBy('effective_from', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.credits_per_node_hour;
}

export const nodeHourRates = (db: Kysely<InferenceDatabase>) =>
  db.selectFrom('node_hour_rate').selectAll().orderBy('cluster').orderBy('effective_from', 'desc').execute();
