/**
 * POST /mcp: the public brand MCP endpoint. No authentication; the shared MCP edge
 * (http/mcp-edge.ts) does the HTTP side, the brand MCP server answers.
 */
import type { FastifyInstance } from 'fastify';
import type { BrandService } from '../../brand/brand-service.js';
import { createMcpEndpoint } from '../../mcp/mcp-endpoint.js';
import { registerMcpEdge } from '../mcp-edge.js';
import { mcpRouteDoc } from '../openapi/mcp-doc.js';

export const MCP_PATH = '/mcp';

type McpDeps = { brand: BrandService; publicUrl: string; allowedOrigins: string[]; version: string };

/** The brand MCP endpoint as its own encapsulated plugin (its parser and error handler stay in). */
export function registerMcpRoutes(app: FastifyInstance, deps: McpDeps): void {
  void app.register(function brandMcpRoutes(scope, _opts, done) {
    addMcpRoutes(scope, deps);
    done();
  });
}

function addMcpRoutes(app: FastifyInstance, deps: McpDeps): void {
  const endpoint = createMcpEndpoint(
    async () => {
      const { createBrandMcpServer } = await import('../../mcp/brand-mcp-server.js');
      return () => createBrandMcpServer(deps.brand.current, deps.version);
    },
    (err) => app.log.debug({ err }, 'mcp request rejected'),
    // Brand answers are pure functions of the request and the loaded catalog.
    () => deps.brand.current,
  );
  registerMcpEdge(app, {
    path: MCP_PATH,
    publicUrl: deps.publicUrl,
    allowedOrigins: deps.allowedOrigins,
    endpoint,
    doc: mcpRouteDoc(
      'MCP endpoint (streamable HTTP, JSON-RPC 2.0; protocol 2026-07-28 and 2025-11-25): seven brand tools and resources.',
      'none',
    ),
    // Public: its own budget per IP, on POST (the other methods answer 405 unread).
    limit: { post: 'mcp' },
  });
}
