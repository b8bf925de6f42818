import type { AdapterResults } from '../adapters/results.js';

/** The largest report accepted (the README documents these): they bound one ingestion's time. */
export const REPORT_LIMITS = {
  /** Lines of harness output over all `results` entries, checked before any adapter runs. */
  lines: 200_000,
  /** Benchmarks in one iteration. */
  benchmarks: 10_000,
  /** Measures of one benchmark. */
  measures: 64,
  /** Metrics over all iterations. */
  metrics: 10_000,
} as const;

function countLines(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Why the harness output is too long to parse, if it is. */
export function resultsTextProblem(results: readonly string[]): string | undefined {
  let lines = 0;
  for (const text of results) lines += countLines(text);
  return lines > REPORT_LIMITS.lines
    ? `results hold ${lines} lines; a report may hold at most ${REPORT_LIMITS.lines}`
    : undefined;
}

/** Why the parsed results are too large to store, if they are. */
export function resultsSizeProblem(iterations: readonly AdapterResults[]): string | undefined {
  let metrics = 0;
  for (const results of iterations) {
    if (results.size > REPORT_LIMITS.benchmarks)
      return `an iteration holds ${results.size} benchmarks; a report may hold at most ${REPORT_LIMITS.benchmarks} per iteration`;
    for (const [benchmark, measures] of results) {
      if (measures.size > REPORT_LIMITS.measures)
        return `benchmark ${benchmark.slice(0, 64)} has ${measures.size} measures; at most ${REPORT_LIMITS.measures} are allowed`;
      metrics += measures.size;
    }
  }
  return metrics > REPORT_LIMITS.metrics
    ? `results hold ${metrics} metrics; a report may hold at most ${REPORT_LIMITS.metrics}`
    : undefined;
}
