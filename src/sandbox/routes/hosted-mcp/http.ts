/** The HTTP edge of the hosted MCP: `POST /mcp` on the emulator app behind an emulator bearer token. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpEndpoint, MCP_BODY_LIMIT, rpcError, type RpcReply } from '../../../mcp/mcp-endpoint.js';
import type { SandboxContext } from '../../context.js';
import type { AccessToken } from '../../state.js';
import { ZoomError } from '../../zoom-error.js';
import type { MeetingsSlice } from '../meetings.js';
import type { RecordingsSlice } from '../recordings.js';
import { meetingDocs } from './docs.js';
import { createHostedMcpServer } from './server.js';

export function send(reply: FastifyReply, r: RpcReply): FastifyReply {
  return reply.code(r.status).headers(r.headers).send(r.body);
}

export function toHeaders(req: FastifyRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else h.set(k, v);
  }
  return h;
}

/**
 * Serves `POST /mcp` on the emulator app (call before listen). Every request needs a valid
 * emulator access token (`Authorization: Bearer …`); `authenticate` throws the emulator's
 * ZoomError otherwise, which is answered with 401 and a Bearer challenge.
 */
export function registerHostedMcp(
  app: FastifyInstance,
  deps: { ctx: SandboxContext; authenticate: (req: FastifyRequest) => AccessToken },
): void {
  const { ctx } = deps;
  const docs = () =>
    meetingDocs(
      ctx.slice<MeetingsSlice>('meetings').meetings,
      ctx.slice<RecordingsSlice | undefined>('recordings'),
      ctx.now(),
    );
  const endpoint = createMcpEndpoint(
    () =>
      createHostedMcpServer(docs, {
        now: () => ctx.now(),
        secret: `${ctx.options.clientSecret}|mcp-search`,
        me: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
      }),
    (err) => app.log.debug({ err }, 'hosted mcp request rejected'),
  );
  app.addHook('onClose', () => endpoint.close());

  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_req, raw, next) =>
      next(null, raw),
    );
    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return send(reply, rpcError(413, -32600, `Request body is larger than ${MCP_BODY_LIMIT} bytes.`));
      req.log.error({ err }, 'hosted mcp request failed');
      return send(reply, rpcError(500, -32603, 'Internal error.'));
    });

    scope.post('/mcp', async (req, reply) => {
      try {
        deps.authenticate(req);
      } catch (err) {
        if (!(err instanceof ZoomError)) throw err;
        const challenge = `Bearer realm="${ctx.baseUrl}/mcp", error="invalid_token", error_description="${err.message}"`;
        return send(reply, rpcError(401, -32001, err.message, { 'www-authenticate': challenge }));
      }
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        return send(
          reply,
          rpcError(415, -32600, 'Unsupported Media Type: Content-Type must be application/json.'),
        );
      }
      const result = await endpoint.handle({
        url: `${ctx.baseUrl}/mcp`,
        header: (name) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        headers: () => toHeaders(req),
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        signal: () => {
          const abort = new AbortController();
          reply.raw.on('close', () => abort.abort());
          return abort.signal;
        },
      });
      return send(reply, result);
    });
    // Stateless: no SSE stream to GET, no session to DELETE.
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
