/**
 * The pipeline: every cross-cutting piece, installed once on the root before any route, in the
 * order they must run. Tracing first (its span is open before any other hook), the Expect hook,
 * the one error handler, JSON bodies, the route table (and the edge that reads it), the request
 * id and security headers on every answer, our own rate limits (attached to routes as they are
 * added), the request metrics, cookies; then the site's own routes: /metrics, health and
 * robots.txt. buildApp (app.ts) registers the parts on top of it.
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { BrandService } from '../brand/brand-service.js';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway/gateway.js';
import { tracing } from '../tracing/current.js';
import type { Credentials } from './auth/api-key.js';
import { installIdentity } from './auth/identity.js';
import type { DashboardSessions } from './auth/sessions.js';
import { precomputedEdge } from './edge.js';
import { installErrorHandlers, sendNotFound } from './errors.js';
import type { Front } from './fastify-options.js';
import { installJsonBodies } from './json-body.js';
import { installMetrics, type Metrics } from './metrics.js';
import { openapiDocs, type RouteDocs } from './openapi.js';
import { installRateLimits } from './rate-limit.js';
import { routeTable, type RouteTable } from './route-table.js';
import { registerHealthRoutes } from './routes/health-routes.js';
import { registerRobotsRoute } from './routes/robots-routes.js';
import { installSecurityHeaders } from './security-headers.js';

export interface PipelineDeps {
  config: Config;
  brand: BrandService;
  metrics: Metrics;
  redis?: Redis;
  gateway?: { gateway: Gateway; secrets: { apiKeyHash: Buffer }; sessions: DashboardSessions };
}

/** What the parts registered on the pipeline need of it. */
export interface Pipeline {
  routes: RouteTable;
  /** This app's own route descriptions, which every route module (and plugin) adds to. */
  docs: RouteDocs;
  /** The API key, and the dashboard's sessions for requests with its cookie; with the gateway. */
  credentials?: Required<Credentials>;
}

export function installPipeline(app: FastifyInstance, deps: PipelineDeps, front: Front): Pipeline {
  const { routes, docs } = installRequestHandling(app, deps, front);
  const credentials = deps.gateway && {
    apiKeyHash: deps.gateway.secrets.apiKeyHash,
    sessions: deps.gateway.sessions,
  };
  // Before any route, the identity hook, then the limits: each attaches to the routes whose
  // declarations ask for it as they are added (/metrics included), the limit in front.
  installIdentity(app, credentials);
  installRateLimits(app, {
    limits: deps.config.rateLimits,
    redisPrefix: deps.config.redisPrefix,
    ...(credentials ? { secrets: credentials } : {}),
    ...(deps.redis ? { redis: deps.redis } : {}),
  });
  // /metrics is served only where there is an API key to guard it.
  installMetrics(app, deps.metrics, credentials !== undefined);

  void app.register(fastifyCookie);
  registerHealthRoutes(app, {
    brand: deps.brand,
    ...(deps.gateway ? { store: deps.gateway.gateway.store } : {}),
  });
  registerRobotsRoute(app);
  return { routes, docs, ...(credentials ? { credentials } : {}) };
}

/** From tracing to the headers every answer carries: what runs for every request. */
function installRequestHandling(app: FastifyInstance, deps: PipelineDeps, front: Front) {
  // Traced, every request goes through Fastify and its hooks: the edge answers the same bytes
  // without them, so it is left out rather than given spans of its own.
  const traced = tracing();
  // First, so the request's span is open before any other hook runs.
  traced?.instrumentFastify(app);
  front.continues.install(app);
  installErrorHandlers(app);
  // The API speaks JSON only; Fastify's built-in text/plain parser would let a string reach
  // validation instead of the 415 a wrong content type deserves.
  app.removeContentTypeParser('text/plain');
  installJsonBodies(app);
  const routes = routeTable(app, sendNotFound);
  const docs = openapiDocs(app);
  if (!traced) front.edge = precomputedEdge(routes, (...a) => deps.metrics.countRequest(...a));
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  installSecurityHeaders(app);
  return { routes, docs };
}
