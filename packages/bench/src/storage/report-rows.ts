import { dialectOf } from '@atrium/core';
import { type Insertable, type Kysely, type OperationNodeSource, sql } from 'kysely';
import { chunks } from './chunks.js';
import type {
  AlertTable,
  BenchDatabase,
  BoundaryTable,
  ChangePointTable,
  MetricTable,
  ReportBenchmarkTable,
} from './schema.js';
import type { Db } from './types.js';

/** The tables a report's rows go to. */
type ReportRowTable =
  | 'version'
  | 'head_version'
  | 'report'
  | 'report_benchmark'
  | 'metric'
  | 'boundary'
  | 'change_point'
  | 'alert';

/** Rows of one table, inserted in bulk. */
export type TableRows = {
  [T in ReportRowTable]: { table: T; rows: readonly Insertable<BenchDatabase[T]>[] };
}[ReportRowTable];

/** What one iteration of a report stores. */
export interface IterationRows {
  reportBenchmarks: Insertable<ReportBenchmarkTable>[];
  metrics: Insertable<MetricTable>[];
  boundaries: Insertable<BoundaryTable>[];
  alerts: Insertable<AlertTable>[];
  changePoints: Insertable<ChangePointTable>[];
}

/** An iteration's rows as `insertRows` parts, in reference order. */
export const iterationParts = (rows: IterationRows): TableRows[] => [
  { table: 'report_benchmark', rows: rows.reportBenchmarks },
  { table: 'metric', rows: rows.metrics },
  { table: 'boundary', rows: rows.boundaries },
  { table: 'change_point', rows: rows.changePoints },
  { table: 'alert', rows: rows.alerts },
];

/** A statement to run after the rows (the usage counter's upsert). */
export type FinalInsert = OperationNodeSource & { execute(): Promise<unknown> };

/** Bound parameters in one PostgreSQL statement at most (its limit is 65,535). */
const PG_MAX_PARAMETERS = 30_000;

const insertInto = (db: Db, { table, rows }: TableRows) =>
  // Kysely cannot relate a table name of a union to its row type; `TableRows` does.
  db.insertInto(table).values(rows as never);

const parameters = (parts: readonly TableRows[]) =>
  parts.reduce((sum, part) => sum + part.rows.length * Object.keys(part.rows[0] ?? {}).length, 0);

/**
 * Inserts the parts in order (every row after the rows it references), then `last`. SQLite runs a statement
 * per table and per `CHUNK` rows, letting other requests in between. PostgreSQL runs them all as one
 * statement when its parameters allow, each insert before the last a data-modifying CTE (foreign keys are
 * checked at the statement's end): one round trip instead of one per table, which matters most while the
 * report holds its head's lock.
 */
export async function insertRows(db: Db, parts: readonly TableRows[], last?: FinalInsert): Promise<void> {
  const filled = parts.filter((part) => part.rows.length > 0);
  if (dialectOf(db as Kysely<unknown>) === 'postgres' && parameters(filled) <= PG_MAX_PARAMETERS) {
    const queries: FinalInsert[] = filled.map((part) => insertInto(db, part));
    if (last) queries.push(last);
    const final = queries.pop();
    if (!final) return;
    if (queries.length === 0) return void (await final.execute());
    const ahead = queries.map((query, i) => sql`${sql.id(`rows_${i}`)} as (${query})`);
    await sql`with ${sql.join(ahead)} ${final}`.execute(db);
    return;
  }
  for (const part of filled) {
    for await (const rows of chunks<object>(part.rows)) await insertInto(db, { ...part, rows } as TableRows).execute();
  }
  await last?.execute();
}
