import { sql } from 'kysely';
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

/**
 * The historical sample of every benchmark for one (head, testbed, measure), newest first (version
 * number, then report start, then iteration), at most `maxSampleSize` each — one query for all benchmarks.
 */
export async function selectSamples(db: Db, query: SampleQuery): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>();
  if (query.benchmarkUuids.length === 0) return samples;
  const window = query.since === null ? sql`` : sql`and r.start_time >= ${query.since}`;
  const limit = query.maxSampleSize === null ? sql`` : sql`where ranked.position <= ${query.maxSampleSize}`;
  const result = await sql<{ benchmark_uuid: string; value: number; position: number }>`
    select ranked.benchmark_uuid, ranked.value, ranked.position from (
      select rb.benchmark_uuid, m.value,
        row_number() over (
          partition by rb.benchmark_uuid
          order by v.number desc, r.start_time desc, rb.iteration desc
        ) as position
      from head_version hv
      join version v on v.uuid = hv.version_uuid
      join report r on r.version_uuid = v.uuid
      join report_benchmark rb on rb.report_uuid = r.uuid
      join metric m on m.report_benchmark_uuid = rb.uuid
      where hv.head_uuid = ${query.headUuid}
        and r.testbed_uuid = ${query.testbedUuid}
        and m.measure_uuid = ${query.measureUuid}
        and rb.benchmark_uuid in (${sql.join(query.benchmarkUuids)})
        ${window}
    ) ranked ${limit}
    order by ranked.benchmark_uuid, ranked.position`.execute(db);
  for (const row of result.rows) {
    const list = samples.get(row.benchmark_uuid);
    if (list) list.push(Number(row.value));
    else samples.set(row.benchmark_uuid, [Number(row.value)]);
  }
  return samples;
}
