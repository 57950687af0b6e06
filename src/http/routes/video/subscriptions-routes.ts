/**
 * Webhook subscriptions of the business application: create (201 with the signing secret, the
 * only time it is shown), list, one with its recent deliveries, delete.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { parseInput } from '../../../gateway/capabilities/registry.js';
import { subscriptionInput, type SubscriptionService } from '../../../gateway/webhooks-out/subscriptions.js';
import { AppError } from '../../errors.js';
import type { Holds, RouteDoc } from '../../openapi.js';
import { subscriptionSchemas } from '../gateway-schemas.js';
import type { ViewDeps } from '../capability-routes.js';

const idParam = z.object({
  id: z.string().regex(/^sub_[\w-]{1,40}$/, 'id is a subscription id (sub_…)'),
});

type Answer<K extends 'create' | 'list' | 'get' | 'delete'> = Awaited<ReturnType<SubscriptionService[K]>>;
export type SubscriptionHolds = [
  Holds<Answer<'create'>, z.output<typeof subscriptionSchemas.created>>,
  Holds<{ items: Answer<'list'> }, z.output<typeof subscriptionSchemas.list>>,
  Holds<Answer<'get'>, z.output<typeof subscriptionSchemas.one>>,
  Holds<Answer<'delete'>, z.output<typeof subscriptionSchemas.deleted>>,
];

const jsonObject = (req: FastifyRequest): Record<string, unknown> => {
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

export function registerSubscriptionRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway } = deps;
  const subs = gateway.outgoing.subscriptions;
  const doc = (
    summary: string,
    extra: Pick<RouteDoc, 'input' | 'status' | 'output' | 'params' | 'errors'>,
  ) => ({
    config: { doc: { summary, tag: 'gateway' as const, auth: 'api_key' as const, ...extra } },
  });
  const create = doc(
    'Subscribes a URL to outgoing webhooks (Standard Webhooks signatures); answers {id, url, events, secret} — the only time the whsec_ secret is shown.',
    { input: subscriptionInput, status: 201, output: subscriptionSchemas.created, errors: [400, 409] },
  );
  const list = doc('Webhook subscriptions with their delivery counts (never the secret).', {
    output: subscriptionSchemas.list,
  });
  const one = doc('One subscription with its recent deliveries.', {
    params: idParam,
    output: subscriptionSchemas.one,
    errors: [400, 404],
  });
  const remove = doc('Deletes a subscription and its pending deliveries.', {
    params: idParam,
    output: subscriptionSchemas.deleted,
    errors: [400, 404, 409],
  });

  app.post('/api/video/subscriptions', create, async (req, reply) => {
    const created = await subs.create(parseInput(subscriptionInput, jsonObject(req)));
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });
  app.get('/api/video/subscriptions', list, async () => ({ items: await subs.list() }));
  app.get('/api/video/subscriptions/:id', one, async (req) => subs.get(parseInput(idParam, req.params).id));
  app.delete('/api/video/subscriptions/:id', remove, async (req) =>
    subs.delete(parseInput(idParam, req.params).id),
  );
}
