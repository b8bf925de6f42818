import { fractionOf, logScale, niceScale, type Scale } from './scale.js';
import { type UnitAxis, type UnitScale, unitAxes, unitScale } from './units.js';

/** How the y axes are scaled: linear, logarithmic, or logarithmic when the values span three decades or more. */
export type YAxisKind = 'linear' | 'log' | 'auto';

/** The values one series draws (metrics and limits), raw, in its measure's units. */
export interface AxisSeries {
  name: string;
  units: string;
  values: number[];
}

/** One y axis of a plot: its side and position among the axes on that side, its scale and its labels. */
export interface YAxis extends UnitAxis {
  /** 0 next to the plot, 1 outside it, … */
  offset: number;
  units: string;
  unit: UnitScale;
  scale: Scale;
  title: string;
  tickLabels: string[];
}

/** A tick label's width in pixels at 13 px (DejaVu Sans digits are about 0.64 em wide). */
export const labelWidth = (text: string) => Math.ceil(text.length * 8.3);

const TICK = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

/** A tick as its digits show it, all of them, grouped: 200,000,000; 0.25; 1e-9 for the tiny. */
export const tickLabel = (tick: number) =>
  tick !== 0 && Math.abs(tick) < 1e-6 ? tick.toExponential().replace('e+', 'e') : TICK.format(tick);

function scaleOf(values: number[], kind: YAxisKind): { scale: Scale; note: string } {
  const low = Math.min(...values);
  const high = Math.max(...values);
  const positive = low > 0;
  if (kind === 'log' && !positive) return { scale: niceScale(low, high), note: ' — linear: log needs values above 0' };
  if (kind === 'log' || (kind === 'auto' && positive && high / low >= 1000)) {
    return { scale: logScale(low, high), note: ' (log)' };
  }
  return { scale: niceScale(low, high), note: '' };
}

/**
 * One y axis per unit among `series` (Bencher's left and right axes): the first unit on the left, the second on the
 * right, further ones outside those. Values are shown in the unit's scale (ns → µs → ms → s, …), ticks with all
 * their digits; an axis asked to be logarithmic over a value ≤ 0 stays linear and says so in its title.
 */
export function yAxes(series: readonly AxisSeries[], kind: YAxisKind): YAxis[] {
  return unitAxes(series.map((s) => s.units)).map((axis, index) => {
    const own = series.filter((s) => s.units === axis.units);
    const values = own.flatMap((s) => s.values);
    const unit = unitScale(axis.units, values);
    const { scale, note } = scaleOf(
      values.map((value) => value / unit.factor),
      kind,
    );
    const names = [...new Set(own.map((s) => s.name))].join(', ');
    return {
      ...axis,
      offset: Math.floor(index / 2),
      unit,
      scale,
      title: `${names}: ${unit.label}${note}`,
      tickLabels: scale.ticks.map(tickLabel),
    };
  });
}

/** Where a raw value of the axis's units lies on it, 0 (bottom) to 1 (top). */
export const axisFraction = (axis: YAxis, value: number) => fractionOf(axis.scale, value / axis.unit.factor);
