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
 * The reports visible through the head on the testbed (`reports`), newest first, and their metrics of the measure
 * ranked per benchmark (`ranked`: version number, report start, iteration, as Bencher's sample). With
 * `reportLimit`, only that many newest reports are read.
 */
function rankedSql(query: RegimeQuery, benchmarks: readonly string[], reportLimit: number | null) {
  const window = query.since === null ? sql`` : sql`and r.start_time >= ${query.since}`;
  const newest = reportLimit === null ? sql`` : sql`order by hv.number desc, r.start_time desc limit ${reportLimit}`;
  return sql`
    reports as (
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
    )`;
}

/**
 * Every benchmark's newest `maxSampleSize` metrics among the newest `maxSampleSize` + 1 reports (the report being
 * ingested is already visible, without its metrics), without regard to change points; a last row without a
 * benchmark says how many reports were read.
 */
function newestSql(query: RegimeQuery) {
  return sql<RegimeRow>`
    with ${rankedSql(query, query.benchmarkUuids, query.maxSampleSize + 1)}
    select benchmark_uuid, metric_uuid, value, position, null as start from ranked
    where position <= ${query.maxSampleSize}
    union all
    select null, null, null, (select count(*) from reports), null`;
}

/**
 * The first metrics of the benchmarks' change points on the testbed and measure (through any head: the caller
 * keeps those among the metrics it read). Few rows, through the `change_point_series` index.
 */
function changePointStartsSql(query: RegimeQuery) {
  return sql<{ first_metric_uuid: string }>`
    select first_metric_uuid from change_point
    where testbed_uuid = ${query.testbedUuid} and measure_uuid = ${query.measureUuid}
      and benchmark_uuid in (${sql.join(query.benchmarkUuids)})`;
}

/**
 * Every benchmark's current regime in one statement: its newest metrics, at most `maxSampleSize`, and none before
 * the first metric of the latest change point among them; when there is such a change point, also up to
 * `maxSampleSize` metrics before it (rows with `position` > `start`). With `reportLimit`, only that many newest
 * reports are read; a last row without a benchmark says how many were.
 */
function regimeSql(query: RegimeQuery, benchmarks: readonly string[], reportLimit: number | null) {
  return sql<RegimeRow>`
    with ${rankedSql(query, benchmarks, reportLimit)},
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
 * it. Two small statements settle the common case: the newest `maxSampleSize` metrics of every benchmark among the
 * newest `maxSampleSize` + 1 reports, and the first metrics of the series' change points. A benchmark with all
 * `maxSampleSize` metrics there and no change point among them has those as its regime and nothing before it. The
 * others (a regime cut at a change point, or short of the maximum) are read again from the newest 2 ×
 * `maxSampleSize` reports, for the values before the cut; those still short without a change point, from the whole
 * history, and only when there are older reports.
 */
export async function selectRegimes(db: Db, query: RegimeQuery): Promise<Map<string, Regime>> {
  type Entry = { point: RegimePoint; position: number; cut: boolean; earlier: boolean };
  const regimes = new Map<string, Entry[]>();
  const add = (benchmarkUuid: string, entry: Entry) => {
    const list = regimes.get(benchmarkUuid);
    if (list) list.push(entry);
    else regimes.set(benchmarkUuid, [entry]);
  };
  /** Adds the rows' metrics and returns how many reports were read. */
  const collect = (rows: RegimeRow[], isCut: (row: RegimeRow) => boolean) => {
    let reports = 0;
    for (const row of rows) {
      if (row.benchmark_uuid === null) {
        reports = Number(row.position);
        continue;
      }
      add(row.benchmark_uuid, {
        point: { metricUuid: row.metric_uuid as string, value: Number(row.value) },
        position: Number(row.position),
        cut: isCut(row),
        earlier: row.start !== null && Number(row.position) > Number(row.start),
      });
    }
    return reports;
  };
  const read = async (benchmarks: readonly string[], reportLimit: number | null) =>
    collect((await regimeSql(query, benchmarks, reportLimit).execute(db)).rows, (row) => row.start !== null);
  /** Reads again, from `reportLimit` newest reports, the benchmarks `unsettled` says the last read left open. */
  const reread = async (
    benchmarks: readonly string[],
    reportLimit: number | null,
    unsettled: (list: Entry[]) => boolean,
  ) => {
    const open = benchmarks.filter((uuid) => unsettled(regimes.get(uuid) ?? []));
    if (open.length === 0) return { open, reports: 0 };
    for (const uuid of open) regimes.delete(uuid);
    return { open, reports: await read(open, reportLimit) };
  };
  if (query.benchmarkUuids.length === 0) return new Map();
  const max = query.maxSampleSize;
  const starts = new Set((await changePointStartsSql(query).execute(db)).rows.map((row) => row.first_metric_uuid));
  const reports = collect((await newestSql(query).execute(db)).rows, (row) => starts.has(row.metric_uuid as string));
  const cut = (list: Entry[]) => list.some((entry) => entry.cut);
  // A regime that starts at a change point is complete, whatever its length.
  const short = (list: Entry[]) => list.length < max && !cut(list);
  const recent = await reread(query.benchmarkUuids, 2 * max, (list) => cut(list) || (reports > max && short(list)));
  if (recent.reports >= 2 * max) await reread(recent.open, null, short);
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
