/** Axis arithmetic for the perf plot (pure). */

export interface Scale {
  min: number;
  max: number;
  ticks: number[];
  /** Logarithmic: `min`, `max` and the ticks are values, placed by their base-10 logarithm. */
  log?: boolean;
}

/** A logarithmic scale over whole decades covering [min, max] (both > 0), a tick on each decade. */
export function logScale(min: number, max: number): Scale {
  let low = Math.floor(Math.log10(min));
  let high = Math.ceil(Math.log10(max));
  if (low === high) {
    low -= 1;
    high += 1;
  }
  const ticks = Array.from({ length: high - low + 1 }, (_, i) => Number((10 ** (low + i)).toPrecision(12)));
  return { min: 10 ** low, max: 10 ** high, ticks, log: true };
}

/** "Nice" ticks (1, 2, 5 × 10^k) covering [min, max]; a flat range is widened around its value. */
export function niceScale(min: number, max: number, count = 5): Scale {
  let low = min;
  let high = max;
  if (!(Number.isFinite(low) && Number.isFinite(high))) return { min: 0, max: 1, ticks: [0, 1] };
  if (low === high) {
    const pad = Math.abs(low) * 0.1 || 1;
    low -= pad;
    high += pad;
  }
  // Divided first: near ±Number.MAX_VALUE the width itself overflows.
  const rough = high / count - low / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((factor) => factor * magnitude >= rough) ?? 10) * magnitude;
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  if (!Number.isFinite(start + end + step)) {
    return {
      min: low,
      max: high,
      ticks: Array.from({ length: count + 1 }, (_, i) => low * (1 - i / count) + high * (i / count)),
    };
  }
  const ticks: number[] = [];
  for (let tick = start; tick <= end + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { min: start, max: end, ticks };
}

/** Where `value` lies between the scale's ends, 0 to 1, without overflowing near ±Number.MAX_VALUE. */
export const fractionOf = (scale: Scale, value: number): number =>
  scale.log
    ? (Math.log10(value) - Math.log10(scale.min)) / (Math.log10(scale.max) - Math.log10(scale.min))
    : (value / 2 - scale.min / 2) / (scale.max / 2 - scale.min / 2);

export function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
