// The perf plot: uPlot (canvas) with one line per permutation, boundary limits as dashed lines, active
// alerts as red markers, change points as dotted vertical lines labelled with their shift, a tooltip for the
// nearest point and a legend that toggles series.
import { changePointText, shiftText } from './change-point.js';
import { esc, uri } from './dom.js';

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

const xOf = (metric, xAxis) => (xAxis === 'version' ? metric.version.number : Date.parse(metric.start_time) / 1000);

export const resultLabel = (result) =>
  `${result.benchmark.name} · ${result.branch.name} · ${result.testbed.name} · ${result.measure.name}`;

/** uPlot's data (one x array shared by all series) and, per line, the metric behind each point. */
export function plotData(results, options) {
  const xs = [...new Set(results.flatMap((result) => result.metrics.map((metric) => xOf(metric, options.xAxis))))].sort(
    (a, b) => a - b,
  );
  const at = new Map(xs.map((x, i) => [x, i]));
  const lines = [];
  for (const [index, result] of results.entries()) {
    const colour = COLOURS[index % COLOURS.length];
    const label = `${index + 1}. ${resultLabel(result)}`;
    const metrics = new Array(xs.length).fill(null);
    for (const metric of result.metrics) metrics[at.get(xOf(metric, options.xAxis))] = metric;
    const values = (pick) => metrics.map((metric) => (metric ? (pick(metric) ?? null) : null));
    lines.push({ label, colour, metrics, values: values((m) => m.metric.value), result, kind: 'value' });
    const extra = [
      ['lowerValue', 'lower value', (m) => m.metric.lower_value, [2, 3]],
      ['upperValue', 'upper value', (m) => m.metric.upper_value, [2, 3]],
      ['lowerBoundary', 'lower limit', (m) => m.boundary?.lower_limit, [8, 4]],
      ['upperBoundary', 'upper limit', (m) => m.boundary?.upper_limit, [8, 4]],
    ];
    for (const [flag, name, pick, dash] of extra) {
      if (options[flag])
        lines.push({ label: `${index + 1}. ${name}`, colour, metrics, values: values(pick), dash, kind: flag });
    }
  }
  return { xs, lines };
}

/** The change point (perf `change_points`, an extension) whose new regime starts at this metric, if any. */
const changeAt = (line, metric) =>
  (line.result?.change_points ?? []).find((change) => change.to_metric === metric.metric.uuid);

function tooltipHtml(line, metric, base) {
  const boundary = metric.boundary;
  const rows = [
    ['Value', metric.metric.value],
    ['Lower value', metric.metric.lower_value],
    ['Upper value', metric.metric.upper_value],
    ['Lower limit', boundary?.lower_limit],
    ['Upper limit', boundary?.upper_limit],
    ['Version', `${metric.version.number}${metric.version.hash ? ` (${metric.version.hash.slice(0, 12)})` : ''}`],
    ['Date', metric.start_time],
  ].filter(([, value]) => value !== null && value !== undefined);
  const change = changeAt(line, metric);
  if (change) rows.push(['Change point', changePointText(change)]);
  const alert = metric.alert
    ? `<div><strong>🚨 ${esc(metric.alert.status)} alert</strong> — <a href="${esc(base + uri`/alerts/${metric.alert.uuid}`)}">view alert</a></div>`
    : '';
  return `<strong>${esc(line.label)}</strong><table>${rows.map(([name, value]) => `<tr><th>${esc(name)}</th><td>${esc(value)}</td></tr>`).join('')}</table>${alert}<a href="${esc(base + uri`/reports/${metric.report}`)}">view report</a>`;
}

/** Draws the plot into `root`; returns the uPlot instance. */
export function drawPlot(root, perf, options) {
  const { xs, lines } = plotData(perf.results, options);
  const positive = lines.every((line) => line.values.every((value) => value === null || value > 0));
  const log = options.yAxis === 'log' && positive;
  const tooltip = document.createElement('div');
  tooltip.className = 'plot-tip';
  tooltip.setAttribute('role', 'tooltip');
  tooltip.hidden = true;
  let hovered = null;
  const alertMarkers = (u) => {
    const { ctx } = u;
    ctx.save();
    for (const [i, line] of lines.entries()) {
      if (line.kind !== 'value' || !u.series[i + 1].show) continue;
      for (const [j, metric] of line.metrics.entries()) {
        if (metric?.alert?.status !== 'active') continue;
        const x = u.valToPos(xs[j], 'x', true);
        const y = u.valToPos(metric.metric.value, 'y', true);
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
  const changeMarkers = (u) => {
    const { ctx } = u;
    const { top, height } = u.bbox;
    ctx.save();
    ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'alphabetic';
    ctx.setLineDash([3 * devicePixelRatio, 3 * devicePixelRatio]);
    for (const [i, line] of lines.entries()) {
      if (line.kind !== 'value' || !u.series[i + 1].show) continue;
      for (const [j, metric] of line.metrics.entries()) {
        const change = metric && changeAt(line, metric);
        if (!change) continue;
        const x = u.valToPos(xs[j], 'x', true);
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
  const nearest = (u) => {
    const j = u.cursor.idx;
    if (j === null || j === undefined) return null;
    let best = null;
    for (const [i, line] of lines.entries()) {
      const value = line.values[j];
      if (value === null || !u.series[i + 1].show || !line.metrics[j]) continue;
      const distance = Math.abs(u.valToPos(value, 'y') - u.cursor.top);
      if (!best || distance < best.distance) best = { distance, line, metric: line.metrics[j] };
    }
    return best;
  };
  const opts = {
    width: options.width,
    height: options.height ?? 380,
    scales: { x: { time: options.xAxis !== 'version' }, y: log ? { distr: 3 } : {} },
    axes: [
      { label: options.xAxis === 'version' ? 'Branch version number' : 'Report date' },
      { label: perf.results[0]?.measure.units ?? '' },
    ],
    series: [
      {},
      ...lines.map((line) => ({
        label: line.label,
        stroke: line.colour,
        width: line.dash ? 1.5 : 2,
        dash: line.dash,
        alpha: line.dash ? 0.7 : 1,
        spanGaps: true,
        points: { show: line.kind === 'value' && xs.length < 400, size: 5 },
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
          tooltip.innerHTML = tooltipHtml(hovered.line, hovered.metric, options.base);
          const left = Math.min(u.cursor.left + 12, u.over.clientWidth - 220);
          tooltip.style.left = `${Math.max(0, left)}px`;
          tooltip.style.top = `${u.cursor.top + 12}px`;
        },
      ],
    },
  };
  root.innerHTML = '';
  const plot = new globalThis.uPlot(opts, [xs, ...lines.map((line) => line.values)], root);
  plot.over.appendChild(tooltip);
  plot.over.addEventListener('click', () => {
    if (!hovered) return;
    location.href = hovered.metric.alert
      ? options.base + uri`/alerts/${hovered.metric.alert.uuid}`
      : options.base + uri`/reports/${hovered.metric.report}`;
  });
  return plot;
}
