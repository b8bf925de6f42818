import { describe, expect, it } from 'vitest';
import { escapeXml, lineChartSvg } from '../src/plot/line-chart.js';
import { renderPng } from '../src/plot/render-png.js';
import { formatTick, fractionOf, niceScale } from '../src/plot/scale.js';

const series = (label: string, values: number[], alertAt = -1) => ({
  label,
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

  it('formats ticks compactly', () => {
    expect(formatTick(1500)).toBe('1.5k');
    expect(formatTick(2_000_000)).toBe('2M');
    expect(formatTick(0.005)).toBe('0.005');
  });

  it('draws series, dashed limits, alerts and a legend, escaping user text', () => {
    const svg = lineChartSvg({
      title: '<script>"x"</script>',
      yLabel: 'Latency: nanoseconds (ns)',
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
    const svg = lineChartSvg({ title: 't', yLabel: 'y', series: [stepped] });
    expect(svg).toMatch(
      /<line x1="([\d.]+)" x2="\1" y1="64" y2="[\d.]+" stroke="[^"]+" stroke-width="1.5" stroke-dasharray="3 3"\/>/,
    );
    expect(svg).toContain('>+30.0 %</text>');
  });

  it('renders a PNG with the bundled font, also when there is no data', () => {
    for (const input of [
      { title: 'The Computer', yLabel: 'ns', series: [series('s', [1, 2, 3])] },
      { title: 'Empty', yLabel: '', series: [] },
    ]) {
      const png = renderPng(lineChartSvg(input));
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.readUInt32BE(16)).toBe(1024);
      expect(png.readUInt32BE(20)).toBe(768);
    }
  });
});
