/**
 * buildApp: the whole HTTP surface as a Fastify instance, from injected dependencies.
 * It never reads the environment and never listens; main.ts and the tests do that.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { requireApiKey } from './http/auth/api-key.js';
import { precomputedEdge, type Edge } from './http/edge.js';
import { clientErrorHandler, expectationFailed, missingHost } from './http/client-errors.js';
import { expectContinue } from './http/expect-continue.js';
import { frameworkErrorHandler, installErrorHandlers, sendNotFound } from './http/errors.js';
import { installJsonBodies } from './http/json-body.js';
import { createMetrics, installMetrics } from './http/metrics.js';
import { installRateLimits } from './http/rate-limit.js';
import { DENY_ALL_CSP, installSecurityHeaders, SECURITY_HEADERS } from './http/security-headers.js';
import { ROUTER_OPTIONS, routeTable } from './http/route-table.js';
import { quietRequest } from './http/request-log.js';
import { registerBrandRoutes } from './http/routes/brand-routes.js';
import { registerBrandVersionRoutes, versionedTokens } from './http/routes/brand-version-routes.js';
import { BrandVersions } from './brand/brand-versions.js';
import { registerGatewayMcpRoutes } from './http/routes/gateway-mcp-routes.js';
import { registerHealthRoutes } from './http/routes/health-routes.js';
import { registerMcpRoutes } from './http/routes/mcp-routes.js';
import { registerVideoRoutes } from './http/routes/video-routes.js';
import { documentRoute, METRICS_DOC, openapiDocs } from './http/openapi.js';
import { registerReferenceRoutes } from './http/routes/reference-routes.js';
import { registerRobotsRoute } from './http/routes/robots-routes.js';
import { registerPages } from './pages/index.js';
import { dashboardSessions } from './http/auth/sessions.js';
import { requestId } from './http/request-id.js';
import { capConnections, capConnectionsPerAddress, serverOptions } from './http/server-limits.js';
import { apiKeyMatches } from './gateway/secrets.js';
import { requestSerializer } from './core/redact-url.js';
import { trustFunction } from './trust-proxy.js';
import { lazySchemaCompilers } from './http/schema-compilers.js';
import { tracing } from './tracing/current.js';
import { VERSION } from './version.js';

export type { AppDeps };

/** Fastify's default keep-alive, longer than common load balancers' idle timeouts (60 s). */
export const KEEP_ALIVE_MS = 72_000;

export function buildApp(deps: AppDeps): FastifyInstance {
  const metrics = deps.metrics ?? createMetrics();
  // Traced, every request goes through Fastify and its hooks: the edge answers the same bytes
  // without them, so it is left out rather than given spans of its own.
  const traced = tracing();
  // Set once the route table exists (below); the server is made before it.
  let edge: Edge | undefined;
  // Whose X-Forwarded-For is believed: Fastify's req.ip (the lockout, the per-IP budgets, the
  // request log) follows it, and a believed proxy's connections are not capped as one client.
  const trust = deps.config.trustProxy && trustFunction(deps.config.trustProxy);
  const continues = expectContinue();
  // The API key is redacted from logged URLs whatever the parameter that carries it.
  const keyHash = deps.gateway?.secrets.apiKeyHash;
  const logger = keyHash
    ? deps.logger.child(
        {},
        { serializers: { req: requestSerializer((v) => apiKeyMatches({ apiKeyHash: keyHash }, v)) } },
      )
    : deps.logger;
  const app = Fastify({
    loggerInstance: logger,
    ...(trust ? { trustProxy: trust } : {}),
    logController: new LogController({ disableRequestLogging: quietRequest }),
    return503OnClosing: true,
    schemaController: lazySchemaCompilers(),
    bodyLimit: 1024 * 1024,
    routerOptions: ROUTER_OPTIONS,
    frameworkErrors: frameworkErrorHandler({
      ...SECURITY_HEADERS,
      'content-security-policy': DENY_ALL_CSP,
    }),
    genReqId: requestId,
    clientErrorHandler: clientErrorHandler(deps.config.http),
    // Routes that declared a precomputed answer are served by the edge (edge.ts) before
    // Fastify; their handlers serve the same answers for everything else and for app.inject().
    serverFactory: (handler) => {
      const serve = (req: IncomingMessage, res: ServerResponse) => {
        if (!missingHost(req, res) && !edge?.(req, res)) handler(req, res);
      };
      // Host is checked by missingHost, which answers in the one error shape.
      const server = createServer({ ...serverOptions(deps.config.http), requireHostHeader: false }, serve);
      server.on('checkContinue', (req, res) => continues.awaitContinue(req, res, serve));
      server.on('checkExpectation', (_req, res) => expectationFailed(res));
      capConnections(server, deps.config.http.maxConnections, deps.logger);
      capConnectionsPerAddress(
        server,
        deps.config.http.maxConnectionsPerIp,
        (address) => trust?.(address, 0) ?? false,
        deps.logger,
      );
      // Fastify applies its own keep-alive default only to servers it makes itself; without it
      // Node closes idle connections after 5 s, before a load balancer's usual 60 s, and a
      // proxy reusing such a connection gets a reset.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      return server;
    },
  }) as unknown as FastifyInstance;
  // First, so the request's span is open before any other hook runs.
  traced?.instrumentFastify(app);
  continues.install(app);
  installErrorHandlers(app);
  // The API speaks JSON only; Fastify's built-in text/plain parser would let a string reach
  // validation instead of the 415 a wrong content type deserves.
  app.removeContentTypeParser('text/plain');
  installJsonBodies(app);
  const routes = routeTable(app, sendNotFound);
  // This app's own route descriptions, which every route module (and plugin) adds to.
  const routeDocs = openapiDocs(app);
  if (!traced) edge = precomputedEdge(routes, (...a) => metrics.countRequest(...a));
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    done(null, payload);
  });
  installSecurityHeaders(app);
  // The API key, and the dashboard's sessions (in the store) for requests with its cookie.
  const credentials = deps.gateway && {
    apiKeyHash: deps.gateway.secrets.apiKeyHash,
    sessions: dashboardSessions(deps.gateway.gateway.store, deps.gateway.secrets.apiKeyHash),
  };
  // Before any route: the limits attach to routes as they are added (/metrics included).
  const limits = installRateLimits(app, {
    limits: deps.config.rateLimits,
    redisPrefix: deps.config.redisPrefix,
    ...(credentials ? { secrets: credentials } : {}),
    ...(deps.redis ? { redis: deps.redis } : {}),
  });
  const metricsAuth = credentials ? requireApiKey(credentials) : undefined;
  installMetrics(app, metrics, metricsAuth);
  // /metrics is served, and so documented, only behind the key that guards it.
  if (metricsAuth) documentRoute(app, METRICS_DOC);

  void app.register(fastifyCookie);
  registerHealthRoutes(app, {
    brand: deps.brand,
    ...(deps.gateway ? { store: deps.gateway.gateway.store } : {}),
  });
  // Brand versions live in the store: only where there is one (the gateway's).
  const brandVersions = deps.gateway && new BrandVersions(deps.gateway.gateway.store);
  registerRobotsRoute(app);
  registerBrandRoutes(app, deps.brand, brandVersions && versionedTokens(brandVersions), routes.unrouted);
  if (brandVersions) registerBrandVersionRoutes(app, deps.brand, brandVersions);
  registerMcpRoutes(app, {
    brand: deps.brand,
    publicUrl: deps.config.publicUrl,
    allowedOrigins: deps.config.mcpAllowedOrigins,
    version: VERSION,
  });

  if (deps.gateway && credentials) {
    registerVideoRoutes(app, {
      gateway: deps.gateway.gateway,
      secrets: credentials,
      secureCookies: deps.config.publicUrl.startsWith('https://'),
      limitScope: (scope) => limits.limitScope(scope),
    });
    registerGatewayMcpRoutes(app, {
      ...deps.gateway,
      publicUrl: deps.config.publicUrl,
      allowedOrigins: deps.config.mcpAllowedOrigins,
      version: VERSION,
    });
  }

  registerPages(app, deps, credentials?.sessions);

  registerReferenceRoutes(app, { publicUrl: deps.config.publicUrl, version: VERSION, docs: routeDocs });

  return app;
}
