import { describe, expect, it } from 'vitest';
import { HttpMetrics } from '../src/index.js';

describe('HttpMetrics', () => {
  it('renders cumulative histogram buckets per method, route and status', () => {
    const metrics = new HttpMetrics('svc');
    metrics.observe('GET', '/a', 200, 0.0005);
    metrics.observe('GET', '/a', 200, 0.02);
    metrics.observe('GET', '/a', 200, 60);
    metrics.observe('POST', '/b"x', 500, 0.002);
    const text = metrics.render();
    const labels = 'service="svc",method="GET",route="/a",status="200"';
    expect(text).toContain(`atrium_http_requests_total{${labels}} 3`);
    expect(text).toContain(`atrium_http_request_duration_seconds_bucket{${labels},le="0.001"} 1`);
    expect(text).toContain(`atrium_http_request_duration_seconds_bucket{${labels},le="0.025"} 2`);
    expect(text).toContain(`atrium_http_request_duration_seconds_bucket{${labels},le="30"} 2`);
    expect(text).toContain(`atrium_http_request_duration_seconds_bucket{${labels},le="+Inf"} 3`);
    expect(text).toContain(`atrium_http_request_duration_seconds_sum{${labels}} 60.0205`);
    expect(text).toContain('route="/b\\"x",status="500"} 1');
    expect(text.endsWith('\n')).toBe(true);
  });
});
