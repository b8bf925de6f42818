/** Unit conversion and number parsing shared by the text adapters. */

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

export const NUMBER = '[+-]?[\\d,]*\\.?\\d+(?:[eE][+-]?\\d+)?';
export const TIME_UNIT = '(?:ps|ns|μs|µs|us|ms|s)';

export const lines = (input: string): string[] => input.split(/\r?\n/);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** JSON.parse that answers undefined instead of throwing. */
export function parseJson(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    return undefined;
  }
}
