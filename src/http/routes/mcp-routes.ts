/**
 * POST /mcp: the public brand MCP endpoint. No authentication; the shared MCP edge
 * (http/mcp-edge.ts) does the HTTP side, the brand MCP server answers.
 */
import type { FastifyInstance } from 'fastify';
import type { BrandService } from '../../brand/brand-service.js';
import { createBrandMcpServer } from '../../mcp/brand-mcp-server.js';
import { createMcpEndpoint } from '../../mcp/mcp-endpoint.js';
import { registerMcpEdge } from '../mcp-edge.js';

export function registerMcpRoutes(
  app: FastifyInstance,
  deps: { brand: BrandService; publicUrl: string; allowedOrigins: string[]; version: string },
): void {
  const endpoint = createMcpEndpoint(
    () => createBrandMcpServer(deps.brand.current, deps.version),
    (err) => app.log.debug({ err }, 'mcp request rejected'),
    // Brand answers are pure functions of the request and the loaded catalog.
    () => deps.brand.current,
  );
  registerMcpEdge(app, {
    path: '/mcp',
    publicUrl: deps.publicUrl,
    allowedOrigins: deps.allowedOrigins,
    endpoint,
  });
}
