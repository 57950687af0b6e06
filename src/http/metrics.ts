/**
 * Prometheus metrics on a registry of their own per app (never prom-client's global one, so
 * several apps in one test process do not clash): requests and latency by route pattern (not the
 * raw URL, so the label set stays bounded), upstream calls by rate label, group and outcome,
 * token refreshes, webhook deliveries, and the process defaults (memory, event loop, GC).
 * GET /metrics serves the text format to anyone holding the API key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { GatewayObserver } from '../gateway/observer.js';
import type { RouteDocBody } from './openapi.js';
import { requestMetrics } from './request-metrics.js';

/** GET /metrics' description: served, and so documented, only behind the API key. */
const METRICS_DOC: RouteDocBody = {
  summary: 'Prometheus metrics: requests and latency by route, upstream calls, refreshes, webhooks.',
  tag: 'operations',
  auth: 'api_key',
  media: { type: 'text/plain; version=0.0.4; charset=utf-8' },
  responseDescription: 'The Prometheus text exposition format.',
};

export interface Metrics {
  readonly registry: Registry;
  /**
   * Counts one answered request. Cheap (a map lookup and a few additions, request-metrics.ts);
   * answers the edge sends outside Fastify's routing (edge.ts) call it themselves with their
   * route pattern.
   */
  countRequest(method: string, route: string, status: number, seconds: number): void;
  /** Feeds the gateway's own events into the registry. */
  readonly observer: GatewayObserver;
}

/** How often the event-loop lag is sampled (prom-client's monitorEventLoopDelay resolution). */
export const EVENT_LOOP_SAMPLE_MS = 50;

/** The label for requests that matched no route: one series, whatever was asked. */
export const UNMATCHED_ROUTE = '<unmatched>';

export function createMetrics(opts: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  if (opts.processMetrics ?? true) {
    collectDefaultMetrics({
      register: registry,
      prefix: 'fleetgate_',
      // The event-loop lag histogram samples on a timer: prom-client's 10 ms woke an idle service
      // 100 times a second (11 ms of CPU a second on this VM); 20 samples a second still give a
      // 15 s scrape 300 to take percentiles from.
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });
  }
  const requests = requestMetrics(registry, 'fleetgate_');
  const upstream = new Counter({
    name: 'fleetgate_upstream_calls_total',
    help: 'Attempts at the platform API, by rate label, capability group and outcome.',
    labelNames: ['label', 'group', 'outcome'] as const,
    registers: [registry],
  });
  const refreshes = new Counter({
    name: 'fleetgate_token_refreshes_total',
    help: 'Token refresh grants asked of the platform, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'fleetgate_webhook_deliveries_total',
    help: 'Webhook deliveries received, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    registry,
    countRequest: (method, route, status, seconds) => requests.record(method, route, status, seconds),
    observer: {
      upstream: (label, group, outcome) => upstream.inc({ label, group, outcome }),
      refresh: (outcome) => refreshes.inc({ outcome }),
      webhook: (outcome) => webhooks.inc({ outcome }),
    },
  };
}

/**
 * Counts every routed request, and serves GET /metrics behind `auth` (operators scrape it with
 * the API key). Without an auth hook (an app built without the gateway) /metrics is not served:
 * request counts are not for the public.
 */
export function installMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  /** Serve GET /metrics: its declaration (auth 'api_key') puts the key check in front. */
  served: boolean,
): void {
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done) => {
    metrics.countRequest(
      req.method,
      req.routeOptions.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
  if (!served) return;
  app.get('/metrics', { config: { doc: METRICS_DOC, limit: 'metrics' } }, async (_req, reply) =>
    reply
      .header('cache-control', 'no-store')
      .type(metrics.registry.contentType)
      .send(await metrics.registry.metrics()),
  );
}
