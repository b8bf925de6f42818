// The perf plot: uPlot (canvas) with one line per permutation, one y axis per unit (left, right, …) scaled to
// it (ns → ms, ops/s → Kops/s), boundary limits as dashed lines, active alerts as red markers, change points as
// dotted vertical lines labelled with their shift, a tooltip for the nearest point and a legend that toggles series.
import type uPlot from 'uplot';
import type { JsonChangePoint, JsonPerf, JsonPerfMetric, JsonPerfResult } from '../../wire/types.js';
import { changePointText, shiftText } from './change-point.js';
import { esc, uri } from './dom.js';
import {
  deltaPercent,
  formatNumber,
  formatPercent,
  formatScaled,
  type UnitAxis,
  type UnitScale,
  unitAxes,
  unitScale,
} from './units.js';

export const COLOURS = [
  '#4e79a7',
  '#e15759',
  '#59a14f',
  '#f28e2b',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#79706e',
];

const FIRST_PLOT = 'atrium:first-plot';

/** Marks the page's first drawn plot: navigation to this mark is the time bench/bench-console.ts reports. */
const markFirstPlot = () => {
  if (!performance.getEntriesByName(FIRST_PLOT).length) performance.mark(FIRST_PLOT);
};

export interface PlotOptions {
  xAxis: 'date_time' | 'version';
  yAxis: string;
  lowerValue: boolean;
  upperValue: boolean;
  lowerBoundary: boolean;
  upperBoundary: boolean;
  width: number;
  height?: number;
  /** Where the plot's links go: `/perf/{p}` or `/console/projects/{p}`. */
  base: string;
}

type LineKind = 'value' | 'lowerValue' | 'upperValue' | 'lowerBoundary' | 'upperBoundary';

interface Line {
  label: string;
  colour: string;
  kind: LineKind;
  /** The metric at each x (null where the permutation has none). */
  metrics: (JsonPerfMetric | null)[];
  values: (number | null)[];
  result: JsonPerfResult;
  /** The uPlot scale of the line's units. */
  scale: string;
  dash?: number[];
}

const xOf = (metric: JsonPerfMetric, xAxis: PlotOptions['xAxis']) =>
  xAxis === 'version' ? metric.version.number : Date.parse(metric.start_time) / 1000;

export const resultLabel = (result: JsonPerfResult) =>
  `${result.benchmark.name} · ${result.branch.name} · ${result.testbed.name} · ${result.measure.name}`;

/** The change points of a result (an extension field, present when there are any). */
export const changePointsOf = (result: JsonPerfResult): JsonChangePoint[] =>
  ('change_points' in result ? result.change_points : undefined) ?? [];

const EXTRA: readonly [
  Exclude<LineKind, 'value'>,
  string,
  (m: JsonPerfMetric) => number | null | undefined,
  number[],
][] = [
  ['lowerValue', 'lower value', (m) => m.metric.lower_value, [2, 3]],
  ['upperValue', 'upper value', (m) => m.metric.upper_value, [2, 3]],
  ['lowerBoundary', 'lower limit', (m) => m.boundary?.lower_limit, [8, 4]],
  ['upperBoundary', 'upper limit', (m) => m.boundary?.upper_limit, [8, 4]],
];

/** The scale key of the axis of `units`. */
const scaleKey = (axes: UnitAxis[], units: string) => `y${axes.findIndex((axis) => axis.units === units)}`;

/** uPlot's data (one x array shared by all series) and, per line, the metric behind each point. */
export function plotData(results: JsonPerfResult[], options: PlotOptions) {
  const xs = [...new Set(results.flatMap((result) => result.metrics.map((metric) => xOf(metric, options.xAxis))))].sort(
    (a, b) => a - b,
  );
  const at = new Map(xs.map((x, i) => [x, i]));
  const axes = unitAxes(results.map((result) => result.measure.units));
  const lines: Line[] = [];
  for (const [index, result] of results.entries()) {
    const colour = COLOURS[index % COLOURS.length] as string;
    const scale = scaleKey(axes, result.measure.units);
    const metrics = new Array<JsonPerfMetric | null>(xs.length).fill(null);
    for (const metric of result.metrics) metrics[at.get(xOf(metric, options.xAxis)) as number] = metric;
    const values = (pick: (m: JsonPerfMetric) => number | null | undefined) =>
      metrics.map((metric) => (metric ? (pick(metric) ?? null) : null));
    const label = `${index + 1}. ${resultLabel(result)}`;
    lines.push({ label, colour, metrics, values: values((m) => m.metric.value), result, kind: 'value', scale });
    for (const [kind, name, pick, dash] of EXTRA) {
      if (options[kind])
        lines.push({
          label: `${index + 1}. ${name}`,
          colour,
          metrics,
          values: values(pick),
          dash,
          kind,
          result,
          scale,
        });
    }
  }
  return { xs, lines, axes };
}

/** The change point whose new regime starts at this metric, if any. */
const changeAt = (line: Line, metric: JsonPerfMetric) =>
  changePointsOf(line.result).find((change) => change.to_metric === metric.metric.uuid);

/** The value with its Δ% against the baseline when it has one: "240.0 Kops/s (+3.21 %)". */
export function valueText(value: number, baseline: number | null | undefined, scale: UnitScale): string {
  const shown = formatScaled(value, scale);
  return baseline === null || baseline === undefined
    ? shown
    : `${shown} (${formatPercent(deltaPercent(value, baseline))})`;
}

function tooltipHtml(line: Line, metric: JsonPerfMetric, scale: UnitScale, base: string) {
  const boundary = metric.boundary;
  const scaled = (value: number | null | undefined) =>
    value === null || value === undefined ? undefined : formatScaled(value, scale);
  const rows: [string, string | undefined][] = [
    ['Value', valueText(metric.metric.value, boundary?.baseline, scale)],
    ['Baseline', scaled(boundary?.baseline)],
    ['Lower value', scaled(metric.metric.lower_value)],
    ['Upper value', scaled(metric.metric.upper_value)],
    ['Lower limit', scaled(boundary?.lower_limit)],
    ['Upper limit', scaled(boundary?.upper_limit)],
    ['Version', `${metric.version.number}${metric.version.hash ? ` (${metric.version.hash.slice(0, 12)})` : ''}`],
    ['Date', metric.start_time],
  ];
  const change = changeAt(line, metric);
  if (change) rows.push(['Change point', changePointText(change)]);
  const alert = metric.alert
    ? `<div><strong>🚨 ${esc(metric.alert.status)} alert</strong> — <a href="${esc(base + uri`/alerts/${metric.alert.uuid}`)}">view alert</a></div>`
    : '';
  return `<strong>${esc(line.label)}</strong><table>${rows
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<tr><th>${esc(name)}</th><td>${esc(value)}</td></tr>`)
    .join('')}</table>${alert}<a href="${esc(base + uri`/reports/${metric.report}`)}">view report</a>`;
}

const FONT = '12px system-ui, sans-serif';

/** An axis wide enough for its longest tick label, so that the title never overlaps the labels. */
function axisSize(self: uPlot, values: string[] | null): number {
  self.ctx.save();
  self.ctx.font = FONT;
  const widest = Math.max(0, ...(values ?? []).map((value) => self.ctx.measureText(value).width));
  self.ctx.restore();
  return Math.ceil(widest) + 16;
}

/** The y axis of one unit: its scaled units as title (with the measures drawn on it), its side. */
function yAxis(axis: UnitAxis, key: string, scale: UnitScale, measures: string[]): uPlot.Axis {
  return {
    scale: key,
    side: axis.side === 'left' ? 3 : 1,
    label: `${measures.join(', ')}: ${scale.label}`,
    labelSize: 20,
    font: FONT,
    grid: { show: axis.side === 'left' },
    values: (_self, ticks) => ticks.map((tick) => formatNumber(tick / scale.factor, 3)),
    size: (self, values) => axisSize(self, values),
  };
}

/** How a log y axis is drawn: linear when a value line has values ≤ 0; without the limits ≤ 0 otherwise. */
function logPlan(lines: Line[], scale: string) {
  const onAxis = lines.filter((line) => line.scale === scale);
  const nonPositive = (line: Line) => line.values.filter((value) => value !== null && value <= 0).length;
  const values = onAxis.filter((line) => line.kind === 'value').reduce((n, line) => n + nonPositive(line), 0);
  const others = onAxis.filter((line) => line.kind !== 'value').reduce((n, line) => n + nonPositive(line), 0);
  return { log: values === 0, values, others };
}

/** Draws the plot into `root`; returns the uPlot instance. */
export function drawPlot(root: HTMLElement, perf: JsonPerf, options: PlotOptions): uPlot {
  const { xs, lines, axes } = plotData(perf.results, options);
  const notes: string[] = [];
  const scales: Record<string, uPlot.Scale> = { x: { time: options.xAxis !== 'version' } };
  const units = new Map<string, UnitScale>();
  const yAxes: uPlot.Axis[] = [];
  for (const axis of axes) {
    const key = scaleKey(axes, axis.units);
    const onAxis = lines.filter((line) => line.scale === key);
    const scale = unitScale(
      axis.units,
      onAxis.flatMap((line) => line.values.filter((v): v is number => v !== null)),
    );
    units.set(key, scale);
    const measures = [...new Set(onAxis.map((line) => line.result.measure.name))];
    yAxes.push(yAxis(axis, key, scale, measures));
    scales[key] = {};
    if (options.yAxis !== 'log') continue;
    const plan = logPlan(lines, key);
    if (plan.log) {
      scales[key] = { distr: 3 };
      // A log scale has no place for 0 or less: those limits are left out, and the note says so.
      for (const line of onAxis)
        line.values = line.values.map((value) => (value !== null && value <= 0 ? null : value));
      if (plan.others)
        notes.push(
          `Log scale (${measures.join(', ')}): ${plan.others} limit or bound value${plan.others === 1 ? '' : 's'} ≤ 0 not drawn.`,
        );
    } else {
      notes.push(
        `Log scale (${measures.join(', ')}) needs positive values: ${plan.values} value${plan.values === 1 ? ' is' : 's are'} ≤ 0, so this axis is linear.`,
      );
    }
  }
  const tooltip = document.createElement('div');
  tooltip.className = 'plot-tip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.hidden = true;
  let hovered: { distance: number; line: Line; metric: JsonPerfMetric } | null = null;
  const shown = (u: uPlot, i: number) => u.series[i + 1]?.show !== false;
  const alertMarkers = (u: uPlot) => {
    const { ctx } = u;
    ctx.save();
    for (const [i, line] of lines.entries()) {
      if (line.kind !== 'value' || !shown(u, i)) continue;
      for (const [j, metric] of line.metrics.entries()) {
        if (metric?.alert?.status !== 'active') continue;
        const x = u.valToPos(xs[j] as number, 'x', true);
        const y = u.valToPos(metric.metric.value, line.scale, true);
        ctx.fillStyle = '#c40000';
        ctx.beginPath();
        ctx.moveTo(x, y - 9);
        ctx.lineTo(x - 7, y + 5);
        ctx.lineTo(x + 7, y + 5);
        ctx.closePath();
        ctx.fill();
      }
    }
    ctx.restore();
  };
  const changeMarkers = (u: uPlot) => {
    const { ctx } = u;
    const { top, height } = u.bbox;
    ctx.save();
    ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
    for (const [i, line] of lines.entries()) {
      if (line.kind !== 'value' || !shown(u, i)) continue;
      for (const [j, metric] of line.metrics.entries()) {
        const change = metric && changeAt(line, metric);
        if (!change) continue;
        const x = u.valToPos(xs[j] as number, 'x', true);
        ctx.strokeStyle = line.colour;
        ctx.lineWidth = devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, top + height);
        ctx.stroke();
        ctx.fillStyle = line.colour;
        ctx.fillText(shiftText(change), x + 3 * devicePixelRatio, top + 12 * devicePixelRatio);
      }
    }
    ctx.restore();
  };
  const nearest = (u: uPlot) => {
    const j = u.cursor.idx;
    if (j === null || j === undefined) return null;
    let best: typeof hovered = null;
    for (const [i, line] of lines.entries()) {
      const value = line.values[j];
      const metric = line.metrics[j];
      if (value === null || value === undefined || !shown(u, i) || !metric) continue;
      const distance = Math.abs(u.valToPos(value, line.scale) - (u.cursor.top ?? 0));
      if (!best || distance < best.distance) best = { distance, line, metric };
    }
    return best;
  };
  const opts: uPlot.Options = {
    width: options.width,
    height: options.height ?? 380,
    scales,
    axes: [{ label: options.xAxis === 'version' ? 'Branch version number' : 'Report date', font: FONT }, ...yAxes],
    series: [
      {},
      ...lines.map((line) => ({
        label: line.label,
        scale: line.scale,
        stroke: line.colour,
        width: line.dash ? 1.5 : 2,
        alpha: line.dash ? 0.7 : 1,
        spanGaps: true,
        points: { show: line.kind === 'value' && xs.length < 400, size: 5 },
        value: (_self: uPlot, value: number | null) =>
          value === null ? '—' : formatScaled(value, units.get(line.scale) as UnitScale),
        ...(line.dash ? { dash: line.dash } : {}),
      })),
    ],
    legend: { live: false },
    hooks: {
      draw: [changeMarkers, alertMarkers, markFirstPlot],
      setCursor: [
        (u) => {
          hovered = nearest(u);
          tooltip.hidden = !hovered;
          if (!hovered) return;
          tooltip.innerHTML = tooltipHtml(
            hovered.line,
            hovered.metric,
            units.get(hovered.line.scale) as UnitScale,
            options.base,
          );
          const left = Math.min((u.cursor.left ?? 0) + 12, u.over.clientWidth - 220);
          tooltip.style.left = `${Math.max(0, left)}px`;
          tooltip.style.top = `${(u.cursor.top ?? 0) + 12}px`;
        },
      ],
    },
  };
  root.innerHTML = '';
  const UPlot = (globalThis as unknown as { uPlot: typeof uPlot }).uPlot;
  const plot = new UPlot(opts, [xs, ...lines.map((line) => line.values)] as uPlot.AlignedData, root);
  plot.over.appendChild(tooltip);
  plot.over.addEventListener('click', () => {
    if (!hovered) return;
    location.href = hovered.metric.alert
      ? options.base + uri`/alerts/${hovered.metric.alert.uuid}`
      : options.base + uri`/reports/${hovered.metric.report}`;
  });
  for (const note of notes) {
    const p = document.createElement('p');
    p.className = 'notice';
    p.dataset.testid = 'plot-note';
    p.textContent = note;
    root.appendChild(p);
  }
  return plot;
}
