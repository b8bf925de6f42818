import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Model, sameModel } from '../boundary/model.js';
import type { Page } from '../wire/pagination.js';
import { archivedFilter, type Listed, paged } from './list-query.js';
import type { Db, ModelRow, Threshold } from './types.js';

export const modelOfRow = (row: ModelRow): Model => ({
  test: row.test as Model['test'],
  min_sample_size: row.min_sample_size,
  max_sample_size: row.max_sample_size,
  window: row.window,
  lower_boundary: row.lower_boundary,
  upper_boundary: row.upper_boundary,
});

export const findThreshold = (db: Db, projectUuid: string, uuid: string): Promise<Threshold | undefined> =>
  db
    .selectFrom('threshold')
    .selectAll()
    .where('project_uuid', '=', projectUuid)
    .where('uuid', '=', uuid)
    .executeTakeFirst();

export const findThresholdFor = (
  db: Db,
  branchUuid: string,
  testbedUuid: string,
  measureUuid: string,
): Promise<Threshold | undefined> =>
  db
    .selectFrom('threshold')
    .selectAll()
    .where('branch_uuid', '=', branchUuid)
    .where('testbed_uuid', '=', testbedUuid)
    .where('measure_uuid', '=', measureUuid)
    .executeTakeFirst();

export async function findModels(db: Db, uuids: readonly (string | null)[]): Promise<Map<string, ModelRow>> {
  const wanted = [...new Set(uuids.filter((uuid): uuid is string => uuid !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('model').selectAll().where('uuid', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.uuid, row]));
}

export async function insertThreshold(
  db: Db,
  input: { projectUuid: string; branchUuid: string; testbedUuid: string; measureUuid: string; model: Model | null },
  now = Date.now(),
): Promise<Threshold> {
  const threshold: Threshold = {
    uuid: randomUUID(),
    project_uuid: input.projectUuid,
    branch_uuid: input.branchUuid,
    testbed_uuid: input.testbedUuid,
    measure_uuid: input.measureUuid,
    model_uuid: null,
    created: now,
    modified: now,
  };
  await db.insertInto('threshold').values(threshold).execute();
  if (input.model) threshold.model_uuid = await replaceModel(db, threshold, input.model, now);
  return threshold;
}

/**
 * Points the threshold at a new model (the old one is marked replaced, kept for history), or at no
 * model when `model` is null. No-op when the current model is equal. Returns the current model uuid.
 */
export async function replaceModel(db: Db, threshold: Threshold, model: Model | null, now = Date.now()) {
  const current = threshold.model_uuid
    ? (await findModels(db, [threshold.model_uuid])).get(threshold.model_uuid)
    : undefined;
  if (current && model && sameModel(modelOfRow(current), model)) return current.uuid;
  if (!current && !model) return null;
  if (current) await db.updateTable('model').set({ replaced: now }).where('uuid', '=', current.uuid).execute();
  let modelUuid: string | null = null;
  if (model) {
    modelUuid = randomUUID();
    await db
      .insertInto('model')
      .values({ uuid: modelUuid, threshold_uuid: threshold.uuid, ...model, created: now, replaced: null })
      .execute();
  }
  await db
    .updateTable('threshold')
    .set({ model_uuid: modelUuid, modified: now })
    .where('uuid', '=', threshold.uuid)
    .execute();
  threshold.model_uuid = modelUuid;
  threshold.modified = now;
  return modelUuid;
}

/** Bencher's clone (§6.2): the target branch's thresholds take the start branch's models; orphans lose theirs. */
export async function cloneThresholds(
  db: Db,
  projectUuid: string,
  fromBranch: string,
  toBranch: string,
  now = Date.now(),
) {
  const [source, target] = await Promise.all([
    db.selectFrom('threshold').selectAll().where('branch_uuid', '=', fromBranch).execute(),
    db.selectFrom('threshold').selectAll().where('branch_uuid', '=', toBranch).execute(),
  ]);
  const models = await findModels(
    db,
    source.map((row) => row.model_uuid),
  );
  const key = (row: Threshold) => `${row.testbed_uuid}/${row.measure_uuid}`;
  const targets = new Map(target.map((row) => [key(row), row]));
  for (const row of source) {
    const modelRow = row.model_uuid ? models.get(row.model_uuid) : undefined;
    const model = modelRow ? modelOfRow(modelRow) : null;
    const existing = targets.get(key(row));
    targets.delete(key(row));
    if (existing) await replaceModel(db, existing, model, now);
    else if (model) {
      await insertThreshold(
        db,
        { projectUuid, branchUuid: toBranch, testbedUuid: row.testbed_uuid, measureUuid: row.measure_uuid, model },
        now,
      );
    }
  }
  for (const orphan of targets.values()) await replaceModel(db, orphan, null, now);
}

export interface ThresholdFilter {
  projectUuid: string;
  archived: boolean;
  branch?: string | undefined;
  testbed?: string | undefined;
  measure?: string | undefined;
}

export async function listThresholds(
  db: Db,
  filter: ThresholdFilter,
  sort: 'created' | 'modified',
  page: Page,
): Promise<Listed<Threshold>> {
  let query = db
    .selectFrom('threshold')
    .innerJoin('branch', 'branch.uuid', 'threshold.branch_uuid')
    .innerJoin('testbed', 'testbed.uuid', 'threshold.testbed_uuid')
    .innerJoin('measure', 'measure.uuid', 'threshold.measure_uuid')
    .where('threshold.project_uuid', '=', filter.projectUuid);
  query = query.where(archivedFilter(['branch', 'testbed', 'measure'], filter.archived));
  if (filter.branch !== undefined) query = query.where('branch.name', '=', filter.branch);
  if (filter.testbed !== undefined) query = query.where('testbed.name', '=', filter.testbed);
  if (filter.measure !== undefined) query = query.where('measure.name', '=', filter.measure);
  const direction = page.direction ?? (sort === 'created' ? 'asc' : 'desc');
  return paged(
    query,
    (q) => q.selectAll('threshold').orderBy(`threshold.${sort}`, direction).orderBy('threshold.uuid'),
    page,
  );
}

/** The threshold's models, newest first: the current one (if any) and every one it replaced. */
export function listModels(db: Db, thresholdUuid: string, page: Page): Promise<Listed<ModelRow>> {
  const direction = page.direction ?? 'desc';
  // Two models made in the same millisecond: the one replaced later (or never) is the newer.
  const replaced = sql`coalesce(${sql.ref('replaced')}, ${Number.MAX_SAFE_INTEGER})`;
  return paged(
    db.selectFrom('model').where('threshold_uuid', '=', thresholdUuid),
    (q) => q.selectAll().orderBy('created', direction).orderBy(replaced, direction).orderBy('uuid'),
    page,
  );
}

export async function deleteThreshold(db: Db, uuid: string): Promise<void> {
  await db.updateTable('threshold').set({ model_uuid: null }).where('uuid', '=', uuid).execute();
  await db.deleteFrom('model').where('threshold_uuid', '=', uuid).execute();
  await db.deleteFrom('threshold').where('uuid', '=', uuid).execute();
}
