import { type RawBuilder, sql } from 'kysely';
import type { Db } from './types.js';

export interface SampleQuery {
  headUuid: string;
  testbedUuid: string;
  measureUuid: string;
  benchmarkUuids: readonly string[];
  maxSampleSize: number | null;
  /** Only reports started at or after this time (ms), for a model's `window`. */
  since: number | null;
}

type SampleRow = { benchmark_uuid: string; value: number; position: number };

/**
 * Reports visible through the head on the testbed, newest first (version number, then start time);
 * with `limit`, only the newest ones.
 */
function reportsOfHead(query: SampleQuery, limit: number | null): RawBuilder<unknown> {
  const window = query.since === null ? sql`` : sql`and r.start_time >= ${query.since}`;
  const newest = limit === null ? sql`` : sql`order by hv.number desc, r.start_time desc limit ${limit}`;
  return sql`
    select r.uuid, hv.number, r.start_time
    from head_version hv
    join report r on r.version_uuid = hv.version_uuid
    where hv.head_uuid = ${query.headUuid} and r.testbed_uuid = ${query.testbedUuid} ${window}
    ${newest}`;
}

/** `cross join` keeps the (few, newest) reports the outer loop on SQLite; see `perfSql`. */
function ranked(query: SampleQuery, benchmarks: readonly string[], reportLimit: number | null) {
  const limit = query.maxSampleSize === null ? sql`` : sql`where ranked.position <= ${query.maxSampleSize}`;
  return sql<SampleRow>`
    with reports as (${reportsOfHead(query, reportLimit)})
    select ranked.benchmark_uuid, ranked.value, ranked.position from (
      select rb.benchmark_uuid, m.value,
        row_number() over (
          partition by rb.benchmark_uuid
          order by reports.number desc, reports.start_time desc, rb.iteration desc
        ) as position
      from reports
      cross join report_benchmark rb
      join metric m on m.report_benchmark_uuid = rb.uuid
      where rb.report_uuid = reports.uuid
        and m.measure_uuid = ${query.measureUuid}
        and rb.benchmark_uuid in (${sql.join(benchmarks)})
    ) ranked ${limit}
    order by ranked.benchmark_uuid, ranked.position`;
}

/**
 * The historical sample of every benchmark for one (head, testbed, measure), newest first (version
 * number, then report start, then iteration), at most `maxSampleSize` each. With a maximum, only the
 * newest reports are read first; benchmarks still short of the maximum are completed from the whole
 * history (any older sample is older than everything in that first slice, so the result is exact).
 */
export async function selectSamples(db: Db, query: SampleQuery): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>();
  if (query.benchmarkUuids.length === 0) return samples;
  const collect = (rows: SampleRow[]) => {
    for (const row of rows) {
      const list = samples.get(row.benchmark_uuid);
      if (list) list.push(Number(row.value));
      else samples.set(row.benchmark_uuid, [Number(row.value)]);
    }
  };
  const max = query.maxSampleSize;
  if (max === null) {
    collect((await ranked(query, query.benchmarkUuids, null).execute(db)).rows);
    return samples;
  }
  const recentReports = max * 2;
  collect((await ranked(query, query.benchmarkUuids, recentReports).execute(db)).rows);
  const short = query.benchmarkUuids.filter((uuid) => (samples.get(uuid)?.length ?? 0) < max);
  if (short.length === 0) return samples;
  const older = await sql<{
    n: number;
  }>`select count(*) as n from (${reportsOfHead(query, recentReports + 1)}) newest`.execute(db);
  if (Number(older.rows[0]?.n ?? 0) <= recentReports) return samples;
  for (const uuid of short) samples.delete(uuid);
  collect((await ranked(query, short, null).execute(db)).rows);
  return samples;
}
