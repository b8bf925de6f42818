import { formatDate } from './scale.js';
import { axisFraction, labelWidth, type YAxis, type YAxisKind, yAxes } from './y-axes.js';

/** One plotted permutation: metric values over time, optional limits, alerts marked, change points labelled. */
export interface PlotSeries {
  label: string;
  /** The measure's name and units: series of one unit share a y axis. */
  measure: string;
  units: string;
  points: { x: number; y: number; lower: number | null; upper: number | null; alert: boolean }[];
  /** Where a new regime begins (the x of its first point) and its shift, e.g. "+30.0 %". */
  changes?: { x: number; label: string }[];
}

export interface PlotInput {
  title: string;
  series: PlotSeries[];
  yAxis?: YAxisKind;
}

export const WIDTH = 1024;
export const HEIGHT = 768;
const MARGIN = { left: 24, right: 24, top: 64, bottom: 96 };
/** Between the axis line and its tick labels, and between the labels and the axis title (15 px text). */
const TICK_GAP = 8;
const TITLE_BAND = 28;
const LEGEND_LINE = 20;
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];

export const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

const path = (points: { x: number; y: number }[]) =>
  points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');

/** The room one axis takes beside the plot: tick labels, then its title. */
const axisWidth = (axis: YAxis) => TICK_GAP + Math.max(...axis.tickLabels.map(labelWidth)) + TICK_GAP + TITLE_BAND;

/** Each axis's x (its line) and where its labels and title go, the plot's left and right edges. */
function layout(axes: readonly YAxis[]) {
  const bySide = (side: 'left' | 'right') => axes.filter((axis) => axis.side === side);
  const room = (side: 'left' | 'right') => bySide(side).reduce((sum, axis) => sum + axisWidth(axis), 0);
  const left = MARGIN.left + room('left');
  const right = WIDTH - MARGIN.right - Math.max(room('right'), 8);
  const xOf = new Map<YAxis, number>();
  for (const side of ['left', 'right'] as const) {
    let x = side === 'left' ? left : right;
    for (const axis of bySide(side).sort((a, b) => a.offset - b.offset)) {
      xOf.set(axis, x);
      x += (side === 'left' ? -1 : 1) * axisWidth(axis);
    }
  }
  return { left, right, xOf };
}

function axisSvg(axis: YAxis, x: number, top: number, bottom: number, py: (axis: YAxis, y: number) => number) {
  const outward = axis.side === 'left' ? -1 : 1;
  const anchor = axis.side === 'left' ? 'end' : 'start';
  const parts = [`<line x1="${x}" x2="${x}" y1="${top}" y2="${bottom}" stroke="black"/>`];
  axis.scale.ticks.forEach((tick, i) => {
    const y = py(axis, tick * axis.unit.factor).toFixed(1);
    parts.push(
      `<line x1="${x}" x2="${x + outward * 4}" y1="${y}" y2="${y}" stroke="black"/>`,
      `<text x="${x + outward * TICK_GAP}" y="${y}" font-size="13" text-anchor="${anchor}" dominant-baseline="middle">${escapeXml(axis.tickLabels[i] as string)}</text>`,
    );
  });
  const widest = Math.max(...axis.tickLabels.map(labelWidth));
  const titleX = x + outward * (TICK_GAP + widest + TICK_GAP + TITLE_BAND / 2);
  parts.push(
    `<text transform="translate(${titleX} ${(top + bottom) / 2}) rotate(${-90 * -outward})" font-size="15" text-anchor="middle" dominant-baseline="middle">${escapeXml(axis.title)}</text>`,
  );
  return parts.join('');
}

/**
 * An SVG line plot: title, one y axis per unit (left, right, then outside them) with the values scaled to it,
 * one series per permutation, dashed limits, alerts marked.
 */
export function lineChartSvg(input: PlotInput): string {
  const legendHeight = input.series.length * LEGEND_LINE;
  const all = input.series.flatMap((series) => series.points);
  const title = `<text x="${WIDTH / 2}" y="40" font-size="24" text-anchor="middle">${escapeXml(input.title)}</text>`;
  if (all.length === 0) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="white"/>${title}<text x="${WIDTH / 2}" y="${HEIGHT / 2}" font-size="32" text-anchor="middle" fill="#666">No Data Found</text></svg>`;
  }
  const drawn = input.series.filter((series) => series.points.length > 0);
  const axes = yAxes(
    drawn.map((series) => ({
      name: series.measure,
      units: series.units,
      values: series.points.flatMap((p) => [p.y, p.lower, p.upper].filter((y): y is number => y !== null)),
    })),
    input.yAxis ?? 'linear',
  );
  const axisOf = (series: PlotSeries) => axes.find((axis) => axis.units === series.units) as YAxis;
  const { left, right, xOf } = layout(axes);
  const plot = { left, top: MARGIN.top, right, bottom: HEIGHT - MARGIN.bottom - legendHeight };
  const xMin = Math.min(...all.map((point) => point.x));
  const xMax = Math.max(...all.map((point) => point.x));
  const xSpan = xMax - xMin || 1;
  const px = (x: number) => plot.left + ((x - (xMax === xMin ? x - 0.5 : xMin)) / xSpan) * (plot.right - plot.left);
  const py = (axis: YAxis, y: number) => plot.bottom - axisFraction(axis, y) * (plot.bottom - plot.top);
  const parts: string[] = [];
  parts.push(`<rect width="100%" height="100%" fill="white"/>`, title);
  const first = axes[0] as YAxis;
  for (const tick of first.scale.ticks) {
    const y = py(first, tick * first.unit.factor).toFixed(1);
    parts.push(`<line x1="${plot.left}" x2="${plot.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`);
  }
  for (let i = 0; i <= 4; i++) {
    const x = xMin + (xSpan * i) / 4;
    parts.push(
      `<text x="${px(x).toFixed(1)}" y="${plot.bottom + 20}" font-size="12" text-anchor="${i === 0 ? 'start' : i === 4 ? 'end' : 'middle'}">${formatDate(x)}</text>`,
    );
  }
  for (const axis of axes) parts.push(axisSvg(axis, xOf.get(axis) as number, plot.top, plot.bottom, py));
  parts.push(
    `<line x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="black"/>`,
    `<text x="${(plot.left + plot.right) / 2}" y="${plot.bottom + 48}" font-size="15" text-anchor="middle">Benchmark Date and Time</text>`,
  );
  input.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const axis = axisOf(series);
    const points = series.points.map((point) => ({ ...point, px: px(point.x), py: py(axis, point.y) }));
    for (const side of ['lower', 'upper'] as const) {
      const limit = series.points.flatMap((point) =>
        point[side] === null ? [] : [{ x: px(point.x), y: py(axis, point[side]) }],
      );
      if (limit.length > 1) {
        parts.push(
          `<path d="${path(limit)}" fill="none" stroke="${color}" stroke-width="1.5" stroke-dasharray="6 4" opacity="0.8"/>`,
        );
      }
    }
    for (const change of series.changes ?? []) {
      const x = px(change.x).toFixed(1);
      parts.push(
        `<line x1="${x}" x2="${x}" y1="${plot.top}" y2="${plot.bottom}" stroke="${color}" stroke-width="1.5" stroke-dasharray="3 3"/>`,
        `<text x="${x}" y="${plot.top - 6}" font-size="12" fill="${color}" text-anchor="middle">${escapeXml(change.label)}</text>`,
      );
    }
    parts.push(
      `<path d="${path(points.map((point) => ({ x: point.px, y: point.py })))}" fill="none" stroke="${color}" stroke-width="2"/>`,
    );
    for (const point of points) {
      parts.push(
        point.alert
          ? `<circle cx="${point.px.toFixed(1)}" cy="${point.py.toFixed(1)}" r="7" fill="none" stroke="#d62728" stroke-width="3"/>`
          : `<circle cx="${point.px.toFixed(1)}" cy="${point.py.toFixed(1)}" r="2.5" fill="${color}"/>`,
      );
    }
    const y = HEIGHT - MARGIN.bottom / 2 - legendHeight + index * LEGEND_LINE + 24;
    parts.push(
      `<line x1="${plot.left}" x2="${plot.left + 28}" y1="${y}" y2="${y}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${plot.left + 36}" y="${y}" font-size="13" dominant-baseline="middle">${escapeXml(series.label)}</text>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="DejaVu Sans">${parts.join('')}</svg>`;
}
