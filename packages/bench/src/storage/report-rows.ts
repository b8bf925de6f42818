import type { Insertable } from 'kysely';
import { chunks } from './chunks.js';
import type {
  AlertTable,
  BenchDatabase,
  BoundaryTable,
  MetricTable,
  ReportBenchmarkTable,
  ReportTable,
} from './schema.js';
import type { Db } from './types.js';

/** What one iteration of a report stores, inserted table by table in bulk. */
export interface IterationRows {
  reportBenchmarks: Insertable<ReportBenchmarkTable>[];
  metrics: Insertable<MetricTable>[];
  boundaries: Insertable<BoundaryTable>[];
  alerts: Insertable<AlertTable>[];
}

async function insertChunked<T extends 'report_benchmark' | 'metric' | 'boundary' | 'alert'>(
  db: Db,
  table: T,
  rows: readonly Insertable<BenchDatabase[T]>[],
): Promise<void> {
  for await (const chunk of chunks(rows)) {
    // Kysely cannot relate a generic table name to its row type; the signature above does.
    await db
      .insertInto(table)
      .values(chunk as never)
      .execute();
  }
}

export async function insertReport(db: Db, report: Insertable<ReportTable>): Promise<void> {
  await db.insertInto('report').values(report).execute();
}

export async function insertIterationRows(db: Db, rows: IterationRows): Promise<void> {
  await insertChunked(db, 'report_benchmark', rows.reportBenchmarks);
  await insertChunked(db, 'metric', rows.metrics);
  await insertChunked(db, 'boundary', rows.boundaries);
  await insertChunked(db, 'alert', rows.alerts);
}
