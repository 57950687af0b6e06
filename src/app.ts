/**
 * buildApp: the whole HTTP surface as a Fastify instance, from the services main.ts (or a test)
 * built: the Fastify options, the pipeline, then the parts (brand, MCP, gateway, pages,
 * reference), in the order their routes are documented. It builds no service, never reads the
 * environment and never listens.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { fastifyOptions, newFront } from './http/fastify-options.js';
import { installPipeline, type Pipeline } from './http/pipeline.js';
import { registerBrandRoutes } from './http/routes/brand-routes.js';
import { registerBrandVersionRoutes, versionedTokens } from './http/routes/brand-version-routes.js';
import { registerGatewayMcpRoutes } from './http/routes/gateway-mcp-routes.js';
import { registerMcpRoutes } from './http/routes/mcp-routes.js';
import { registerReferenceRoutes } from './http/routes/reference-routes.js';
import { registerVideoRoutes } from './http/routes/video-routes.js';
import { registerPages } from './pages/index.js';
import { VERSION } from './version.js';

export type { AppDeps };
export { KEEP_ALIVE_MS } from './http/fastify-options.js';

export function buildApp(deps: AppDeps): FastifyInstance {
  const front = newFront();
  const options = fastifyOptions(
    {
      config: deps.config,
      logger: deps.logger,
      ...(deps.gateway ? { apiKeyHash: deps.gateway.secrets.apiKeyHash } : {}),
    },
    front,
  );
  const app = Fastify(options) as unknown as FastifyInstance;
  const pipeline = installPipeline(app, deps, front);
  registerBrand(app, deps, pipeline);
  registerMcpRoutes(app, {
    brand: deps.brand,
    publicUrl: deps.config.publicUrl,
    allowedOrigins: deps.config.mcpAllowedOrigins,
    version: VERSION,
  });
  registerGateway(app, deps, pipeline);
  registerPages(app, deps, deps.gateway?.sessions);
  registerReferenceRoutes(app, { publicUrl: deps.config.publicUrl, version: VERSION, docs: pipeline.docs });
  return app;
}

/** The brand API; its versions only where there is a store to keep them (the gateway's). */
function registerBrand(app: FastifyInstance, deps: AppDeps, pipeline: Pipeline): void {
  const brandVersions = deps.gateway?.brandVersions;
  registerBrandRoutes(
    app,
    deps.brand,
    brandVersions && versionedTokens(brandVersions),
    pipeline.routes.unrouted,
  );
  if (brandVersions) registerBrandVersionRoutes(app, deps.brand, brandVersions);
}

/** The private /api/video API and the gateway's MCP endpoint, when there is a gateway. */
function registerGateway(app: FastifyInstance, deps: AppDeps, pipeline: Pipeline): void {
  const { credentials } = pipeline;
  if (!deps.gateway || !credentials) return;
  registerVideoRoutes(app, {
    gateway: deps.gateway.gateway,
    secureCookies: deps.config.publicUrl.startsWith('https://'),
  });
  registerGatewayMcpRoutes(app, {
    gateway: deps.gateway.gateway,
    secrets: deps.gateway.secrets,
    publicUrl: deps.config.publicUrl,
    allowedOrigins: deps.config.mcpAllowedOrigins,
    version: VERSION,
  });
}
