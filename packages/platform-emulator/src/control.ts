/**
 * The emulator's control API (emulator only, never on the platform): inject faults, read
 * counters and the contract violations seen (contract/log.ts), expire or revoke tokens, remove
 * the app (revoking its tokens and sending the signed `app_deauthorized` event), send a webhook
 * or the endpoint's validation challenge on demand, and reset to the seeded state.
 */
import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import type { ContractLog } from './contract/log.js';
import { faultSchema, type Faults } from './faults.js';
import type { EmulatorStats } from './oauth.js';
import type { Delivery, WebhookSender } from './webhooks.js';

const sendSchema = z.strictObject({
  event: z.string().min(1),
  object: z.record(z.string(), z.unknown()).default({}),
});

export function registerControl(
  app: FastifyInstance,
  deps: {
    faults: Faults;
    contract: ContractLog;
    webhooks: WebhookSender;
    stats: () => EmulatorStats;
    expireTokens: () => void;
    /** Revokes every issued access and refresh token; how many of each went. */
    revokeTokens: () => { access: number; refresh: number };
    /** Removes the app: revokes its tokens and sends `app_deauthorized`. */
    deauthorize: () => Promise<{
      revoked: { access: number; refresh: number };
      delivery: Delivery | undefined;
    }>;
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
  app.get('/_sandbox/contract', () => ({ total: deps.contract.total, violations: deps.contract.entries }));
  app.post('/_sandbox/tokens/expire', (_req, reply) => {
    deps.expireTokens();
    return reply.code(204).send();
  });
  app.post('/_sandbox/tokens/revoke', (_req, reply) => reply.send({ revoked: deps.revokeTokens() }));
  // Answers once the event's first delivery attempt is done, so a caller can look at the result.
  app.post('/_sandbox/app/deauthorize', async (_req, reply) => {
    const { revoked, delivery } = await deps.deauthorize();
    return reply.send({ revoked, delivery: delivery ?? null });
  });
  app.post('/_sandbox/webhooks/validate', async (_req, reply) => {
    const v = await deps.webhooks.validate();
    if (!v)
      return reply
        .code(409)
        .send({ error: { code: 'no_webhook_url', message: 'No webhook URL is configured.' } });
    return reply.send({ ...v, disabled: deps.webhooks.disabled });
  });
  app.get('/_sandbox/webhooks/validations', () => ({
    validations: deps.webhooks.validations,
    disabled: deps.webhooks.disabled,
  }));
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
