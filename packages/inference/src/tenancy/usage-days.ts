import type { UsageRow } from '../storage/usage.js';
import { fromMicro } from './pricing.js';

/** One key's use on one day (UTC) and model. */
export interface DayUsage {
  day: string;
  model: string;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Micro-credits. */
  credits: number;
}

const dayOf = (hour: number) => new Date(hour).toISOString().slice(0, 10);

/** Hourly counters summed per day and model (`model` '' when `byModel` is false), oldest day first. */
export function usagePerDay(rows: readonly Omit<UsageRow, 'key_id'>[], byModel: boolean): DayUsage[] {
  const days = new Map<string, DayUsage>();
  for (const r of rows) {
    const day = dayOf(r.hour);
    const model = byModel ? r.model : '';
    const id = `${day}\u0000${model}`;
    const sum = days.get(id) ?? { day, model, requests: 0, promptTokens: 0, completionTokens: 0, credits: 0 };
    sum.requests += Number(r.requests);
    sum.promptTokens += Number(r.prompt_tokens);
    sum.completionTokens += Number(r.completion_tokens);
    sum.credits += Number(r.credits);
    days.set(id, sum);
  }
  return [...days.values()].sort((a, b) => (a.day === b.day ? (a.model < b.model ? -1 : 1) : a.day < b.day ? -1 : 1));
}

/** A CSV field: quoted when it holds a comma, quote or line break, and never read as a formula by a spreadsheet. */
function csvField(value: string | number): string {
  const text = typeof value === 'number' ? String(value) : /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180 CSV: a header row, then the rows. */
export const toCsv = (header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string =>
  `${[header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;

/** A key's use per day and model as CSV. */
export function usageCsv(alias: string, days: readonly DayUsage[]): string {
  const header = ['key', 'day', 'model', 'requests', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'credits'];
  return toCsv(
    header,
    days.map((d) => [
      alias,
      d.day,
      d.model,
      d.requests,
      d.promptTokens,
      d.completionTokens,
      d.promptTokens + d.completionTokens,
      fromMicro(d.credits),
    ]),
  );
}
