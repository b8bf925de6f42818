/** Parsing, limits and grouping of the perf query (pure). */

import type { YAxisKind } from '../plot/y-axes.js';

export const MAX_PERMUTATIONS = 255;

export interface PerfParams {
  branches: string[];
  heads: (string | undefined)[];
  testbeds: string[];
  benchmarks: string[];
  measures: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list of UUIDs; a problem message when empty or malformed. */
export function parseUuidList(name: string, text: string | undefined): string[] | string {
  const items = (text ?? '').split(',').filter((item) => item.length > 0);
  if (items.length === 0) return `${name} must list at least one UUID`;
  const bad = items.find((item) => !UUID.test(item));
  if (bad !== undefined) return `${name} contains an invalid UUID: ${bad.slice(0, 64)}`;
  return [...new Set(items.map((item) => item.toLowerCase()))];
}

/** `heads` is parallel to `branches`; an empty entry means the branch's current head. */
export function parseHeads(text: string | undefined): (string | undefined)[] | string {
  if (text === undefined || text === '') return [];
  const items = text.split(',').map((item) => (item.length === 0 ? undefined : item));
  const bad = items.find((item) => item !== undefined && !UUID.test(item));
  if (bad !== undefined) return `heads contains an invalid UUID: ${bad.slice(0, 64)}`;
  return items.map((item) => item?.toLowerCase());
}

export type PerfQueryInput = Record<'branches' | 'heads' | 'testbeds' | 'benchmarks' | 'measures', string | undefined>;

/** Validated perf parameters, or a 400 message (including more than 255 permutations, with the count). */
export function parsePerfParams(query: PerfQueryInput): PerfParams | string {
  const lists: Record<string, string[]> = {};
  for (const name of ['branches', 'testbeds', 'benchmarks', 'measures'] as const) {
    const parsed = parseUuidList(name, query[name]);
    if (typeof parsed === 'string') return parsed;
    lists[name] = parsed;
  }
  const heads = parseHeads(query.heads);
  if (typeof heads === 'string') return heads;
  const params = { ...(lists as Omit<PerfParams, 'heads'>), heads };
  const permutations =
    params.branches.length * params.testbeds.length * params.benchmarks.length * params.measures.length;
  if (permutations > MAX_PERMUTATIONS) {
    return `The perf query asks for ${permutations} permutations of branches, testbeds, benchmarks and measures; the maximum is ${MAX_PERMUTATIONS}.`;
  }
  return params;
}

/** A perf route's query string, as its schema types it. */
export type PerfQuerystring = PerfQueryInput & {
  start_time?: number;
  end_time?: number;
  title?: string;
  y_axis?: YAxisKind;
};

/** A validated perf query: its dimensions, its window and the plot's title. */
export interface PerfRequest {
  params: PerfParams;
  startTime: number | undefined;
  endTime: number | undefined;
  title: string | undefined;
  /** The image's y axes (`y_axis`, as the console's perf page): linear unless asked. */
  yAxis?: YAxisKind | undefined;
}

/** The perf query of a query string, or a 400 message. */
export function parsePerfRequest(query: PerfQuerystring): PerfRequest | string {
  const params = parsePerfParams(query);
  if (typeof params === 'string') return params;
  return { params, startTime: query.start_time, endTime: query.end_time, title: query.title, yAxis: query.y_axis };
}

/** The dimensions of a perf query, each in the order the results list them. */
export interface PerfDimensions {
  heads: string[];
  testbeds: string[];
  benchmarks: string[];
  measures: string[];
}

/**
 * The metrics of each permutation, numbered head × testbed × benchmark × measure in that nesting
 * order, each list kept in the order given; numbering spares a string key per metric. A metric names
 * the head it was read through: a report at a version two queried heads share (a branch and its start
 * point) is plotted on both. Metrics of a report not listed (stored after the reports were read) or
 * outside the dimensions are left out.
 */
export function groupByPermutation<
  M extends { report_uuid: string; head_uuid: string; benchmark_uuid: string; measure_uuid: string },
>(
  dimensions: PerfDimensions,
  reports: readonly { uuid: string; testbed_uuid: string }[],
  metrics: readonly M[],
): M[][] {
  const positions = (uuids: string[]) => new Map(uuids.map((uuid, i) => [uuid, i]));
  const headAt = positions(dimensions.heads);
  const testbedAt = positions(dimensions.testbeds);
  const benchmarkAt = positions(dimensions.benchmarks);
  const measureAt = positions(dimensions.measures);
  const measureCount = dimensions.measures.length;
  const perReport = dimensions.benchmarks.length * measureCount;
  const perHead = dimensions.testbeds.length * perReport;
  const testbedOfReport = new Map<string, number>();
  for (const report of reports) {
    const testbed = testbedAt.get(report.testbed_uuid);
    if (testbed !== undefined) testbedOfReport.set(report.uuid, testbed * perReport);
  }
  const groups: M[][] = [];
  for (const metric of metrics) {
    const head = headAt.get(metric.head_uuid);
    const testbed = testbedOfReport.get(metric.report_uuid);
    const benchmark = benchmarkAt.get(metric.benchmark_uuid);
    const measure = measureAt.get(metric.measure_uuid);
    if (head === undefined || testbed === undefined || benchmark === undefined || measure === undefined) continue;
    const permutation = head * perHead + testbed + benchmark * measureCount + measure;
    const group = groups[permutation];
    if (group) group.push(metric);
    else groups[permutation] = [metric];
  }
  return groups;
}
