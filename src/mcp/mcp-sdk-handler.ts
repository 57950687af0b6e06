/**
 * The SDK side of an MCP endpoint (mcp-endpoint.ts loads this module on first use): 2026-07-28
 * requests go to the SDK's createMcpHandler, 2025-era (initialize) requests to a fresh stateless
 * transport in JSON mode.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from '@modelcontextprotocol/server';

export interface SdkHandler {
  /** Answers a request whose body already passed the envelope checks (`parsed` is that body). */
  fetch(request: Request, parsed: unknown): Promise<Response>;
  close(): Promise<void>;
}

/** `maxRequestBodySize` is the endpoint's own limit (MCP_BODY_LIMIT), so both sides refuse alike. */
export function createSdkHandler(
  factory: () => McpServer,
  onerror: (err: Error) => void,
  maxRequestBodySize: number,
): SdkHandler {
  const modern = createMcpHandler(() => factory(), {
    legacy: 'reject',
    // 'auto' answers JSON unless a handler streams; ours never do (and 'json' warns at start).
    responseMode: 'auto',
    maxRequestBodySize,
    maxSubscriptions: 64,
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
      (await isLegacyRequest(request, parsed, { maxRequestBodySize }))
        ? legacy(request, parsed)
        : modern.fetch(request, { parsedBody: parsed }),
    close: () => modern.close(),
  };
}
