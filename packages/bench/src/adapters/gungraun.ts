import { jsonMeasure, stdoutMeasure } from './gungraun-measures.js';
import { type Adapter, type AdapterResults, addMetric, nonEmpty } from './results.js';
import { isNumber, isObject, parseJson } from './units.js';

/**
 * Gungraun (formerly Iai-Callgrind): its summary JSON (version 6, pretty or NDJSON, possibly among other output) or
 * its terminal output, read as Bencher's `rust_gungraun` adapter reads them. Measures are Bencher's built-in Gungraun
 * measures (gungraun-measures.ts); metrics Bencher does not know are left out.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes start with ESC
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
/** `module::group::benchmark id:…` at the start of a line; the name runs on to the first line indented by two. */
const BENCHMARK = /^[^:\s]+::[^:\s]+::/;
const TOOL_HEADER = /^\s+=+ ([A-Z]+) =+\s*$/;
const NUMBER = '[-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?';
const METRIC = new RegExp(`^\\s+([^:\\r\\n]+):\\s+(${NUMBER})\\|\\S+\\s*(?:\\(.*\\)|\\[.*\\])`);

/**
 * Reads one benchmark from `from` (its first line): its name, over as many lines as it takes, then its tool
 * sections (metrics before any header are Callgrind's). Returns the line after the last metric read, or `from + 1`
 * when no line indented by two ends the name.
 */
function readBenchmark(lines: readonly string[], from: number, results: AdapterResults): number {
  let end = from + 1;
  while (end < lines.length && !(lines[end] as string).startsWith('  ')) end++;
  if (end >= lines.length) return from + 1;
  const name = lines.slice(from, end).join('\n').trim();
  let tool = 'CALLGRIND';
  let at = end;
  for (; at < lines.length; at++) {
    const line = lines[at] as string;
    const metric = METRIC.exec(line);
    if (metric) {
      const slug = stdoutMeasure(tool, metric[1] as string);
      if (slug) addMetric(results, name, slug, { value: Number(metric[2]) });
      continue;
    }
    const header = TOOL_HEADER.exec(line);
    if (!header || !METRIC.test(lines[at + 1] ?? '')) break;
    tool = header[1] as string;
  }
  return at;
}

export const parseGungraunStdout: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  const lines = input.replace(ANSI, '').split(/\r?\n/);
  for (let at = 0; at < lines.length; ) {
    at = BENCHMARK.test(lines[at] as string) ? readBenchmark(lines, at, results) : at + 1;
  }
  return nonEmpty(results);
};

/**
 * The balanced JSON objects that open a line (after spaces or tabs) and lie in no other such object, as
 * `[start, end)`, in one string-aware pass. A string ends at a line break (JSON strings hold none), so a
 * line never starts inside one and objects nested in others are not scanned again.
 */
function outerLineObjects(text: string): [number, number][] {
  const opened: number[] = [];
  const closed: [number, number][] = [];
  let lineStart = true;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      inString = false;
      lineStart = true;
      continue;
    }
    if (inString) {
      if (c === 92 && text.charCodeAt(i + 1) !== 10 && text.charCodeAt(i + 1) !== 13) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123) opened.push(lineStart ? i : -1);
    else if (c === 125) {
      const start = opened.pop() ?? -1;
      // Objects close inside out: drop those this one encloses.
      while (start >= 0 && (closed.at(-1)?.[0] ?? -1) > start) closed.pop();
      if (start >= 0) closed.push([start, i + 1]);
    }
    if (c !== 32 && c !== 9) lineStart = false;
  }
  return closed;
}

/** The new value of a summary metric: `Left` (new only) or the first of `Both`. */
function newValue(entry: unknown): number | undefined {
  if (!isObject(entry) || !isObject(entry.metrics)) return undefined;
  const { Left: left, Both: both } = entry.metrics;
  const value = isObject(left) ? left : Array.isArray(both) && isObject(both[0]) ? both[0] : undefined;
  const number = value?.Int ?? value?.Float;
  return isNumber(number) ? number : undefined;
}

function addSummary(results: AdapterResults, summary: Record<string, unknown>): boolean {
  if (summary.version !== '6' || typeof summary.module_path !== 'string' || !Array.isArray(summary.profiles)) {
    return false;
  }
  const name = typeof summary.id === 'string' ? `${summary.module_path}::${summary.id}` : summary.module_path;
  for (const profile of summary.profiles) {
    if (!isObject(profile) || typeof profile.tool !== 'string' || !isObject(profile.summaries)) continue;
    const total = profile.summaries.total;
    if (!isObject(total) || !isObject(total.summary)) continue;
    for (const metrics of Object.values(total.summary)) {
      if (!isObject(metrics)) continue;
      for (const [key, entry] of Object.entries(metrics)) {
        const value = newValue(entry);
        const slug = jsonMeasure(profile.tool, key);
        if (value !== undefined && slug) addMetric(results, name, slug, { value });
      }
    }
  }
  return true;
}

export const parseGungraunJson: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  for (const [start, end] of outerLineObjects(input)) {
    const parsed = parseJson(input.slice(start, end));
    if (isObject(parsed)) addSummary(results, parsed);
  }
  return nonEmpty(results);
};

export const parseGungraun: Adapter = (input, settings) =>
  parseGungraunJson(input, settings) ?? parseGungraunStdout(input, settings);
