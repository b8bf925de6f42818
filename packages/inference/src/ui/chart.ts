import { Html, html } from './html.js';

export interface ChartPoint {
  hour: number;
  model: string;
  tokens: number;
}

const WIDTH = 720;
const HEIGHT = 200;
const PAD = 30;
const COLOURS = ['#3366cc', '#dc3912', '#ff9900', '#109618', '#990099', '#0099c6'];

/** Tokens per hour and model over [from, to) as an inline SVG line chart (no script, no network). */
export function usageChart(points: readonly ChartPoint[], from: number, to: number): Html {
  const hours = Math.max(1, Math.round((to - from) / 3_600_000));
  const models = [...new Set(points.map((p) => p.model))].sort();
  const max = Math.max(1, ...points.map((p) => p.tokens));
  const x = (hour: number) => PAD + ((hour - from) / 3_600_000 / hours) * (WIDTH - 2 * PAD);
  const y = (tokens: number) => HEIGHT - PAD - (tokens / max) * (HEIGHT - 2 * PAD);
  const lines = models.map((model, i) => {
    const series = new Map(points.filter((p) => p.model === model).map((p) => [p.hour, p.tokens]));
    const coords: string[] = [];
    for (let h = 0; h < hours; h++) {
      const hour = from + h * 3_600_000;
      coords.push(`${x(hour).toFixed(1)},${y(series.get(hour) ?? 0).toFixed(1)}`);
    }
    const colour = COLOURS[i % COLOURS.length];
    return html`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${coords.join(' ')}"><title>${model}</title></polyline>`;
  });
  const legend = models.map(
    (model, i) =>
      html`<text x="${PAD + 160 * i}" y="14" font-size="12" fill="${COLOURS[i % COLOURS.length]}">■ ${model}</text>`,
  );
  return html`<svg role="img" aria-label="tokens per hour by model" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%">
<line x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}" stroke="#999"/>
<text x="${PAD}" y="${HEIGHT - 8}" font-size="11">${new Date(from).toISOString().slice(0, 13)}h</text>
<text x="${WIDTH - PAD}" y="${HEIGHT - 8}" font-size="11" text-anchor="end">now</text>
<text x="2" y="${PAD}" font-size="11">${max}</text>${legend}${lines}${
    models.length === 0
      ? new Html(`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" fill="#667">no usage yet</text>`)
      : ''
  }</svg>`;
}
