import { type Adapter, type AdapterResults, addMetric, nonEmpty } from './results.js';
import { isNumber, isObject, lines, parseJson } from './units.js';

/**
 * Gungraun (formerly Iai-Callgrind): its summary JSON (version 6, pretty or NDJSON, possibly among
 * other output) or its terminal output. Measures are named after the tool's metrics, e.g. `instructions`,
 * `l1-hits`, `total-read-write`, `total-bytes`; error-tool counts get the tool as prefix (`memcheck-errors`).
 */

/** JSON abbreviations whose terminal label reads differently. */
const JSON_LABELS: Readonly<Record<string, string>> = {
  Ir: 'Instructions',
  L1hits: 'L1 Hits',
  LLhits: 'LL Hits',
  TotalRW: 'Total read+write',
  LLHitRate: 'LL Hit Rate',
  LLMissRate: 'LL Miss Rate',
  AtTGmaxBytes: 'At t-gmax bytes',
  AtTGmaxBlocks: 'At t-gmax blocks',
  AtTEndBytes: 'At t-end bytes',
  AtTEndBlocks: 'At t-end blocks',
};

const ERROR_TOOLS = new Set(['memcheck', 'helgrind', 'drd']);

/** `Total read+write` and `TotalRW` → `total-read-write`, `I1MissRate` → `i1-miss-rate`, `Ge` → `global-bus-events`. */
export function gungraunMeasure(label: string, tool: string): string {
  const readable = JSON_LABELS[label] ?? label;
  if (readable === 'Ge') return 'global-bus-events';
  const slug = readable
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const lowerTool = tool.toLowerCase();
  return ERROR_TOOLS.has(lowerTool) ? `${lowerTool}-${slug}` : slug;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes start with ESC
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const TOOL_HEADER = /^\s+=+ ([A-Z]+) =+\s*$/;
const METRIC = /^\s+([A-Za-z][A-Za-z0-9 +-]*):\s+(\d+(?:\.\d+)?)\|\S+\s+\(.*\)/;

export const parseGungraunStdout: Adapter = (input, { average }) => {
  if (average !== undefined) return undefined;
  const results: AdapterResults = new Map();
  let pending: string[] = [];
  let benchmark: string | undefined;
  let tool = 'CALLGRIND';
  for (const raw of lines(input.replace(ANSI, ''))) {
    const metric = METRIC.exec(raw);
    if (metric) {
      if (pending.length > 0) {
        benchmark = pending.join(' ');
        pending = [];
        tool = 'CALLGRIND';
      }
      if (benchmark !== undefined) {
        addMetric(results, benchmark, gungraunMeasure(metric[1] as string, tool), { value: Number(metric[2]) });
      }
      continue;
    }
    const header = TOOL_HEADER.exec(raw);
    if (header) {
      if (pending.length > 0) {
        benchmark = pending.join(' ');
        pending = [];
      }
      tool = header[1] as string;
      continue;
    }
    if (/^\S/.test(raw) && raw.includes('::')) {
      pending = [raw.trim()];
      benchmark = undefined;
    } else if (pending.length > 0 && /^\S/.test(raw)) {
      pending.push(raw.trim());
    } else {
      pending = [];
      if (!/^\s/.test(raw)) benchmark = undefined;
    }
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
      for (const [label, entry] of Object.entries(metrics)) {
        const value = newValue(entry);
        if (value !== undefined) addMetric(results, name, gungraunMeasure(label, profile.tool), { value });
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
