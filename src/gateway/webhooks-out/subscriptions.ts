/**
 * Subscriptions of the business application: made through the API (the signing secret is
 * generated, shown in the creation answer only, and kept sealed) or by FLEETGATE_WEBHOOK_URL
 * with FLEETGATE_WEBHOOK_SECRET (one `env` subscription to every event type, rewritten from the
 * configuration at start and removed when the variable goes). Target URLs pass the SSRF guard.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import * as z from 'zod';
import { AppError } from '../../core/errors.js';
import type { DeliveryCounts, DeliveryLogEntry, WebhookSubscription } from '../../store/webhooks.js';
import type { Store } from '../../store/store.js';
import { seal, type KeySource } from '../oauth/vault.js';
import { EVENT_TYPES } from '../../store/outbox-messages.js';
import { newSecret } from '../../core/webhook-signature.js';
import { parseTarget, resolveTarget, TargetRefused, type Resolver } from './target-guard.js';

export const ENV_SUBSCRIPTION_ID = 'sub_env';
const MAX_SUBSCRIPTIONS = 50;

/** AAD of a subscription's sealed secret: a value copied to another row fails to open. */
export const subscriptionSecretAad = (id: string) => `webhook_subscriptions:${id}:secret`;

export const subscriptionInput = z.object({
  url: z.string().trim().min(1).max(2048).describe('http(s) URL of the receiver; public addresses only'),
  events: z
    .array(z.enum(['*', ...EVENT_TYPES]))
    .min(1)
    .max(EVENT_TYPES.length + 1)
    .describe('event types to receive; ["*"] for all'),
});

export interface WireSubscription {
  id: string;
  url: string;
  events: string[];
  source: 'api' | 'env';
  created_at: string;
}

export const subscriptionToWire = (s: WebhookSubscription): WireSubscription => ({
  id: s.id,
  url: s.url,
  events: s.events,
  source: s.source,
  created_at: s.createdAt,
});

export const deliveryToWire = (d: DeliveryLogEntry) => ({
  id: d.id,
  message_id: d.messageId,
  subscription_id: d.subscriptionId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  last_status: d.lastStatus,
  last_error: d.lastError,
  last_attempt_at: d.lastAttemptAt,
  delivered_at: d.deliveredAt,
  created_at: d.createdAt,
});

const notFound = (id: string) =>
  new AppError(404, 'subscription_not_found', `No subscription ${id.slice(0, 60)}.`);

/** `["*"]` when all are asked for, else each type once, in the catalog's order. */
const normalizeEvents = (events: string[]) =>
  events.includes('*') ? ['*'] : EVENT_TYPES.filter((t) => events.includes(t));

export class SubscriptionService {
  constructor(
    private readonly o: {
      store: Store;
      keys: KeySource;
      now: () => number;
      logger: Logger;
      allowPrivate: boolean;
      resolve: Resolver;
      env: { url: string; secret: string } | undefined;
    },
  ) {}

  async #checkTarget(raw: string): Promise<string> {
    try {
      const url = parseTarget(raw);
      await resolveTarget(url, { allowPrivate: this.o.allowPrivate, resolve: this.o.resolve });
      return url.toString();
    } catch (err) {
      if (!(err instanceof TargetRefused)) throw err;
      if (err.reason === 'private_address' || err.reason === 'unresolvable')
        throw new AppError(400, 'url_not_allowed', err.message, { reason: err.reason });
      throw new AppError(400, 'validation_failed', 'The input is not valid.', {
        issues: [{ path: 'url', message: err.message }],
      });
    }
  }

  #sealed(id: string, secret: string): string {
    return seal(this.o.keys.current(), secret, subscriptionSecretAad(id));
  }

  /** Creates a subscription; the answer is the only place its secret ever appears. */
  async create(input: z.output<typeof subscriptionInput>): Promise<{
    id: string;
    url: string;
    events: string[];
    secret: string;
  }> {
    const url = await this.#checkTarget(input.url);
    if ((await this.o.store.webhooks.listSubscriptions()).length >= MAX_SUBSCRIPTIONS)
      throw new AppError(
        409,
        'too_many_subscriptions',
        `At most ${MAX_SUBSCRIPTIONS} subscriptions; delete one first.`,
      );
    const id = `sub_${randomBytes(12).toString('base64url')}`;
    const secret = newSecret();
    const events = normalizeEvents(input.events);
    await this.o.store.webhooks.putSubscription({
      id,
      url,
      events,
      secret: this.#sealed(id, secret),
      source: 'api',
      createdAt: new Date(this.o.now()).toISOString(),
    });
    this.o.logger.info({ subscriptionId: id, events }, 'webhook subscription created');
    return { id, url, events, secret };
  }

  async list(): Promise<(WireSubscription & { deliveries: DeliveryCounts })[]> {
    const subs = await this.o.store.webhooks.listSubscriptions();
    return Promise.all(
      subs.map(async (s) => ({
        ...subscriptionToWire(s),
        deliveries: await this.o.store.webhooks.deliveryCounts(s.id),
      })),
    );
  }

  async get(id: string) {
    const s = await this.o.store.webhooks.getSubscription(id);
    if (!s) throw notFound(id);
    const [deliveries, recent] = await Promise.all([
      this.o.store.webhooks.deliveryCounts(id),
      this.o.store.webhooks.recentDeliveries({ limit: 50, subscriptionId: id }),
    ]);
    return { ...subscriptionToWire(s), deliveries, recent_deliveries: recent.map(deliveryToWire) };
  }

  async delete(id: string): Promise<{ deleted: true; id: string }> {
    const s = await this.o.store.webhooks.getSubscription(id);
    if (!s) throw notFound(id);
    if (s.source === 'env')
      throw new AppError(
        409,
        'managed_by_environment',
        'This subscription comes from FLEETGATE_WEBHOOK_URL; change or unset that variable instead.',
      );
    if (!(await this.o.store.webhooks.deleteSubscription(id))) throw notFound(id);
    this.o.logger.info({ subscriptionId: id }, 'webhook subscription deleted');
    return { deleted: true, id };
  }

  /**
   * Brings the env subscription in line with the configuration. A URL the guard refuses for
   * its address stops the start; one that does not resolve yet is kept (delivery checks again).
   */
  async syncEnv(): Promise<void> {
    const env = this.o.env;
    if (!env) {
      const existing = await this.o.store.webhooks.getSubscription(ENV_SUBSCRIPTION_ID);
      if (existing) await this.o.store.webhooks.deleteSubscription(ENV_SUBSCRIPTION_ID);
      return;
    }
    const url = parseTarget(env.url);
    try {
      await resolveTarget(url, { allowPrivate: this.o.allowPrivate, resolve: this.o.resolve });
    } catch (err) {
      if (!(err instanceof TargetRefused) || err.reason !== 'unresolvable') throw err;
      this.o.logger.warn({ reason: err.reason }, 'FLEETGATE_WEBHOOK_URL does not resolve yet');
    }
    await this.o.store.webhooks.putSubscription({
      id: ENV_SUBSCRIPTION_ID,
      url: url.toString(),
      events: ['*'],
      secret: this.#sealed(ENV_SUBSCRIPTION_ID, env.secret),
      source: 'env',
      createdAt: new Date(this.o.now()).toISOString(),
    });
  }
}
