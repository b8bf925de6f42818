/** A budget reset period: whole days, or calendar months counted from the key's creation. */
export type ResetPeriod = { unit: 'days'; count: number } | { unit: 'months'; count: number };

const DAY_MS = 86_400_000;
const PERIOD_TEXT = /^(day|week|month|([1-9]\d{0,3})d)$/;

/** `day`, `week`, `month` or `<N>d` (1 ≤ N ≤ 9999); undefined when the text is none of these. */
export function parseResetPeriod(text: string): ResetPeriod | undefined {
  const match = PERIOD_TEXT.exec(text.trim().toLowerCase());
  if (!match) return undefined;
  if (match[1] === 'day') return { unit: 'days', count: 1 };
  if (match[1] === 'week') return { unit: 'days', count: 7 };
  if (match[1] === 'month') return { unit: 'months', count: 1 };
  return { unit: 'days', count: Number(match[2]) };
}

/** The anchor moved forward by `months` calendar months, the day clamped to the month's length (Jan 31 → Feb 28). */
function addMonths(anchor: number, months: number): number {
  const date = new Date(anchor);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}

export interface PeriodWindow {
  start: number;
  /** The next reset; `Infinity` for a budget that never resets. */
  end: number;
}

/**
 * The period `now` falls in, computed from the creation anchor at read time: nothing has to run for a
 * budget to reset, so a reset cannot fail to happen.
 */
export function periodAt(anchor: number, period: ResetPeriod | undefined, now: number): PeriodWindow {
  if (!period) return { start: anchor, end: Number.POSITIVE_INFINITY };
  if (now < anchor) return { start: anchor, end: anchor };
  if (period.unit === 'days') {
    const length = period.count * DAY_MS;
    const start = anchor + Math.floor((now - anchor) / length) * length;
    return { start, end: start + length };
  }
  const elapsed = new Date(now);
  const from = new Date(anchor);
  let index = Math.floor(
    ((elapsed.getUTCFullYear() - from.getUTCFullYear()) * 12 + elapsed.getUTCMonth() - from.getUTCMonth()) /
      period.count,
  );
  while (index > 0 && addMonths(anchor, index * period.count) > now) index--;
  while (addMonths(anchor, (index + 1) * period.count) <= now) index++;
  return { start: addMonths(anchor, index * period.count), end: addMonths(anchor, (index + 1) * period.count) };
}
