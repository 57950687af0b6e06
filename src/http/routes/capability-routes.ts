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
import * as z from 'zod';
import { OPERATION_ERRORS, type RouteDocBody } from '../openapi.js';
import { commentsDoc } from './video/ra-routes.js';
import { AppError } from '../errors.js';
import { idempotencyKey, markReplay } from '../idempotency-header.js';

export interface ViewDeps {
  gateway: Gateway;
}

const capability = z.object({
  group: z.string(),
  name: z.string(),
  summary: z.string().nullable(),
  kind: z
    .enum(['read', 'write', 'delete'])
    .nullable()
    .describe('null where the platform offers no public API'),
  availability: z.enum(['rest', 'hosted_mcp', 'composed', 'no_public_api']),
  state: z.enum(['ok', 'missing_scope', 'no_license', 'no_public_api', 'upstream_error', 'not_linked']),
  available: z.boolean().describe('it has an operation and its state is ok'),
  scopes: z.array(z.string()),
  note: z.string().nullable(),
  invoke: z.string().nullable().describe('the path that invokes it (POST), when it has an operation'),
  inputSchema: z.record(z.string(), z.unknown()).nullable().describe('JSON Schema of its arguments'),
});

const listDoc: RouteDocBody = {
  summary: 'The capability registry: every group/name with availability, state and input schema.',
  tag: 'capabilities',
  auth: 'api_key',
  output: z.object({ items: z.array(capability) }),
};

const invokeDoc: RouteDocBody = {
  summary:
    'Invokes one capability with JSON arguments (its inputSchema); 404 for an unknown one, 501 no_public_api where the platform has none. A creating capability honours Idempotency-Key.',
  tag: 'capabilities',
  auth: 'api_key',
  input: z.record(z.string(), z.unknown()).describe("the capability's arguments"),
  output: z.object({
    result: z.unknown().describe("the operation's answer: its output schema in the capability's REST path"),
  }),
  idempotent: true,
  errors: [...OPERATION_ERRORS, 501],
};

export function registerCapabilityRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway } = deps;
  app.get('/api/video/capabilities', { config: { doc: listDoc } }, async () => {
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
    { config: { doc: invokeDoc } },
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

/**
 * A view's description: from the operation (input, output, errors and Idempotency-Key), or, for
 * a path that takes and answers only part of it (ra-routes.ts), its own.
 */
const viewDoc = (op: Operation, v: RestBinding): RouteDocBody =>
  commentsDoc(op, v) ?? {
    summary: op.summary,
    tag: 'capabilities',
    auth: 'api_key',
    operation: op,
    ...(v.docInput ? { input: v.docInput } : {}),
    ...(v.status ? { status: v.status } : {}),
  };

/** One REST path of an operation: documented and served from the operation's declaration. */
function restView(app: FastifyInstance, deps: ViewDeps, op: Operation, v: RestBinding): void {
  const run = viewRunner(deps, op, v);
  const status = v.status ?? 200;
  app.route({
    method: v.method,
    url: v.url,
    config: { doc: viewDoc(op, v) },
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
