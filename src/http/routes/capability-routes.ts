/**
 * The capability registry over HTTP: list with availability, invoke one with JSON arguments,
 * and every capability's named /api/video paths, registered in one loop from the `rest` its
 * declaration carries: each a thin view over the operation (input from query/params/body, output
 * as the operation returns it). All run the shared invoke with the request's Idempotency-Key
 * header (idempotent-invoke.ts has the rules; it also checks scopes and the output for them).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { capabilityState } from '../../gateway/monitor.js';
import type { Operation, RestBinding, ViewRequest } from '../../gateway/capabilities/operation.js';
import { inputJsonSchema, REGISTRY } from '../../gateway/capabilities/registry.js';
import { invokeOnce, type InvokeOutcome } from '../../gateway/capabilities/idempotent-invoke.js';
import { documentRoute } from '../openapi.js';
import { CAPABILITY_DOCS } from './capability-docs.js';
import { AppError } from '../errors.js';
import { idempotencyKey, markReplay } from '../idempotency-header.js';

export interface ViewDeps {
  gateway: Gateway;
}

export function registerCapabilityRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway } = deps;
  for (const d of CAPABILITY_DOCS) documentRoute(app, d);
  app.get('/api/video/capabilities', async () => {
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
    async (req, reply) => {
      const ctx = await gateway.opContext();
      const { group, name } = req.params;
      const { result, replayed } = await invokeOnce(ctx, group, name, req.body, idempotencyKey(req));
      return markReplay(reply, replayed).send({ result });
    },
  );
}

/** Runs a view's operation on a request's parts, under the request's idempotency key if any. */
function viewRunner(
  deps: ViewDeps,
  op: Operation,
  v: RestBinding,
): (req: ViewRequest, key?: string) => Promise<InvokeOutcome> {
  return async (req, key) => {
    const params = (req.params ?? {}) as Record<string, unknown>;
    const source = v.method === 'GET' || v.method === 'DELETE' ? req.query : req.body;
    if (source !== undefined && source !== null && (typeof source !== 'object' || Array.isArray(source))) {
      throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
    }
    // A path parameter is the operation's input of that name; the same name in the query or body
    // would be overridden unseen, so it is refused.
    const repeated = Object.keys(params).find((k) => source && Object.hasOwn(source, k));
    if (!v.input && repeated)
      throw new AppError(400, 'validation_failed', 'The input is not valid.', {
        issues: [{ path: repeated, message: `${repeated} is the path's; leave it out of the request` }],
      });
    const input = v.input ? v.input(req) : { ...(source as Record<string, unknown> | undefined), ...params };
    return invokeOnce(await deps.gateway.opContext(), op.group, op.name, input, key);
  };
}

/** One REST path of an operation: documented and served from the operation's declaration. */
function restView(app: FastifyInstance, deps: ViewDeps, op: Operation, v: RestBinding): void {
  documentRoute(app, {
    method: v.method,
    url: v.url,
    summary: op.summary,
    tag: 'capabilities',
    auth: 'api_key',
    // Input, output, errors and Idempotency-Key come from the operation.
    operation: op,
    ...(v.docInput ? { input: v.docInput } : {}),
    ...(v.status ? { status: v.status } : {}),
  });
  const run = viewRunner(deps, op, v);
  const status = v.status ?? 200;
  app.route({
    method: v.method,
    url: v.url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const { result, replayed } = await run(req, idempotencyKey(req));
      return markReplay(reply, replayed).code(status).send(result);
    },
  });
}

/** Every capability's REST paths, as its declaration (ops/*.ts, `rest`) names them. */
export function registerCapabilityViews(app: FastifyInstance, deps: ViewDeps): void {
  for (const { operation: op } of REGISTRY) {
    if (op) for (const v of op.rest ?? []) restView(app, deps, op, v);
  }
}
