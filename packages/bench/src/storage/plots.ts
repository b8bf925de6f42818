import type { Page } from '../wire/pagination.js';
import { type Listed, paged, searchAny } from './list-query.js';
import type { PlotTable } from './schema.js';
import { type Db, inTransaction, type Plot } from './types.js';

/** Bencher's cap on the plots a project may pin at once. */
export const MAX_PLOTS = 64;

export type PlotChanges = Partial<Omit<PlotTable, 'uuid' | 'project_uuid' | 'rank' | 'created' | 'modified'>>;

export async function countPlots(db: Db, projectUuid: string): Promise<number> {
  const row = await db
    .selectFrom('plot')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_uuid', '=', projectUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Puts a plot at `index` (clamped to the end) among its project's plots, renumbering the others. */
async function moveTo(db: Db, projectUuid: string, uuid: string, index: number): Promise<void> {
  const order = (
    await db.selectFrom('plot').select('uuid').where('project_uuid', '=', projectUuid).orderBy('rank').execute()
  )
    .map((row) => row.uuid)
    .filter((other) => other !== uuid);
  order.splice(Math.min(index, order.length), 0, uuid);
  for (const [rank, each] of order.entries()) {
    await db.updateTable('plot').set({ rank }).where('uuid', '=', each).where('rank', '!=', rank).execute();
  }
}

/** Inserts a plot at `index` (default: last). */
export function insertPlot(db: Db, row: Omit<Plot, 'rank'>, index: number | undefined): Promise<Plot> {
  return inTransaction(db, async (trx) => {
    const rank = await countPlots(trx, row.project_uuid);
    await trx
      .insertInto('plot')
      .values({ ...row, rank })
      .execute();
    if (index !== undefined && index < rank) await moveTo(trx, row.project_uuid, row.uuid, index);
    return { ...row, rank: Math.min(index ?? rank, rank) };
  });
}

export async function updatePlot(
  db: Db,
  plot: Plot,
  changes: PlotChanges,
  index: number | undefined,
  now = Date.now(),
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('plot')
      .set({ ...changes, modified: now })
      .where('uuid', '=', plot.uuid)
      .execute();
    if (index !== undefined && index !== plot.rank) await moveTo(trx, plot.project_uuid, plot.uuid, index);
  });
}

export async function deletePlot(db: Db, plot: Plot): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('plot').where('uuid', '=', plot.uuid).execute();
    await trx
      .updateTable('plot')
      .set((eb) => ({ rank: eb('rank', '-', 1) }))
      .where('project_uuid', '=', plot.project_uuid)
      .where('rank', '>', plot.rank)
      .execute();
  });
}

export const findPlot = (db: Db, projectUuid: string, uuid: string): Promise<Plot | undefined> =>
  db.selectFrom('plot').selectAll().where('project_uuid', '=', projectUuid).where('uuid', '=', uuid).executeTakeFirst();

export type PlotListFilter = { title?: string | undefined; search?: string | undefined; sort?: 'index' | 'title' };

export function listPlots(db: Db, projectUuid: string, filter: PlotListFilter, page: Page): Promise<Listed<Plot>> {
  let query = db.selectFrom('plot').where('project_uuid', '=', projectUuid);
  if (filter.title !== undefined) query = query.where('title', '=', filter.title);
  if (filter.search !== undefined) query = query.where(searchAny(['title', 'uuid'], filter.search));
  const column = filter.sort === 'title' ? 'title' : 'rank';
  return paged(
    query,
    (q) =>
      q
        .selectAll()
        .orderBy(column, page.direction ?? 'asc')
        .orderBy('rank'),
    page,
  );
}
