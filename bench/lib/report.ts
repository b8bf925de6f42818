import { mkdirSync, writeFileSync } from 'node:fs';

export type Cell = string | number;

/** What a named benchmark returns: a table to print, plus anything else worth keeping in the JSON. */
export interface BenchReport {
  title: string;
  columns: string[];
  rows: Record<string, Cell>[];
  /** Lines printed under the table (ratios, goals, caveats). */
  notes?: string[];
  data?: unknown;
}

function formatCell(value: Cell | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(2);
  return value;
}

export function renderTable(report: BenchReport): string {
  const cells = report.rows.map((row) => report.columns.map((c) => formatCell(row[c])));
  const widths = report.columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [report.title, '', line(report.columns), rule, ...cells.map(line), '', ...(report.notes ?? [])].join('\n');
}

export function writeReport(name: string, report: BenchReport): string {
  const dir = new URL('../results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`${name}.json`, dir);
  writeFileSync(file, `${JSON.stringify({ name, measuredAt: new Date().toISOString(), ...report }, null, 2)}\n`);
  return file.pathname;
}
