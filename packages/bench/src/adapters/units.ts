/** Unit conversion and number parsing shared by the text adapters. */

import { nestsDeeperThan } from '@atrium/core';

const NANOSECONDS: Readonly<Record<string, number>> = {
  ps: 0.001,
  ns: 1,
  μs: 1e3,
  µs: 1e3,
  us: 1e3,
  ms: 1e6,
  s: 1e9,
};

/** Nanoseconds per unit (`ps`, `ns`, `μs`/`µs`/`us`, `ms`, `s`), undefined for anything else. */
export const nanosecondsPer = (unit: string): number | undefined => NANOSECONDS[unit];

/** Parses `3,161` or `41.731` (thousands separators ignored); undefined when not a number. */
export function parseNumber(text: string): number | undefined {
  if (!/^[+-]?(\d[\d,]*)?(\.\d+)?([eE][+-]?\d+)?$/.test(text) || !/\d/.test(text)) return undefined;
  const value = Number(text.replaceAll(',', ''));
  return Number.isFinite(value) ? value : undefined;
}

/** `[\d,]*\.?\d+` without its quadratic backtracking: the digit run cannot be split two ways. */
export const NUMBER = '[+-]?[\\d,]*(?:\\.\\d+|\\d)(?:[eE][+-]?\\d+)?';
export const TIME_UNIT = '(?:ps|ns|μs|µs|us|ms|s)';

/** `magic` hands the same input to every adapter: the last split and parse are kept for the next one. */
let lastSplit: { input: string; lines: readonly string[] } | undefined;
let lastParse: { input: string; document: unknown } | undefined;

export function lines(input: string): readonly string[] {
  if (lastSplit?.input !== input) lastSplit = { input, lines: input.split(/\r?\n/) };
  return lastSplit.lines;
}

/** The characters of the regular-expression class `\s`. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * Where the whitespace before the `count`-th last token of `line.slice(0, end)` begins (tokens are
 * separated by whitespace), or -1 when there is no such whitespace. A name followed by `count` tokens
 * ends there: this scan replaces `^(.*?)\s+token…$`, which backtracks quadratically on long lines.
 */
export function tailStart(line: string, count: number, end = line.length): number {
  let i = end;
  while (i > 0 && isSpace(line.charCodeAt(i - 1))) i--;
  for (let token = 0; token < count; token++) {
    if (token > 0) while (i > 0 && isSpace(line.charCodeAt(i - 1))) i--;
    const tokenEnd = i;
    while (i > 0 && !isSpace(line.charCodeAt(i - 1))) i--;
    if (i === tokenEnd) return -1;
  }
  if (i === 0 || !isSpace(line.charCodeAt(i - 1))) return -1;
  while (i > 0 && isSpace(line.charCodeAt(i - 1))) i--;
  return i;
}

/** Whether a name may be what `.*` matched: `.` matches no line terminator. */
export const isSingleLine = (name: string): boolean => !/[\r\u2028\u2029]/.test(name);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** serde_json's recursion limit, which Bencher's adapters inherit; deeper documents are not parsed at all. */
const MAX_JSON_DEPTH = 128;

/** JSON.parse that answers undefined instead of throwing. Adapters only read the document. */
export function parseJson(input: string): unknown {
  if (lastParse?.input !== input) {
    let document: unknown;
    try {
      document = nestsDeeperThan(input, MAX_JSON_DEPTH) ? undefined : JSON.parse(input);
    } catch {
      document = undefined;
    }
    lastParse = { input, document };
  }
  return lastParse.document;
}
