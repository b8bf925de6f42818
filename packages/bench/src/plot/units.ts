/**
 * A measure's numbers as people read them, for the console (browser) and the perf image (server) alike, so
 * this module imports nothing: values scaled to the measure's units (ns → µs → ms → s, ops/s → Kops/s,
 * B → KiB → MiB, counts → K → M), rounded to significant digits, Δ% against a baseline, one y axis per unit.
 */

/** One step of a unit family: `factor` in the family's smallest unit. */
interface Step {
  factor: number;
  symbol: string;
  name: string;
}

const TIME: readonly Step[] = [
  { factor: 1, symbol: 'ns', name: 'nanoseconds' },
  { factor: 1e3, symbol: 'µs', name: 'microseconds' },
  { factor: 1e6, symbol: 'ms', name: 'milliseconds' },
  { factor: 1e9, symbol: 's', name: 'seconds' },
];

const THROUGHPUT: readonly Step[] = [
  { factor: 1, symbol: 'ops/s', name: 'operations / second' },
  { factor: 1e3, symbol: 'Kops/s', name: 'thousand operations / second' },
  { factor: 1e6, symbol: 'Mops/s', name: 'million operations / second' },
  { factor: 1e9, symbol: 'Gops/s', name: 'billion operations / second' },
];

const BYTES: readonly Step[] = [
  { factor: 1, symbol: 'B', name: 'bytes' },
  { factor: 1024, symbol: 'KiB', name: 'kibibytes' },
  { factor: 1024 ** 2, symbol: 'MiB', name: 'mebibytes' },
  { factor: 1024 ** 3, symbol: 'GiB', name: 'gibibytes' },
  { factor: 1024 ** 4, symbol: 'TiB', name: 'tebibytes' },
];

/** The families by the symbol a measure's units end with, `name (symbol)` or a bare symbol. */
const FAMILIES = new Map<string, readonly Step[]>([
  ...TIME.map((step) => [step.symbol, TIME] as const),
  ['us', TIME],
  ...THROUGHPUT.map((step) => [step.symbol, THROUGHPUT] as const),
  ...BYTES.map((step) => [step.symbol, BYTES] as const),
]);

/** Symbols with the family's own spelling when it differs (`us` is µs). */
const SPELLED: Record<string, string> = { us: 'µs' };

/** Units that are already a ratio or a level: never scaled. */
const UNSCALED = new Set(['%', 'dB']);

/** Counts of anything (instructions, cycles, a custom measure): K, M, B, T. */
const COUNT_PREFIXES: readonly [number, string, string][] = [
  [1e3, 'K', 'thousand'],
  [1e6, 'M', 'million'],
  [1e9, 'B', 'billion'],
  [1e12, 'T', 'trillion'],
];

/** How to show one measure's values: divide by `factor`, append `symbol`; `label` names the scaled units. */
export interface UnitScale {
  factor: number;
  symbol: string;
  label: string;
}

/** `nanoseconds (ns)` → name `nanoseconds`, symbol `ns`; units without parentheses are their own symbol. */
export function parseUnits(units: string): { name: string; symbol: string } {
  const match = /^(.*?)\s*\(([^()]+)\)\s*$/.exec(units);
  if (!match?.[2]) return { name: units.trim(), symbol: units.trim() };
  return { name: match[1] || match[2], symbol: match[2].trim() };
}

/** The smallest nonzero magnitude among `values` (Bencher scales by it, so no value shows below 1). */
function reference(values: Iterable<number>): number | undefined {
  let least: number | undefined;
  for (const value of values) {
    const magnitude = Math.abs(value);
    if (Number.isFinite(magnitude) && magnitude > 0 && (least === undefined || magnitude < least)) least = magnitude;
  }
  return least;
}

/** The largest step under which `magnitude` (in `base`'s units) stays ≥ 1, else the smallest step. */
function pick<T>(steps: readonly T[], factorOf: (step: T) => number, magnitude: number): T {
  let chosen = steps[0] as T;
  for (const step of steps) if (magnitude >= factorOf(step)) chosen = step;
  return chosen;
}

/** The scale for a measure of `units` whose shown values are `values` (raw, in `units`). */
export function unitScale(units: string, values: Iterable<number>): UnitScale {
  const { name, symbol } = parseUnits(units);
  const identity = { factor: 1, symbol, label: units };
  const least = reference(values);
  if (least === undefined || UNSCALED.has(symbol)) return identity;
  const family = FAMILIES.get(symbol);
  if (family) {
    const base = family.find((step) => step.symbol === (SPELLED[symbol] ?? symbol)) as Step;
    const step = pick(family, (s) => s.factor, least * base.factor);
    if (step === base) return { ...identity, symbol: step.symbol };
    return { factor: step.factor / base.factor, symbol: step.symbol, label: `${step.name} (${step.symbol})` };
  }
  const prefix = pick([[1, '', ''] as const, ...COUNT_PREFIXES], ([factor]) => factor, least);
  if (prefix[0] === 1) return identity;
  const [factor, short, word] = prefix;
  return { factor, symbol: `${short} ${symbol}`, label: `${word} ${name} (${short} ${symbol})` };
}

const GROUPING = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * `value` rounded to `significant` digits, with thousands separators: 239.971937 → "240.0" at 4, 0.0012345 →
 * "0.001235"; digits before the point are never dropped (239971.9 at 4 is "239,972"); tiny and huge values in
 * e-notation.
 */
export function formatNumber(value: number, significant = 4): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  if (magnitude >= 1e21 || magnitude < 1e-6) return value.toExponential(significant - 1).replace('e+', 'e');
  const digits = Math.floor(Math.log10(magnitude)) + 1;
  if (digits >= significant) return GROUPING.format(value);
  const decimals = significant - digits;
  return new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

/** `value` in `scale`: "3.2 s", "240.0 Kops/s" (significant digits, the symbol after a space). */
export const formatScaled = (value: number, scale: UnitScale, significant = 4): string =>
  `${formatNumber(value / scale.factor, significant)} ${scale.symbol}`;

/**
 * Δ% of `value` against `baseline`, as Bencher's reports: (value − baseline) / baseline × 100; a zero baseline
 * gives 0 (no meaningful change), and value 0 against a nonzero baseline −100.
 */
export function deltaPercent(value: number, baseline: number): number {
  if (baseline === 0 || !Number.isFinite(baseline) || !Number.isFinite(value)) return 0;
  return ((value - baseline) / Math.abs(baseline)) * 100;
}

/** "+12.34 %", "−5.00 %", "0.00 %": always signed (a typographic minus), two decimals. */
export function formatPercent(percent: number): string {
  const rounded = Number(percent.toFixed(2));
  if (rounded === 0) return '0.00 %';
  return `${rounded > 0 ? '+' : '−'}${Math.abs(rounded).toFixed(2)} %`;
}

/** One y axis: the units it shows and its side (the first unit left, the second right, and so on). */
export interface UnitAxis {
  units: string;
  side: 'left' | 'right';
}

/** The y axes of a plot whose series have these units, in order of first appearance: one per distinct unit. */
export function unitAxes(units: Iterable<string>): UnitAxis[] {
  const axes: UnitAxis[] = [];
  for (const unit of units) {
    if (axes.some((axis) => axis.units === unit)) continue;
    axes.push({ units: unit, side: axes.length % 2 === 0 ? 'left' : 'right' });
  }
  return axes;
}
