/**
 * The Fastify edge of an MCP endpoint, shared by the public brand `/mcp` and the private
 * gateway `/api/video/mcp`: raw body under a small limit, the Origin allow-list, an optional
 * authorization check before the body is read, the Host check (DNS rebinding), the JSON content
 * type, CORS for allowed browser origins, and 405 with `Allow: POST` for every other method. The bytes then go to
 * the MCP endpoint, which speaks JSON-RPC.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MCP_BODY_LIMIT, rpcError, type McpEndpoint, type RpcReply } from '../mcp/mcp-endpoint.js';
import type { LimitClass, RouteDocBody } from './openapi.js';

const ALLOW_HEADERS =
  'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID';

export interface McpEdgeOptions {
  path: string;
  publicUrl: string;
  allowedOrigins: string[];
  endpoint: McpEndpoint;
  /** Refuses a POST before its body is read (e.g. 401); undefined lets it through. */
  authorize?: (req: FastifyRequest) => RpcReply | undefined | Promise<RpcReply | undefined>;
  /** The POST's description for the API reference. */
  doc: RouteDocBody;
  /** Its limit classes (rate-limit.ts): the POST's, and every other method's on the path. */
  limit: { post?: LimitClass; other?: LimitClass };
}

const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/;

function send(reply: FastifyReply, r: RpcReply): FastifyReply {
  return reply.code(r.status).headers(r.headers).send(r.body);
}

function toHeaders(req: FastifyRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else h.set(k, v);
  }
  return h;
}

/** The checks on an MCP request's headers. */
interface McpEdgeChecks {
  /** A 403 for a Host or Origin we do not serve (DNS rebinding, foreign pages), else undefined. */
  originProblem(headers: IncomingHttpHeaders): RpcReply | undefined;
  /** The CORS headers for an allowed browser Origin; none for other callers. */
  cors(headers: IncomingHttpHeaders): Readonly<Record<string, string>>;
}

const NO_CORS: Readonly<Record<string, string>> = Object.freeze({});

function mcpEdgeChecks(o: Pick<McpEdgeOptions, 'publicUrl' | 'allowedOrigins'>): McpEdgeChecks {
  const allowed = new Set(o.allowedOrigins);
  const allowedHosts = new Set(
    [o.publicUrl, ...o.allowedOrigins].filter((u) => URL.canParse(u)).map((u) => new URL(u).host),
  );
  return {
    originProblem(headers) {
      // DNS rebinding: a hostile name resolving to us arrives with its own Host; loopback names
      // and our public host are the only ones we answer to.
      const host = headers.host?.toLowerCase();
      if (host !== undefined && !allowedHosts.has(host) && !LOOPBACK_HOST.test(host)) {
        return rpcError(403, -32000, 'Forbidden: this Host is not served by the MCP endpoint.');
      }
      const origin = headers.origin;
      // Non-browser clients send no Origin; a browser on a foreign site must not reach us (DNS rebinding).
      if (origin === undefined || allowed.has(origin)) return undefined;
      return rpcError(403, -32000, 'Forbidden: this Origin is not allowed to call the MCP endpoint.');
    },
    // Only an allowed Origin is echoed: a refused one must not be told it may read the answer.
    cors: (headers) =>
      headers.origin && allowed.has(headers.origin)
        ? {
            'access-control-allow-origin': headers.origin,
            vary: 'Origin',
            'access-control-expose-headers': 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate',
          }
        : NO_CORS,
  };
}

export function registerMcpEdge(app: FastifyInstance, o: McpEdgeOptions): void {
  app.addHook('onClose', () => o.endpoint.close());
  const checks = mcpEdgeChecks(o);
  const originProblem = (req: FastifyRequest) => checks.originProblem(req.headers);
  const withCors = (req: FastifyRequest, r: RpcReply): RpcReply => ({
    ...r,
    headers: { ...r.headers, ...checks.cors(req.headers) },
  });
  // A refusal of ours (429) is answered in JSON-RPC, as everything on the path.
  const other = { jsonRpc: true, auth: o.doc.auth, ...(o.limit.other ? { limit: o.limit.other } : {}) };

  void app.register((scope, _opts, done) => {
    rawBodies(scope);
    scope.post(
      o.path,
      {
        config: { doc: o.doc, jsonRpc: true, ...(o.limit.post ? { limit: o.limit.post } : {}) },
        // Before the body is read: a foreign page or a caller without the key costs us no buffering.
        onRequest: async (req, reply) => {
          const refused = originProblem(req) ?? (await o.authorize?.(req));
          if (refused) return send(reply, withCors(req, refused));
          return undefined;
        },
      },
      postHandler(o, withCors),
    );
    scope.options(o.path, { config: other }, (req, reply) => {
      const forbidden = originProblem(req);
      if (forbidden) return send(reply, forbidden);
      return reply
        .code(204)
        .headers({
          ...checks.cors(req.headers),
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': '600',
        })
        .send();
    });
    // Stateless: no SSE stream to GET, no session to DELETE.
    scope.route({
      method: ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'],
      url: o.path,
      exposeHeadRoute: false,
      config: other,
      handler: (_req, reply) =>
        send(reply, rpcError(405, -32000, 'Method not allowed: use POST.', { allow: 'POST' })),
    });
    done();
  });
}

/** Raw bytes in, so that bad JSON gets a JSON-RPC answer rather than Fastify's; errors as JSON-RPC too. */
function rawBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_req, body, next) =>
    next(null, body),
  );
  scope.setErrorHandler((err: FastifyError, req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, rpcError(413, -32600, `Request body is larger than ${MCP_BODY_LIMIT} bytes.`));
    }
    req.log.error({ err }, 'mcp request failed');
    return send(reply, rpcError(500, -32603, 'Internal error.'));
  });
}

/** The POST handler: a JSON body goes to the MCP endpoint, cancelled when the client goes away. */
function postHandler(
  o: McpEdgeOptions,
  withCors: (req: FastifyRequest, r: RpcReply) => RpcReply,
): (req: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  return async (req, reply) => {
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return send(
        reply,
        rpcError(415, -32600, 'Unsupported Media Type: Content-Type must be application/json.'),
      );
    }
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = await o.endpoint.handle({
      url: `${o.publicUrl}${o.path}`,
      header: (name) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v.join(', ') : v;
      },
      headers: () => toHeaders(req),
      body,
      signal: () => {
        // A client that goes away cancels its exchange (and closes a subscription stream).
        const abort = new AbortController();
        reply.raw.on('close', () => abort.abort());
        return abort.signal;
      },
    });
    return send(reply, withCors(req, result));
  };
}
