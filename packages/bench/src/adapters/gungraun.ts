import { type Adapter, type AdapterResults, addMetric, nonEmpty } from './results.js';
import { isNumber, isObject, lines } from './units.js';

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

/** The balanced JSON object starting at `start` (string-aware), or undefined when it never closes. */
function objectAt(text: string, start: number): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
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
  for (const match of input.matchAll(/^[ \t]*\{/gm)) {
    const start = (match.index ?? 0) + match[0].length - 1;
    const candidate = objectAt(input, start);
    if (!candidate) continue;
    try {
      const parsed: unknown = JSON.parse(candidate);
      if (isObject(parsed)) addSummary(results, parsed);
    } catch {
      // Not JSON after all (or foreign output): keep scanning.
    }
  }
  return nonEmpty(results);
};

export const parseGungraun: Adapter = (input, settings) =>
  parseGungraunJson(input, settings) ?? parseGungraunStdout(input, settings);
