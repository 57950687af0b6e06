/**
 * Webhook subscriptions of the business application: create (201 with the signing secret, the
 * only time it is shown), list, one with its recent deliveries, delete.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { parseInput } from '../../../gateway/capabilities/registry.js';
import { subscriptionInput } from '../../../gateway/webhooks-out/subscriptions.js';
import { AppError } from '../../errors.js';
import { documentRoute } from '../../openapi.js';
import type { ViewDeps } from '../capability-routes.js';

const idParam = z.object({
  id: z.string().regex(/^sub_[\w-]{1,40}$/, 'id is a subscription id (sub_…)'),
});

const jsonObject = (req: FastifyRequest): Record<string, unknown> => {
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

export function registerSubscriptionRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway, auth } = deps;
  const subs = gateway.outgoing.subscriptions;
  const doc = (
    method: string,
    url: string,
    summary: string,
    extra: { input?: z.ZodType; status?: number } = {},
  ) => documentRoute({ method, url, summary, tag: 'gateway', auth: 'api_key', ...extra });
  doc(
    'POST',
    '/api/video/subscriptions',
    'Subscribes a URL to outgoing webhooks (Standard Webhooks signatures); answers {id, url, events, secret} — the only time the whsec_ secret is shown.',
    { input: subscriptionInput, status: 201 },
  );
  doc(
    'GET',
    '/api/video/subscriptions',
    'Webhook subscriptions with their delivery counts (never the secret).',
  );
  doc('GET', '/api/video/subscriptions/:id', 'One subscription with its recent deliveries.');
  doc('DELETE', '/api/video/subscriptions/:id', 'Deletes a subscription and its pending deliveries.');

  app.post('/api/video/subscriptions', { onRequest: auth }, async (req, reply) => {
    const created = await subs.create(parseInput(subscriptionInput, jsonObject(req)));
    return reply.code(201).header('cache-control', 'no-store').send(created);
  });
  app.get('/api/video/subscriptions', { onRequest: auth }, async () => ({ items: await subs.list() }));
  app.get('/api/video/subscriptions/:id', { onRequest: auth }, async (req) =>
    subs.get(parseInput(idParam, req.params).id),
  );
  app.delete('/api/video/subscriptions/:id', { onRequest: auth }, async (req) =>
    subs.delete(parseInput(idParam, req.params).id),
  );
}
