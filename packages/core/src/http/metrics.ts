const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] as const;

interface Series {
  method: string;
  route: string;
  status: number;
  count: number;
  sum: number;
  /** cumulative counts per bucket, Prometheus style is computed at scrape time */
  buckets: Float64Array;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** Request counts and latency histograms per (method, route pattern, status), Prometheus text format. */
export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  constructor(private readonly service: string) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let entry = this.series.get(key);
    if (!entry) {
      entry = { method, route, status, count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length) };
      this.series.set(key, entry);
    }
    entry.count++;
    entry.sum += seconds;
    const index = BUCKETS.findIndex((bound) => seconds <= bound);
    if (index >= 0) entry.buckets[index] = (entry.buckets[index] ?? 0) + 1;
  }

  render(): string {
    const lines = [
      '# HELP atrium_http_requests_total HTTP requests answered.',
      '# TYPE atrium_http_requests_total counter',
    ];
    const histogram = [
      '# HELP atrium_http_request_duration_seconds Time to answer HTTP requests.',
      '# TYPE atrium_http_request_duration_seconds histogram',
    ];
    for (const s of this.series.values()) {
      const labels = `service="${this.service}",method="${s.method}",route="${escapeLabel(s.route)}",status="${s.status}"`;
      lines.push(`atrium_http_requests_total{${labels}} ${s.count}`);
      let cumulative = 0;
      BUCKETS.forEach((bound, i) => {
        cumulative += s.buckets[i] ?? 0;
        histogram.push(`atrium_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`);
      });
      histogram.push(`atrium_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${s.count}`);
      histogram.push(`atrium_http_request_duration_seconds_sum{${labels}} ${s.sum}`);
      histogram.push(`atrium_http_request_duration_seconds_count{${labels}} ${s.count}`);
    }
    return `${lines.join('\n')}\n${histogram.join('\n')}\n`;
  }
}
