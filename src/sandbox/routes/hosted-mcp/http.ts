/** The HTTP edge of the hosted MCP: `POST /mcp` on the emulator app behind an emulator bearer token. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerMcpEdge } from '../../../http/mcp-edge.js';
import { createMcpEndpoint, rpcError } from '../../../mcp/mcp-endpoint.js';
import type { SandboxContext } from '../../context.js';
import type { AccessToken } from '../../state.js';
import { ZoomError } from '../../zoom-error.js';
import type { MeetingsSlice } from '../meetings.js';
import type { RecordingsSlice } from '../recordings.js';
import { meetingDocs } from './docs.js';

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
    async () => {
      const { createHostedMcpServer } = await import('./server.js');
      return () =>
        createHostedMcpServer(docs, {
          now: () => ctx.now(),
          secret: `${ctx.options.clientSecret}|mcp-search`,
          me: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
        });
    },
    (err) => app.log.debug({ err }, 'hosted mcp request rejected'),
  );
  registerMcpEdge(app, {
    path: '/mcp',
    publicUrl: ctx.baseUrl,
    // The platform's hosted MCP serves agents, not web pages: no browser Origin is allowed.
    allowedOrigins: [],
    endpoint,
    authorize: (req) => {
      try {
        deps.authenticate(req);
        return undefined;
      } catch (err) {
        if (!(err instanceof ZoomError)) throw err;
        const challenge = `Bearer realm="${ctx.baseUrl}/mcp", error="invalid_token", error_description="${err.message}"`;
        return rpcError(401, -32001, err.message, { 'www-authenticate': challenge });
      }
    },
  });
}
