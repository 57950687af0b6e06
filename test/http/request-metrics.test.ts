/**
 * The request metrics collector must expose exactly what prom-client's own Counter and Histogram
 * expose for the same observations (names, labels, cumulative buckets, sums, counts), in the
 * text format scrapers read and in JSON.
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { LATENCY_BUCKETS, requestMetrics } from '../../src/http/request-metrics.js';

const OBSERVATIONS: [string, string, number, number][] = [
  ['GET', '/api/brand/tokens', 200, 0.0002],
  ['GET', '/api/brand/tokens', 200, 0.003],
  ['GET', '/api/brand/tokens', 304, 0.0001],
  ['HEAD', '/api/brand/tokens', 200, 0.02],
  ['POST', '/mcp', 200, 0.7],
  ['POST', '/mcp', 429, 12],
  ['GET', '/api/video/events/:videoId', 404, 0.005],
  ['GET', '<unmatched>', 404, 0.01],
  ['GET', '/static/fleet/*', 200, 2.5],
];

function reference(): Registry {
  const registry = new Registry();
  const requests = new Counter({
    name: 'fleetgate_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'fleetgate_http_request_duration_seconds',
    help: 'Time to answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  for (const [method, route, status, seconds] of OBSERVATIONS) {
    requests.inc({ method, route, status: String(status) });
    latency.observe({ method, route }, seconds);
  }
  return registry;
}

const lines = (text: string) => text.split('\n').filter(Boolean).sort();

describe('request metrics', () => {
  it('exposes what prom-client Counter and Histogram expose for the same observations', async () => {
    const registry = new Registry();
    const m = requestMetrics(registry, 'fleetgate_');
    for (const [method, route, status, seconds] of OBSERVATIONS) m.record(method, route, status, seconds);
    const ours = await registry.metrics();
    expect(lines(ours)).toEqual(lines(await reference().metrics()));
    expect(ours).toContain(
      'fleetgate_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/api/brand/tokens"} 3',
    );
    const json = await registry.getMetricsAsJSON();
    expect(json.map((x) => [x.name, x.type])).toEqual([
      ['fleetgate_http_requests_total', 'counter'],
      ['fleetgate_http_request_duration_seconds', 'histogram'],
    ]);
  });

  it('starts empty and counts a boundary value into its own bucket', async () => {
    const registry = new Registry();
    const m = requestMetrics(registry, 'fleetgate_');
    expect(lines(await registry.metrics()).filter((l) => !l.startsWith('#'))).toEqual([]);
    m.record('GET', '/healthz', 200, 0.005);
    const text = await registry.metrics();
    expect(text).toContain(
      'fleetgate_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/healthz"} 0',
    );
    expect(text).toContain(
      'fleetgate_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/healthz"} 1',
    );
    expect(text).toContain('fleetgate_http_requests_total{method="GET",route="/healthz",status="200"} 1');
  });
});
