/**
 * POST /api/video/mcp: the gateway's capabilities as MCP tools, private. The shared MCP edge
 * (http/mcp-edge.ts) does the HTTP side; this adds the API key check, answered in the MCP
 * authorization spec's shape (RFC 6750: 401 with `WWW-Authenticate: Bearer error="invalid_token"`
 * and an OAuth error body, built by the SDK). There is no OAuth authorization server for this
 * endpoint, so the challenge names no resource metadata; and the dashboard's session cookie does
 * not count here, since MCP clients never send one and a cookie would ride along cross-site.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { createMcpEndpoint, type RpcReply } from '../../mcp/mcp-endpoint.js';
import { requestKeyValid } from '../auth/api-key.js';
import { registerMcpEdge } from '../mcp-edge.js';
import { mcpRouteDoc } from '../openapi/mcp-doc.js';

export const GATEWAY_MCP_PATH = '/api/video/mcp';

async function challenge(message: string): Promise<RpcReply> {
  // The SDK loads with the first MCP request (mcp-endpoint.ts); an unauthorized one is a first too.
  const { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode } =
    await import('@modelcontextprotocol/server');
  const res = bearerAuthChallengeResponse(new OAuthError(OAuthErrorCode.InvalidToken, message));
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k !== 'content-length') headers[k] = v;
  });
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

type GatewayMcpDeps = {
  gateway: Gateway;
  secrets: { apiKeyHash: Buffer };
  publicUrl: string;
  allowedOrigins: string[];
  version: string;
};

/** The private MCP endpoint as its own encapsulated plugin (its parser and error handler stay in). */
export function registerGatewayMcpRoutes(app: FastifyInstance, deps: GatewayMcpDeps): void {
  void app.register(function gatewayMcpRoutes(scope, _opts, done) {
    addGatewayMcpRoutes(scope, deps);
    done();
  });
}

function addGatewayMcpRoutes(app: FastifyInstance, deps: GatewayMcpDeps): void {
  const endpoint = createMcpEndpoint(
    async () => {
      const { createGatewayMcpServer } = await import('../../mcp/gateway/gateway-mcp-server.js');
      return () =>
        createGatewayMcpServer({
          gateway: deps.gateway,
          publicUrl: deps.publicUrl,
          version: deps.version,
          onToolFailure: (err, tool) => app.log.error({ err, tool }, 'gateway mcp tool failed'),
        });
    },
    (err) => app.log.debug({ err }, 'gateway mcp request rejected'),
    // No result cache: answers depend on the link and the platform, not on the request alone.
  );
  const authorize = (req: FastifyRequest): Promise<RpcReply | undefined> => {
    // The limiter's lockout judged this same header already: its verdict is reused.
    const valid = requestKeyValid(deps.secrets, req);
    if (valid === undefined) {
      return challenge('Send the gateway API key as Authorization: Bearer <FLEETGATE_API_KEY>.');
    }
    if (!valid) return challenge('The API key is not valid.');
    return Promise.resolve(undefined);
  };
  registerMcpEdge(app, {
    path: GATEWAY_MCP_PATH,
    publicUrl: deps.publicUrl,
    allowedOrigins: deps.allowedOrigins,
    endpoint,
    authorize,
    doc: mcpRouteDoc(
      'Private MCP endpoint (streamable HTTP, JSON-RPC 2.0; protocol 2026-07-28 and 2025-11-25): one tool per capability the platform offers and the link admits, status and monitor resources.',
      'api_key',
    ),
    // Private: every method on it spends the operator's budget and is guarded against key guessing.
    limit: { post: 'api', other: 'api' },
  });
}
