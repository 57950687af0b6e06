/**
 * The hosted MCP's transport, over the official SDK (loaded by http.ts on the first request):
 * 2026-07-28 requests go to the SDK's createMcpHandler, 2025-era (initialize) requests to a
 * fresh stateless transport in JSON mode. Each request gets a fresh server.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';

export const MCP_BODY_LIMIT = 256 * 1024;

export interface McpTransport {
  /** Answers a request whose body already parsed as a JSON-RPC message (`parsed` is that body). */
  fetch(request: Request, parsed: unknown): Promise<Response>;
  close(): Promise<void>;
}

export function createMcpTransport(factory: () => McpServer, onerror: (err: Error) => void): McpTransport {
  const modern = createMcpHandler(() => factory(), {
    legacy: 'reject',
    // 'auto' answers JSON unless a handler streams; these never do.
    responseMode: 'auto',
    maxRequestBodySize: MCP_BODY_LIMIT,
    onerror,
  });

  const legacy = async (request: Request, parsedBody: unknown): Promise<Response> => {
    const server = factory();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const res = await transport.handleRequest(request, { parsedBody });
      // JSON mode: the body is complete once the response exists, so buffering it here is safe.
      const body = await res.arrayBuffer();
      return new Response(res.status === 202 || res.status === 204 ? null : body, {
        status: res.status,
        headers: res.headers,
      });
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  };

  return {
    fetch: async (request, parsed) =>
      (await isLegacyRequest(request, parsed, { maxRequestBodySize: MCP_BODY_LIMIT }))
        ? legacy(request, parsed)
        : modern.fetch(request, { parsedBody: parsed }),
    close: () => modern.close(),
  };
}
