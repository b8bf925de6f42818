import { formatDate, formatTick, fractionOf, niceScale } from './scale.js';

/** One plotted permutation: metric values over time, optional limits, alerts marked, change points labelled. */
export interface PlotSeries {
  label: string;
  points: { x: number; y: number; lower: number | null; upper: number | null; alert: boolean }[];
  /** Where a new regime begins (the x of its first point) and its shift, e.g. "+30.0 %". */
  changes?: { x: number; label: string }[];
}

export interface PlotInput {
  title: string;
  yLabel: string;
  series: PlotSeries[];
}

export const WIDTH = 1024;
export const HEIGHT = 768;
const MARGIN = { left: 96, right: 32, top: 64, bottom: 96 };
const LEGEND_LINE = 20;
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];

export const escapeXml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] as string,
  );

const path = (points: { x: number; y: number }[]) =>
  points.map((point, index) => `${index === 0 ? 'M' : 'L'}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(' ');

/** An SVG line plot: title, axes with units, one series per permutation, dashed limits, alerts marked. */
export function lineChartSvg(input: PlotInput): string {
  const legendHeight = input.series.length * LEGEND_LINE;
  const plot = {
    left: MARGIN.left,
    top: MARGIN.top,
    right: WIDTH - MARGIN.right,
    bottom: HEIGHT - MARGIN.bottom - legendHeight,
  };
  const all = input.series.flatMap((series) => series.points);
  const title = `<text x="${WIDTH / 2}" y="40" font-size="24" text-anchor="middle">${escapeXml(input.title)}</text>`;
  if (all.length === 0) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}"><rect width="100%" height="100%" fill="white"/>${title}<text x="${WIDTH / 2}" y="${HEIGHT / 2}" font-size="32" text-anchor="middle" fill="#666">No Data Found</text></svg>`;
  }
  const ys = all.flatMap((point) => [point.y, point.lower, point.upper].filter((y): y is number => y !== null));
  const xMin = Math.min(...all.map((point) => point.x));
  const xMax = Math.max(...all.map((point) => point.x));
  const xSpan = xMax - xMin || 1;
  const yScale = niceScale(Math.min(...ys), Math.max(...ys));
  const px = (x: number) => plot.left + ((x - (xMax === xMin ? x - 0.5 : xMin)) / xSpan) * (plot.right - plot.left);
  const py = (y: number) => plot.bottom - fractionOf(yScale, y) * (plot.bottom - plot.top);
  const parts: string[] = [];
  parts.push(`<rect width="100%" height="100%" fill="white"/>`, title);
  for (const tick of yScale.ticks) {
    const y = py(tick).toFixed(1);
    parts.push(
      `<line x1="${plot.left}" x2="${plot.right}" y1="${y}" y2="${y}" stroke="#e5e5e5"/>`,
      `<text x="${plot.left - 8}" y="${y}" font-size="13" text-anchor="end" dominant-baseline="middle">${formatTick(tick)}</text>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const x = xMin + (xSpan * i) / 4;
    parts.push(
      `<text x="${px(x).toFixed(1)}" y="${plot.bottom + 20}" font-size="12" text-anchor="${i === 0 ? 'start' : i === 4 ? 'end' : 'middle'}">${formatDate(x)}</text>`,
    );
  }
  parts.push(
    `<line x1="${plot.left}" x2="${plot.left}" y1="${plot.top}" y2="${plot.bottom}" stroke="black"/>`,
    `<line x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="black"/>`,
    `<text x="${(plot.left + plot.right) / 2}" y="${plot.bottom + 48}" font-size="15" text-anchor="middle">Benchmark Date and Time</text>`,
    `<text transform="translate(24 ${(plot.top + plot.bottom) / 2}) rotate(-90)" font-size="15" text-anchor="middle">${escapeXml(input.yLabel)}</text>`,
  );
  input.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const points = series.points.map((point) => ({ ...point, px: px(point.x), py: py(point.y) }));
    for (const side of ['lower', 'upper'] as const) {
      const limit = series.points.flatMap((point) =>
        point[side] === null ? [] : [{ x: px(point.x), y: py(point[side]) }],
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
