/**
 * The emulator's control API (emulator only, never on the platform): inject faults, read
 * counters, expire tokens, send a webhook on demand, and reset to the seeded state.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { faultSchema, type Faults } from './faults.js';
import type { SandboxStats } from './oauth.js';
import type { WebhookSender } from './webhooks.js';

const sendSchema = z.strictObject({
  event: z.string().min(1),
  object: z.record(z.string(), z.unknown()).default({}),
});

export function registerControl(
  app: FastifyInstance,
  deps: {
    faults: Faults;
    webhooks: WebhookSender;
    stats: () => SandboxStats;
    expireTokens: () => void;
    emit: (event: string, object: unknown) => void;
    reset: () => void;
  },
): void {
  const bad = (issues: z.core.$ZodIssue[]) => ({
    error: {
      code: 'validation_failed',
      message: 'The request is not valid.',
      details: { issues: issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
    },
  });
  app.post('/_sandbox/faults', (req, reply) => {
    const list = Array.isArray(req.body) ? req.body : [req.body];
    const parsed = z.array(faultSchema).min(1).safeParse(list);
    if (!parsed.success) return reply.code(400).send(bad(parsed.error.issues));
    for (const f of parsed.data) deps.faults.add(f);
    return reply.code(201).send({ faults: deps.faults.active });
  });
  app.get('/_sandbox/faults', () => ({ faults: deps.faults.active }));
  app.delete('/_sandbox/faults', (_req, reply) => {
    deps.faults.clear();
    return reply.code(204).send();
  });
  app.get('/_sandbox/stats', () => deps.stats());
  app.post('/_sandbox/tokens/expire', (_req, reply) => {
    deps.expireTokens();
    return reply.code(204).send();
  });
  app.post('/_sandbox/webhooks/send', (req, reply) => {
    const parsed = sendSchema.safeParse(req.body ?? {});
    if (!parsed.success) return reply.code(400).send(bad(parsed.error.issues));
    deps.emit(parsed.data.event, parsed.data.object);
    return reply.code(202).send({ queued: true });
  });
  app.get('/_sandbox/webhooks', () => ({ deliveries: deps.webhooks.log }));
  app.post('/_sandbox/reset', (_req, reply) => {
    deps.reset();
    const s = deps.stats();
    s.requests = {};
    s.tokenGrants = {
      authorization_code: 0,
      refresh_token: 0,
      account_credentials: 0,
      client_credentials: 0,
    };
    s.rejectedRefreshTokens = 0;
    return reply.code(204).send();
  });
}
