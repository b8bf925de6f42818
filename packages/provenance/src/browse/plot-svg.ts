import { type Html, html } from '@atrium/core';

/** Points drawn per series at most, and series per plot: a plot stays a few hundred KB whatever the array. */
export const MAX_POINTS = 800;
export const MAX_SERIES = 60;

export interface Plot {
  /** One y array per series; x is the index unless `x` is given (shared by every series). */
  series: number[][];
  x?: number[];
  /** Vertical marks (BandsData's high-symmetry points) at x positions. */
  marks?: { at: number; label: string }[];
  yLabel?: string;
}

/** Every `step`-th index (and the last) so that at most `MAX_POINTS` remain. */
export function sampleIndexes(length: number): number[] {
  const step = Math.max(1, Math.ceil(length / MAX_POINTS));
  const indexes: number[] = [];
  for (let i = 0; i < length; i += step) indexes.push(i);
  if (length > 0 && indexes[indexes.length - 1] !== length - 1) indexes.push(length - 1);
  return indexes;
}

/** Up to six round tick values covering [low, high]. */
export function ticks(low: number, high: number): number[] {
  if (!(high > low)) return [low];
  const raw = (high - low) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const values: number[] = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(Number(v.toPrecision(12)));
  return values;
}

const finite = (values: number[]) => values.filter((v) => Number.isFinite(v));
const label = (v: number) => (Math.abs(v) >= 1e5 || (v !== 0 && Math.abs(v) < 1e-3) ? v.toExponential(2) : String(v));

/** Lines of each series over a shared x axis, with ticks and marks. */
export function plotSvg(plot: Plot, width = 640, height = 320): Html {
  const series = plot.series.slice(0, MAX_SERIES);
  const length = Math.max(0, ...series.map((s) => s.length));
  const xOf = (i: number) => plot.x?.[i] ?? i;
  const indexes = sampleIndexes(length);
  const ys = finite(series.flatMap((s) => indexes.map((i) => s[i] ?? Number.NaN)));
  const xs = finite(indexes.map(xOf));
  const [x0, x1] = [Math.min(...xs, 0), Math.max(...xs, 1)];
  const [y0, y1] = ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1];
  const yPad = y1 > y0 ? 0 : 1;
  const left = 64;
  const right = 12;
  const top = 12;
  const bottom = 36;
  const px = (x: number) => left + ((x - x0) / (x1 - x0 || 1)) * (width - left - right);
  const py = (y: number) => top + (1 - (y - (y0 - yPad)) / (y1 - y0 + 2 * yPad || 1)) * (height - top - bottom);
  const lines = series.map((s, n) => {
    const points = indexes
      .filter((i) => Number.isFinite(s[i]))
      .map((i) => `${px(xOf(i)).toFixed(1)},${py(s[i] as number).toFixed(1)}`)
      .join(' ');
    return html`<polyline class="s${n % 6}" points="${points}"/>`;
  });
  const yTicks = ticks(y0 - yPad, y1 + yPad).map(
    (v) =>
      html`<line class="grid" x1="${left}" x2="${width - right}" y1="${py(v).toFixed(1)}" y2="${py(v).toFixed(1)}"/><text class="ytick" x="${left - 6}" y="${(py(v) + 4).toFixed(1)}">${label(v)}</text>`,
  );
  const xTicks = plot.marks?.length
    ? []
    : ticks(x0, x1).map(
        (v) => html`<text class="xtick" x="${px(v).toFixed(1)}" y="${height - bottom + 16}">${label(v)}</text>`,
      );
  const marks = (plot.marks ?? []).map(
    (m) =>
      html`<line class="mark" x1="${px(m.at).toFixed(1)}" x2="${px(m.at).toFixed(1)}" y1="${top}" y2="${height - bottom}"/><text class="xtick" x="${px(m.at).toFixed(1)}" y="${height - bottom + 16}">${m.label}</text>`,
  );
  return html`<svg class="plot" role="img" aria-label="${plot.yLabel ?? 'plot'}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">${yTicks}${marks}<rect class="frame" x="${left}" y="${top}" width="${width - left - right}" height="${height - top - bottom}"/>${lines}${xTicks}</svg>`;
}
