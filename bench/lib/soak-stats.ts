// The soak's arithmetic over what it sampled: RSS troughs and their trend, and server time by route.
import { percentile } from './load.js';

/** RSS is a garbage collector's sawtooth: a leak shows in its troughs, the smallest sample of each window. */
export const TROUGH_WINDOW_S = 15;

/** The smallest sample of each `TROUGH_WINDOW_S` window, at the window's middle. */
export function troughs(points: [number, number][]): [number, number][] {
  const windows = new Map<number, number>();
  for (const [at, mb] of points) {
    const window = Math.floor(at / TROUGH_WINDOW_S);
    windows.set(window, Math.min(windows.get(window) ?? mb, mb));
  }
  return [...windows].map(([window, mb]) => [(window + 0.5) * TROUGH_WINDOW_S, mb]);
}

/** Server-side time by route, from the access log (`ms` from the first byte read to the last written). */
export function routeTimes(logs: string): Record<string, { requests: number; p50: number; p99: number }> {
  const byRoute = new Map<string, number[]>();
  for (const line of logs.split('\n')) {
    if (!line.includes('"route"')) continue;
    const entry = JSON.parse(line) as { method?: string; route?: string; ms?: number };
    if (entry.route === undefined || entry.ms === undefined) continue;
    const key = `${entry.method} ${entry.route}`;
    const times = byRoute.get(key) ?? [];
    times.push(entry.ms);
    byRoute.set(key, times);
  }
  return Object.fromEntries(
    [...byRoute].map(([route, times]) => [
      route,
      { requests: times.length, p50: percentile(times, 0.5), p99: percentile(times, 0.99) },
    ]),
  );
}

/** Least-squares slope of (seconds, MB), in MB per minute. */
export function slopePerMinute(points: [number, number][]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return (sxy / sxx) * 60;
}
