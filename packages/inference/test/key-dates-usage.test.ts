import { expect, it } from 'vitest';
import { accessRefusal, toActiveKey } from '../src/tenancy/active-key.js';
import { lastDayBefore, parseEndDate } from '../src/tenancy/dates.js';
import { newKeyRow } from '../src/tenancy/keys.js';
import { usageCsv, usagePerDay } from '../src/tenancy/usage-days.js';

const HOUR = 3_600_000;

it.each([
  ['2027-12-31', '2028-01-01T00:00:00.000Z', '2027-12-31'],
  [' 2028-02-29 ', '2028-03-01T00:00:00.000Z', '2028-02-29'],
  ['2027-12-31T12:00:00Z', '2027-12-31T12:00:00.000Z', '2027-12-31'],
  ['2028-01-01T00:00:00Z', '2028-01-01T00:00:00.000Z', '2027-12-31'],
])('the end date %j is the instant %s, shown as the last day %s', (text, instant, last) => {
  const ends = parseEndDate(text);
  expect(new Date(ends).toISOString()).toBe(instant);
  expect(lastDayBefore(ends)).toBe(last);
});

it('an end date that is no date is NaN', () => {
  expect(parseEndDate('soon')).toBeNaN();
});

it.each([
  { expires: null, activeUntil: 2_000, lastEnded: null, now: 1_999, code: undefined },
  { expires: null, activeUntil: null, lastEnded: 1_000, now: 1_500, code: 'grant_ended' },
  { expires: null, activeUntil: null, lastEnded: null, now: 1_500, code: 'grant_ended' },
  { expires: 1_500, activeUntil: 9_000, lastEnded: null, now: 1_500, code: 'expired_api_key' },
  { expires: 1_500, activeUntil: 9_000, lastEnded: null, now: 1_499, code: undefined },
])(
  'access at $now: expiry $expires, grant until $activeUntil → $code',
  ({ expires, activeUntil, lastEnded, now, code }) => {
    const { row } = newKeyRow({ projectId: 'p', alias: 'k' }, 'r', null, new Set(), 0);
    const key = toActiveKey({ ...row, expires }, { activeUntil, lastEnded });
    expect(accessRefusal(key, now)?.code).toBe(code);
  },
);

it('the refusal without any grant says there is none', () => {
  const { row } = newKeyRow({ projectId: 'p', alias: 'k' }, 'r', null, new Set(), 0);
  const refusal = accessRefusal(toActiveKey(row, { activeUntil: null, lastEnded: null }), 5);
  expect([refusal?.status, refusal?.message]).toEqual([
    403,
    "The project has no active grant: its API keys are refused until a grant is active. Ask the project's PI.",
  ]);
});

it('hourly use summed per day (and model); CSV quotes what needs it and defuses formulas', () => {
  const day = Date.UTC(2026, 10, 27);
  const row = (hour: number, model: string, requests: number) => ({
    hour: day + hour * HOUR,
    model,
    requests,
    prompt_tokens: 10 * requests,
    completion_tokens: requests,
    credits: 500_000 * requests,
  });
  const rows = [row(1, 'b/m', 1), row(23, 'a/m', 2), row(24, 'a/m', 3), row(2, 'a/m', 1)];
  expect(usagePerDay(rows, false).map((d) => [d.day, d.requests, d.credits])).toEqual([
    ['2026-11-27', 4, 2_000_000],
    ['2026-11-28', 3, 1_500_000],
  ]);
  const csv = usageCsv('=cmd,"x"', usagePerDay(rows, true));
  expect(csv.split('\r\n')).toEqual([
    'key,day,model,requests,prompt_tokens,completion_tokens,total_tokens,credits',
    `"'=cmd,""x""",2026-11-27,a/m,3,30,3,33,1.5`,
    `"'=cmd,""x""",2026-11-27,b/m,1,10,1,11,0.5`,
    `"'=cmd,""x""",2026-11-28,a/m,3,30,3,33,1.5`,
    '',
  ]);
});
