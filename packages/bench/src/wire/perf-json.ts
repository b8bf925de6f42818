import type { ChangePointView } from '../storage/change-points.js';
import type { PerfReport, PerfRow } from '../storage/perf.js';
import type { Dimension, Measure, ModelRow, Project, Threshold } from '../storage/types.js';
import { jsonChangePoint } from './change-point-json.js';
import {
  jsonBoundary,
  type jsonBranch,
  jsonDimension,
  jsonMeasure,
  jsonProject,
  jsonTestbed,
  jsonThresholdModel,
} from './json.js';
import { toDateTime } from './time.js';

/** One permutation of the perf query: its dimensions and its metrics in plot order. */
export interface PerfResult {
  branch: ReturnType<typeof jsonBranch>;
  testbed: Dimension;
  benchmark: Dimension;
  measure: Measure;
  rows: PerfRow[];
  /** The series' change points (`change_point` thresholds), oldest first; an extension field when there are any. */
  changePoints?: ChangePointView[];
}

/** Everything a perf response is made of, rendered by `perfJson` (objects) or `perfJsonBytes` (the same, as UTF-8 JSON). */
export interface PerfView {
  project: Project;
  startTime: number | undefined;
  endTime: number | undefined;
  results: PerfResult[];
  /** Every report the results' metrics belong to, by uuid. */
  reports: Map<string, PerfReport>;
  thresholds: Map<string, Threshold>;
  models: Map<string, ModelRow>;
}

const optionalTime = (ms: number | undefined) => (ms === undefined ? null : toDateTime(ms));

/** Formats each distinct time once: thousands of metrics share a handful of reports. */
function dateTimeCache(): (ms: number) => string {
  const cache = new Map<number, string>();
  return (ms) => {
    let text = cache.get(ms);
    if (text === undefined) {
      text = toDateTime(ms);
      cache.set(ms, text);
    }
    return text;
  };
}

const reportOf = (view: PerfView, row: PerfRow) => view.reports.get(row.report_uuid) as PerfReport;

const thresholdOf = (view: PerfView, row: PerfRow) =>
  row.threshold_uuid === null ? undefined : view.thresholds.get(row.threshold_uuid);

const modelOf = (view: PerfView, row: PerfRow) => (row.model_uuid ? view.models.get(row.model_uuid) : undefined);

/** `change_points` (an Atrium extension) on a result whose series has any. */
const changePointsField = (result: PerfResult) =>
  result.changePoints?.length ? { change_points: result.changePoints.map(jsonChangePoint) } : {};

/** `JsonPerf` as objects. */
export function perfJson(view: PerfView) {
  const dateTime = dateTimeCache();
  const metricJson = (row: PerfRow) => {
    const threshold = thresholdOf(view, row);
    const report = reportOf(view, row);
    return {
      report: row.report_uuid,
      iteration: row.iteration,
      start_time: dateTime(report.start_time),
      end_time: dateTime(report.end_time),
      version: { number: report.number, hash: report.hash },
      metric: { uuid: row.metric_uuid, value: row.value, lower_value: row.lower_value, upper_value: row.upper_value },
      threshold: threshold ? jsonThresholdModel(threshold, modelOf(view, row)) : null,
      boundary: threshold ? jsonBoundary(row) : null,
      alert: row.alert_uuid
        ? {
            uuid: row.alert_uuid,
            limit: row.boundary_limit,
            status: row.status,
            modified: dateTime(row.alert_modified as number),
          }
        : null,
    };
  };
  return {
    project: jsonProject(view.project),
    start_time: optionalTime(view.startTime),
    end_time: optionalTime(view.endTime),
    results: view.results.map((result) => ({
      branch: result.branch,
      testbed: jsonTestbed(result.testbed),
      benchmark: jsonDimension(result.benchmark),
      measure: jsonMeasure(result.measure),
      metrics: result.rows.map(metricJson),
      ...changePointsField(result),
    })),
  };
}

/** `JSON.stringify` of a column value, without its generic dispatch for numbers and nulls. */
const scalar = (value: string | number | null): string =>
  typeof value === 'number'
    ? Number.isFinite(value)
      ? `${value}`
      : 'null'
    : value === null
      ? 'null'
      : JSON.stringify(value);

/** Text of each distinct object, made once (dimensions repeat in every permutation). */
function textCache<T extends object>(toJson: (value: T) => unknown): (value: T) => string {
  const cache = new Map<T, string>();
  return (value) => {
    let text = cache.get(value);
    if (text === undefined) {
      text = JSON.stringify(toJson(value));
      cache.set(value, text);
    }
    return text;
  };
}

/**
 * `JSON.stringify(perfJson(view))` as UTF-8 bytes in memory of their own (transferable to another
 * thread), built as text: the parts a metric shares with others (its report, times and version; its
 * threshold; the permutation's dimensions) are serialised once and spliced, and the rest of a metric
 * goes straight from the row to text without an intermediate object.
 */
export function perfJsonBytes(view: PerfView): Buffer {
  const dateTime = dateTimeCache();
  const branchText = textCache((branch: PerfResult['branch']) => branch);
  const testbedText = textCache(jsonTestbed);
  const benchmarkText = textCache(jsonDimension);
  const measureText = textCache(jsonMeasure);
  const reports = new Map<string, { head: string; tail: string }>();
  const thresholds = new Map<string, string>();

  const reportText = (row: PerfRow) => {
    let parts = reports.get(row.report_uuid);
    if (parts === undefined) {
      const report = reportOf(view, row);
      parts = {
        head: `{"report":${JSON.stringify(row.report_uuid)},"iteration":`,
        tail: `,"start_time":"${dateTime(report.start_time)}","end_time":"${dateTime(report.end_time)}","version":{"number":${scalar(report.number)},"hash":${scalar(report.hash)}},"metric":{"uuid":`,
      };
      reports.set(row.report_uuid, parts);
    }
    return parts;
  };
  const thresholdText = (row: PerfRow, threshold: Threshold) => {
    const key = `${threshold.uuid}/${row.model_uuid}`;
    let text = thresholds.get(key);
    if (text === undefined) {
      text = JSON.stringify(jsonThresholdModel(threshold, modelOf(view, row)));
      thresholds.set(key, text);
    }
    return text;
  };
  // The text after `"value":…`, with a constant for the common metric without bounds, threshold or alert.
  const boundsText = (row: PerfRow) =>
    row.lower_value === null && row.upper_value === null
      ? ',"lower_value":null,"upper_value":null},"threshold":'
      : `,"lower_value":${scalar(row.lower_value)},"upper_value":${scalar(row.upper_value)}},"threshold":`;
  const limitsText = (row: PerfRow) => {
    const threshold = thresholdOf(view, row);
    if (!threshold && !row.alert_uuid) return 'null,"boundary":null,"alert":null}';
    const limits = threshold
      ? `${thresholdText(row, threshold)},"boundary":{"baseline":${scalar(row.baseline)},"lower_limit":${scalar(row.lower_limit)},"upper_limit":${scalar(row.upper_limit)}}`
      : 'null,"boundary":null';
    const alert = row.alert_uuid
      ? `{"uuid":${JSON.stringify(row.alert_uuid)},"limit":${scalar(row.boundary_limit)},"status":${scalar(row.status)},"modified":"${dateTime(row.alert_modified as number)}"}`
      : 'null';
    return `${limits},"alert":${alert}}`;
  };
  const metricText = (row: PerfRow) => {
    const report = reportText(row);
    return `${report.head}${scalar(row.iteration)}${report.tail}${JSON.stringify(row.metric_uuid)},"value":${scalar(row.value)}${boundsText(row)}${limitsText(row)}`;
  };

  const bytes = new ByteWriter(view.results.reduce((n, result) => n + 2048 + 512 * result.rows.length, 4096));
  bytes.write(
    `{"project":${JSON.stringify(jsonProject(view.project))},"start_time":${JSON.stringify(optionalTime(view.startTime))},"end_time":${JSON.stringify(optionalTime(view.endTime))},"results":[`,
  );
  view.results.forEach((result, i) => {
    bytes.write(
      `${i ? ',' : ''}{"branch":${branchText(result.branch)},"testbed":${testbedText(result.testbed)},"benchmark":${benchmarkText(result.benchmark)},"measure":${measureText(result.measure)},"metrics":[`,
    );
    const changePoints = changePointsField(result).change_points;
    bytes.write(`${result.rows.map(metricText).join(',')}]`);
    bytes.write(changePoints ? `,"change_points":${JSON.stringify(changePoints)}}` : '}');
  });
  bytes.write(']}');
  return bytes.done();
}

/**
 * UTF-8 text written into one growing buffer, so the response is never a megabyte-long string. The
 * buffer is never a slice of Node's shared pool: its memory can be transferred to another thread.
 */
class ByteWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(expected: number) {
    this.buffer = Buffer.allocUnsafeSlow(expected);
  }

  write(text: string): void {
    const room = text.length * 3;
    if (this.buffer.length - this.length < room) {
      const grown = Buffer.allocUnsafeSlow(this.buffer.length * 2 + room);
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += this.buffer.write(text, this.length);
  }

  done(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}
