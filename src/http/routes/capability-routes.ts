/**
 * The capability registry over HTTP: list with availability, invoke one with JSON arguments,
 * and `restView` — the helper every named /api/video path uses to be a thin view over an
 * operation (input from query/params/body, output as the operation returns it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { capabilityState } from '../../gateway/monitor.js';
import { entry, invoke, inputJsonSchema, REGISTRY } from '../../gateway/capabilities/registry.js';
import { documentRoute } from '../openapi.js';
import { AppError } from '../errors.js';

type Auth = (req: FastifyRequest) => Promise<void>;

export interface ViewDeps {
  gateway: Gateway;
  auth: Auth;
}

export function registerCapabilityRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway, auth } = deps;
  app.get('/api/video/capabilities', { preHandler: auth }, async () => {
    const monitor = await gateway.monitor();
    return {
      items: REGISTRY.map((r) => {
        const state = capabilityState(monitor, r.group, r.name);
        return {
          group: r.group,
          name: r.name,
          summary: r.operation?.summary ?? r.note ?? null,
          kind: r.operation?.kind ?? null,
          availability: r.availability,
          state,
          available: r.operation !== undefined && state === 'ok',
          scopes: r.scopes,
          note: r.note ?? null,
          invoke: r.operation ? `/api/video/capabilities/${r.group}/${r.name}` : null,
          inputSchema: r.operation ? inputJsonSchema(r.operation) : null,
        };
      }),
    };
  });
  app.post<{ Params: { group: string; name: string } }>(
    '/api/video/capabilities/:group/:name',
    { preHandler: auth },
    async (req) => {
      const ctx = await gateway.opContext();
      return { result: await invoke(ctx, req.params.group, req.params.name, req.body) };
    },
  );
}

export interface ViewDef {
  method: HTTPMethods;
  url: string;
  group: string;
  name: string;
  /** Builds the operation input; default: query (GET/DELETE) or body (others), plus path params. */
  input?: (req: FastifyRequest) => unknown;
  status?: number;
}

export function restView(app: FastifyInstance, deps: ViewDeps, v: ViewDef): void {
  const op = entry(v.group, v.name).operation;
  documentRoute({
    method: String(v.method),
    url: v.url,
    summary: op?.summary ?? `${v.group}/${v.name}`,
    tag: 'capabilities',
    auth: 'api_key',
    ...(op ? { input: op.input } : {}),
    ...(v.status ? { status: v.status } : {}),
  });
  app.route({
    method: v.method,
    url: v.url,
    preHandler: deps.auth,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const params = (req.params ?? {}) as Record<string, unknown>;
      const source = v.method === 'GET' || v.method === 'DELETE' ? req.query : req.body;
      if (source !== undefined && source !== null && (typeof source !== 'object' || Array.isArray(source))) {
        throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
      }
      const input = v.input
        ? v.input(req)
        : { ...(source as Record<string, unknown> | undefined), ...params };
      const result = await invoke(await deps.gateway.opContext(), v.group, v.name, input);
      return reply.code(v.status ?? 200).send(result);
    },
  });
}
