import { describe, expect, it } from 'vitest';
import { escapeXml, lineChartSvg } from '../src/plot/line-chart.js';
import { renderPng } from '../src/plot/render-png.js';
import { fractionOf, logScale, niceScale } from '../src/plot/scale.js';

const series = (label: string, values: number[], alertAt = -1, units = 'nanoseconds (ns)') => ({
  label,
  measure: 'Latency',
  units,
  points: values.map((y, i) => ({ x: Date.UTC(2026, 0, 1 + i), y, lower: null, upper: y * 1.1, alert: i === alertAt })),
});

describe('perf plot', () => {
  it.each([
    [0, 10, [0, 2, 4, 6, 8, 10]],
    [3, 3, [2.6, 2.8, 3, 3.2, 3.4]],
    [95, 142, [90, 100, 110, 120, 130, 140, 150]],
  ])('nice scale of [%s, %s]', (min, max, ticks) => {
    expect(niceScale(min, max).ticks).toEqual(ticks);
  });

  it.each([
    [-1.7e308, 1.7e308],
    [0, 1.7e308],
    [-Number.MAX_VALUE, Number.MAX_VALUE],
    [1e308, 1e308],
  ])('keeps an axis for values near the largest doubles: [%s, %s]', (min, max) => {
    const scale = niceScale(min, max);
    expect(scale.ticks.length).toBeGreaterThanOrEqual(2);
    expect(scale.ticks.every(Number.isFinite)).toBe(true);
    for (const value of [min, max]) {
      expect(fractionOf(scale, value)).toBeGreaterThanOrEqual(0);
      expect(fractionOf(scale, value)).toBeLessThanOrEqual(1);
    }
  });

  it('places values on a log scale by decade', () => {
    const scale = logScale(3, 4200);
    expect(scale.ticks).toEqual([1, 10, 100, 1000, 10000]);
    expect(fractionOf(scale, 100)).toBeCloseTo(0.5);
  });

  /** The tick labels and title of the axis on `side`, with their x positions. */
  const axisText = (svg: string, side: 'left' | 'right') => {
    const anchor = side === 'left' ? 'end' : 'start';
    const ticks = [
      ...svg.matchAll(
        new RegExp(`<text x="([\\d.]+)" y="[\\d.]+" font-size="13" text-anchor="${anchor}"[^>]*>([^<]*)</text>`, 'g'),
      ),
    ];
    const rotation = side === 'left' ? -90 : 90;
    const title = new RegExp(`translate\\(([\\d.]+) [\\d.]+\\) rotate\\(${rotation}\\)"[^>]*>([^<]*)</text>`).exec(svg);
    return {
      ticks: ticks.map((m) => ({ x: Number(m[1]), text: m[2] as string })),
      title: title?.[2],
      titleX: Number(title?.[1]),
    };
  };

  it('gives each unit its own axis, left then right, in that unit scaled, titles clear of the tick labels', () => {
    const svg = lineChartSvg({
      title: 't',
      series: [
        { ...series('a', [3.1e9, 3.2e9, 3.3e9]), measure: 'Latency' },
        { ...series('b', [239971.93743794155, 250000], -1, 'operations / second (ops/s)'), measure: 'Throughput' },
      ],
    });
    const left = axisText(svg, 'left');
    const right = axisText(svg, 'right');
    expect(left.title).toBe('Latency: seconds (s)');
    expect(right.title).toBe('Throughput: thousand operations / second (Kops/s)');
    expect(left.ticks.map((t) => t.text)).toContain('3.2');
    expect(right.ticks.map((t) => t.text)).toContain('240');
    // 15 px text rotated: half its height (8 px) from the title's centre line to the widest label's edge.
    const width = (text: string) => text.length * 8.3;
    for (const tick of left.ticks) expect(left.titleX + 8).toBeLessThan(tick.x - width(tick.text));
    for (const tick of right.ticks) expect(right.titleX - 8).toBeGreaterThan(tick.x + width(tick.text));
  });

  it('keeps every digit of ticks of 10^8 and more', () => {
    const svg = lineChartSvg({ title: 't', series: [series('a', [1e8, 5e8, 9.5e8], -1, 'percent (%)')] });
    const labels = axisText(svg, 'left').ticks.map((t) => t.text);
    expect(labels).toContain('1,000,000,000');
    for (const label of labels) expect(Number(label.replaceAll(',', '')) % 1e8).toBe(0);
  });

  it('draws a log axis when asked, and says it stays linear over a boundary at or below 0', () => {
    const positive = lineChartSvg({ title: 't', yAxis: 'log', series: [series('a', [10, 1000, 100000], -1, 'x')] });
    expect(axisText(positive, 'left')).toMatchObject({ title: 'Latency: x (log)' });
    expect(axisText(positive, 'left').ticks.map((t) => t.text)).toEqual([
      '10',
      '100',
      '1,000',
      '10,000',
      '100,000',
      '1,000,000',
    ]);
    const negative = {
      ...series('a', [10, 1000, 100000], -1, 'x'),
      points: series('a', [10, 1000], -1, 'x').points.map((p) => ({ ...p, lower: -5 })),
    };
    const linear = lineChartSvg({ title: 't', yAxis: 'log', series: [negative] });
    expect(axisText(linear, 'left').title).toBe('Latency: x — linear: log needs values above 0');
  });

  it('draws series, dashed limits, alerts and a legend, escaping user text', () => {
    const svg = lineChartSvg({
      title: '<script>"x"</script>',
      series: [series('main · localhost · a & b · Latency', [100, 101, 150], 2), series('feature', [90, 95])],
    });
    expect(svg).toContain(escapeXml('<script>"x"</script>'));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('a &amp; b');
    expect(svg.match(/stroke-dasharray/g)).toHaveLength(2);
    expect(svg.match(/stroke="#d62728"/g)).toHaveLength(1);
    expect(svg).toContain('Latency: nanoseconds (ns)');
  });

  it('draws a change point as a dashed vertical line labelled with its shift', () => {
    const stepped = {
      ...series('main', [100, 101, 130, 131]),
      changes: [{ x: Date.UTC(2026, 0, 3), label: '+30.0 %' }],
    };
    const svg = lineChartSvg({ title: 't', series: [stepped] });
    expect(svg).toMatch(
      /<line x1="([\d.]+)" x2="\1" y1="64" y2="[\d.]+" stroke="[^"]+" stroke-width="1.5" stroke-dasharray="3 3"\/>/,
    );
    expect(svg).toContain('>+30.0 %</text>');
  });

  it('renders a PNG with the bundled font, also when there is no data', () => {
    for (const input of [
      { title: 'The Computer', series: [series('s', [1, 2, 3])] },
      { title: 'Empty', series: [] },
    ]) {
      const png = renderPng(lineChartSvg(input));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.readUInt32BE(16)).toBe(1024);
      expect(png.readUInt32BE(20)).toBe(768);
    }
  });
});
