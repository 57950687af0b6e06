/**
 * The description of an MCP endpoint (POST, streamable HTTP, stateless): JSON-RPC in and out.
 * Its refusals are JSON-RPC errors (mcp-edge.ts, mcp-endpoint.ts, the SDK), not the API's error
 * shape, and the private endpoint's 401 is an OAuth bearer challenge.
 */
import * as z from 'zod';
import { jsonRpcErrorSchema, jsonRpcId, oauthErrorSchema } from './schemas.js';
import type { ResponseDoc, RouteDocBody } from './route-doc.js';

const jsonRpcRequest = z
  .object({
    jsonrpc: z.literal('2.0'),
    method: z.string().describe('initialize, tools/list, tools/call, resources/read, …'),
    params: z.record(z.string(), z.unknown()).optional(),
    id: jsonRpcId.optional().describe('a string or an integer; absent for a notification'),
  })
  .describe('A JSON-RPC 2.0 request or notification.');

const jsonRpcResult = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: jsonRpcId,
    result: z.record(z.string(), z.unknown()),
  })
  .describe('A JSON-RPC 2.0 result.');

const rpcError = (description: string): ResponseDoc => ({ description, body: jsonRpcErrorSchema });

export function mcpRouteDoc(summary: string, auth: 'none' | 'api_key'): RouteDocBody {
  return {
    summary,
    tag: 'mcp',
    auth,
    input: jsonRpcRequest,
    output: z.union([jsonRpcResult, jsonRpcErrorSchema]),
    media: {
      type: 'text/event-stream',
      schema: { type: 'string', description: 'the same messages as SSE events' },
    },
    responseDescription:
      'The JSON-RPC answer: a result, or an error the MCP server answers with (unknown method, invalid params, a failing tool).',
    responses: {
      202: { description: 'A notification or a response was accepted; no body.' },
      400: rpcError('Not JSON (-32700), not a JSON-RPC request (-32600), or nested too deep.'),
      ...(auth === 'api_key'
        ? {
            401: {
              description:
                'Without the API key or with a wrong one: an OAuth bearer challenge (WWW-Authenticate: Bearer error="invalid_token").',
              body: oauthErrorSchema,
              headers: { 'WWW-Authenticate': 'Bearer error="invalid_token", error_description="…"' },
            },
          }
        : {}),
      403: rpcError('A Host or Origin this endpoint does not serve (DNS rebinding, foreign pages).'),
      406: rpcError('The Accept header allows neither application/json nor text/event-stream.'),
      413: rpcError('The body is larger than the endpoint reads.'),
      415: rpcError('The Content-Type is not application/json.'),
      429: {
        ...rpcError('Too many requests (or, on the private endpoint, too many wrong keys); see Retry-After.'),
        headers: { 'Retry-After': 'seconds to wait' },
      },
      500: rpcError('Internal error (-32603).'),
      default: rpcError('Any other refusal, as a JSON-RPC error.'),
    },
    errors: [],
  };
}
