/**
 * The HTTP edge of the hosted MCP: `POST /mcp` on the emulator app behind an emulator bearer
 * token, stateless (no SSE stream to GET, no session to DELETE: other methods answer 405). Like
 * the platform's, it serves agents, not web pages: a request with a browser Origin, or for a
 * Host that is not a loopback name or the emulator's own (DNS rebinding), is refused.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../../context.js';
import type { ContractViolation } from '../../contract/check.js';
import type { ContractLog } from '../../contract/log.js';
import type { AccessToken } from '../../state.js';
import { ZoomError } from '../../zoom-error.js';
import type { MeetingsSlice } from '../meetings.js';
import type { RecordingsSlice } from '../recordings.js';
import { meetingDocs } from './docs.js';
import { TOOL_INPUTS } from './inputs.js';
import type { McpTransport } from './transport.js';

// As the SDK is told (transport.ts), which this module does not load up front.
const MCP_BODY_LIMIT = 256 * 1024;
const LOOPBACK_HOST = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(:\d{1,5})?$/;

interface RpcReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

const rpcError = (
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): RpcReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })),
});

const send = (reply: FastifyReply, r: RpcReply) => reply.code(r.status).headers(r.headers).send(r.body);

/** A single JSON-RPC 2.0 message object; the SDK answers malformed envelopes with the wrong code. */
const isMessage = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v as { jsonrpc?: unknown }).jsonrpc === '2.0';

function toHeaders(req: FastifyRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else h.set(k, v);
  }
  return h;
}

interface McpDeps {
  ctx: EmulatorContext;
  authenticate: (req: FastifyRequest) => AccessToken;
  contract: ContractLog;
}

type LoadTransport = () => Promise<McpTransport>;

/**
 * Serves `POST /mcp` on the emulator app (call before listen). Every request needs a valid
 * emulator access token (`Authorization: Bearer …`); `authenticate` throws the emulator's
 * ZoomError otherwise, which is answered with 401 and a Bearer challenge.
 */
export function registerHostedMcp(app: FastifyInstance, deps: McpDeps): void {
  const ownHost = new URL(deps.ctx.baseUrl).host;
  const loadTransport = transportLoader(app, deps.ctx);
  void app.register((scope, _opts, done) => {
    // Raw bytes in, so that bad JSON gets a JSON-RPC answer rather than Fastify's.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_req, body, next) =>
      next(null, body),
    );
    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return send(reply, rpcError(413, -32600, `Request body is larger than ${MCP_BODY_LIMIT} bytes.`));
      }
      req.log.error({ err }, 'hosted mcp request failed');
      return send(reply, rpcError(500, -32603, 'Internal error.'));
    });
    scope.post(
      '/mcp',
      // Before the body is read: a foreign page or a caller without a token costs no buffering.
      { onRequest: async (req, reply) => admit(deps, ownHost, req, reply) },
      async (req, reply) => answer(deps, loadTransport, req, reply),
    );
    scope.options('/mcp', (req, reply) => {
      const problem = refused(ownHost, req);
      if (problem) return send(reply, problem);
      return reply.code(204).headers({ 'access-control-allow-methods': 'POST, OPTIONS' }).send();
    });
    scope.route({
      method: ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'],
      url: '/mcp',
      exposeHeadRoute: false,
      handler: (_req, reply) =>
        send(reply, rpcError(405, -32000, 'Method not allowed: use POST.', { allow: 'POST' })),
    });
    done();
  });
}

/** Notes a request outside MCP's Streamable HTTP or the tools' input schemas (no document has them). */
function broke(deps: McpDeps, req: FastifyRequest, name: string, rule: string, message: string): void {
  const v: ContractViolation = {
    request: `POST /mcp ${name}`,
    document: 'none',
    operation: 'POST /mcp (MCP Streamable HTTP, the hosted tools)',
    where: 'body',
    name,
    rule,
    message,
    refuse: true,
  };
  deps.contract.record('mcp', [v]);
  req.log.debug({ violation: v }, 'hosted mcp request outside its contract');
}

/** The SDK loads on the first request: a run that serves no MCP never loads it. */
function transportLoader(app: FastifyInstance, ctx: EmulatorContext): LoadTransport {
  const docs = () =>
    meetingDocs(
      ctx.slice<MeetingsSlice>('meetings').meetings,
      ctx.slice<RecordingsSlice | undefined>('recordings'),
      ctx.now(),
    );
  let transport: Promise<McpTransport> | undefined;
  app.addHook('onClose', async () => {
    if (transport) await (await transport.catch(() => undefined))?.close();
  });
  return () =>
    (transport ??= Promise.all([import('./transport.js'), import('./server.js')]).then(
      ([t, s]) =>
        t.createMcpTransport(
          () =>
            s.createHostedMcpServer(docs, {
              now: () => ctx.now(),
              secret: `${ctx.options.clientSecret}|mcp-search`,
              me: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
            }),
          (err) => app.log.debug({ err }, 'hosted mcp request rejected'),
        ),
      (err: unknown) => {
        transport = undefined; // a failed load is tried again by the next request
        throw err;
      },
    ));
}

/** A `tools/call` must name a tool and pass what its input schema takes. */
function checkToolCall(deps: McpDeps, req: FastifyRequest, message: unknown): void {
  const m = message as { method?: unknown; params?: { name?: unknown; arguments?: unknown } };
  if (m.method !== 'tools/call') return;
  const name = typeof m.params?.name === 'string' ? m.params.name : undefined;
  const schema = name !== undefined ? TOOL_INPUTS[name as keyof typeof TOOL_INPUTS] : undefined;
  if (name === undefined || !schema) {
    broke(
      deps,
      req,
      'params.name',
      `enum ${JSON.stringify(Object.keys(TOOL_INPUTS))}`,
      `no tool ${name ?? '(none)'}`,
    );
    return;
  }
  const parsed = schema.safeParse(m.params?.arguments ?? {});
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      broke(
        deps,
        req,
        `${name}.${issue.path.join('.') || '(arguments)'}`,
        `tool input ${issue.code}`,
        `${name}: ${issue.message}`,
      );
}

function refused(ownHost: string, req: FastifyRequest): RpcReply | undefined {
  const host = req.headers.host?.toLowerCase();
  if (host !== undefined && host !== ownHost && !LOOPBACK_HOST.test(host)) {
    return rpcError(403, -32000, 'Forbidden: this Host is not served by the MCP endpoint.');
  }
  if (req.headers.origin !== undefined) {
    return rpcError(403, -32000, 'Forbidden: this Origin is not allowed to call the MCP endpoint.');
  }
  return undefined;
}

/** A foreign Host or Origin is refused, a caller without a valid token gets 401 and a Bearer challenge. */
async function admit(deps: McpDeps, ownHost: string, req: FastifyRequest, reply: FastifyReply) {
  const problem = refused(ownHost, req);
  if (problem) return send(reply, problem);
  try {
    deps.authenticate(req);
  } catch (err) {
    if (!(err instanceof ZoomError)) throw err;
    const challenge = `Bearer realm="${deps.ctx.baseUrl}/mcp", error="invalid_token", error_description="${err.message}"`;
    return send(reply, rpcError(401, -32001, err.message, { 'www-authenticate': challenge }));
  }
  return undefined;
}

/** The one JSON-RPC message in the body, or the error answer for a body that is not one. */
function readMessage(
  deps: McpDeps,
  req: FastifyRequest,
): { parsed: unknown; body: Buffer; error?: undefined } | { error: RpcReply } {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    broke(deps, req, '(body)', 'media application/json', 'a JSON-RPC message is sent as application/json');
    return { error: rpcError(415, -32600, 'Unsupported Media Type: Content-Type must be application/json.') };
  }
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    broke(deps, req, '(body)', 'json', 'the body is not valid JSON');
    return { error: rpcError(400, -32700, 'Parse error: the body is not valid JSON.') };
  }
  if (!isMessage(parsed)) {
    broke(deps, req, '(body)', 'JSON-RPC 2.0 message', 'the body is not one JSON-RPC 2.0 message object');
    return { error: rpcError(400, -32600, 'Invalid Request: send one JSON-RPC 2.0 message object.') };
  }
  return { parsed, body };
}

/** Hands the message to the SDK's transport and sends back what it answers. */
async function answer(deps: McpDeps, loadTransport: LoadTransport, req: FastifyRequest, reply: FastifyReply) {
  const read = readMessage(deps, req);
  if (read.error) return send(reply, read.error);
  const { parsed, body } = read;
  checkToolCall(deps, req, parsed);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort());
  const request = new Request(`${deps.ctx.baseUrl}/mcp`, {
    method: 'POST',
    headers: toHeaders(req),
    body: new Uint8Array(body),
    signal: abort.signal,
  });
  const res = await (await loadTransport()).fetch(request, parsed);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k !== 'content-length') headers[k] = v;
  });
  const buf = res.body ? Buffer.from(await res.arrayBuffer()) : undefined;
  // What the transport refuses as not MCP (a missing Accept, a wrong protocol version).
  if (res.status === 400 || res.status === 406 || res.status === 415)
    broke(
      deps,
      req,
      '(request)',
      `MCP Streamable HTTP ${res.status}`,
      buf?.toString('utf8').slice(0, 200) ?? '',
    );
  return send(reply, { status: res.status, headers, body: buf && buf.length > 0 ? buf : undefined });
}
