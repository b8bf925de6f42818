import { sql } from 'kysely';
import type { Db } from './types.js';

/** One metric of a series' history. */
export interface RegimePoint {
  metricUuid: string;
  value: number;
}

/** A benchmark's current regime, oldest first, and the values before it that were read with it. */
export interface Regime {
  points: RegimePoint[];
  /**
   * Up to `maxSampleSize` values before the regime's first metric, oldest first, when the regime starts at a change
   * point among the newest `maxSampleSize` metrics (the detector's noise scale for a young regime); else empty.
   */
  earlier: number[];
}

export interface RegimeQuery {
  headUuid: string;
  testbedUuid: string;
  measureUuid: string;
  benchmarkUuids: readonly string[];
  maxSampleSize: number;
  /** Only reports started at or after this time (ms), for a model's `window`. */
  since: number | null;
}

type RegimeRow = {
  benchmark_uuid: string | null;
  metric_uuid: string | null;
  value: number | null;
  position: number;
  /** The position of the change point the regime starts at, if it does. */
  start: number | null;
};

/**
 * Every benchmark's current regime in one statement: its newest metrics visible through the head on the testbed
 * (version number, report start, iteration, as Bencher's sample), at most `maxSampleSize`, and none before the first
 * metric of the latest change point among them; when there is such a change point, also up to `maxSampleSize`
 * metrics before it (rows with `position` > `start`). With `reportLimit`, only that many newest reports are read; a
 * last row without a benchmark says how many were.
 */
function regimeSql(query: RegimeQuery, benchmarks: readonly string[], reportLimit: number | null) {
  const window = query.since === null ? sql`` : sql`and r.start_time >= ${query.since}`;
  const newest = reportLimit === null ? sql`` : sql`order by hv.number desc, r.start_time desc limit ${reportLimit}`;
  return sql<RegimeRow>`
    with reports as (
      select r.uuid, hv.number, r.start_time
      from head_version hv
      join report r on r.version_uuid = hv.version_uuid
      where hv.head_uuid = ${query.headUuid} and r.testbed_uuid = ${query.testbedUuid} ${window}
      ${newest}
    ),
    ranked as (
      select m.benchmark_uuid, m.uuid as metric_uuid, m.value,
        row_number() over (
          partition by m.benchmark_uuid
          order by reports.number desc, reports.start_time desc, m.iteration desc
        ) as position
      from reports
      cross join metric m
      where m.report_uuid = reports.uuid
        and m.measure_uuid = ${query.measureUuid}
        and m.benchmark_uuid in (${sql.join(benchmarks)})
    ),
    recent as (select * from ranked where position <= ${2 * query.maxSampleSize}),
    starts as (
      select recent.benchmark_uuid, min(recent.position) as position
      from recent
      join change_point cp on cp.first_metric_uuid = recent.metric_uuid
      where recent.position <= ${query.maxSampleSize}
      group by recent.benchmark_uuid
    )
    select recent.benchmark_uuid, recent.metric_uuid, recent.value, recent.position, starts.position as start
    from recent
    left join starts on starts.benchmark_uuid = recent.benchmark_uuid
    where recent.position <= coalesce(starts.position + ${query.maxSampleSize}, ${query.maxSampleSize})
    union all
    select null, null, null, (select count(*) from reports), null`;
}

/**
 * The current regime of every benchmark of one (head, testbed, measure), oldest first, with the values read before
 * it. One statement reads the newest 2 × `maxSampleSize` reports; only benchmarks still short of the maximum without
 * a change point among them are read again from the whole history, and only when there are older reports.
 */
export async function selectRegimes(db: Db, query: RegimeQuery): Promise<Map<string, Regime>> {
  const regimes = new Map<string, { point: RegimePoint; position: number; cut: boolean; earlier: boolean }[]>();
  const read = async (benchmarks: readonly string[], reportLimit: number | null) => {
    let reports = 0;
    for (const row of (await regimeSql(query, benchmarks, reportLimit).execute(db)).rows) {
      if (row.benchmark_uuid === null) {
        reports = Number(row.position);
        continue;
      }
      const entry = {
        point: { metricUuid: row.metric_uuid as string, value: Number(row.value) },
        position: Number(row.position),
        cut: row.start !== null,
        earlier: row.start !== null && Number(row.position) > Number(row.start),
      };
      const list = regimes.get(row.benchmark_uuid);
      if (list) list.push(entry);
      else regimes.set(row.benchmark_uuid, [entry]);
    }
    return reports;
  };
  if (query.benchmarkUuids.length === 0) return new Map();
  const recentReports = query.maxSampleSize * 2;
  const reports = await read(query.benchmarkUuids, recentReports);
  if (reports >= recentReports) {
    const short = query.benchmarkUuids.filter((uuid) => {
      const list = regimes.get(uuid) ?? [];
      // A regime that starts at a change point is complete, whatever its length.
      return list.length < query.maxSampleSize && !list.some((entry) => entry.cut);
    });
    if (short.length > 0) {
      for (const uuid of short) regimes.delete(uuid);
      await read(short, null);
    }
  }
  const result = new Map<string, Regime>();
  for (const [uuid, list] of regimes) {
    const oldestFirst = list.sort((a, b) => b.position - a.position);
    result.set(uuid, {
      points: oldestFirst.filter((entry) => !entry.earlier).map((entry) => entry.point),
      earlier: oldestFirst.filter((entry) => entry.earlier).map((entry) => entry.point.value),
    });
  }
  return result;
}
