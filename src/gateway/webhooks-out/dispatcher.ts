/**
 * The delivery worker: claims due deliveries from the outbox with a lease (so instances sharing
 * the store never hold the same one at once), signs each attempt (Standard Webhooks), POSTs it
 * through the SSRF guard, and records the outcome: delivered on 2xx; on a network error, 5xx,
 * 408 or 429 another attempt after an exponential, jittered delay, until the retry time runs out;
 * failed on anything else. Woken at once by local writes, and polls for the rest (other
 * instances' writes, retries coming due, leases of crashed workers running out). Finished
 * deliveries are forgotten by the retention job (retention.ts), not here. With tracing on, each
 * attempt is a span of its own trace (the request that wrote the message is not kept with it).
 */
import type { Logger } from 'pino';
import type { Store } from '../../store/store.js';
import type { ClaimedDelivery, DeliveryOutcome } from '../../store/webhooks.js';
import { tracing } from '../../tracing/current.js';
import { openAny, type KeySource } from '../oauth/vault.js';
import { postWebhook, type AttemptResult } from './sender.js';
import { sign } from '../../core/webhook-signature.js';
import { subscriptionSecretAad } from './subscriptions.js';
import { parseTarget, resolveTarget, TargetRefused, type Resolver } from './target-guard.js';

export interface RetryPolicy {
  /** Delay before the second attempt; doubles with each one after. */
  baseMs: number;
  maxMs: number;
  /** No attempt starts later than this after the message was written. */
  forMs: number;
}

export interface DispatcherOptions {
  store: Store;
  keys: KeySource;
  logger: Logger;
  now: () => number;
  allowPrivate: boolean;
  resolve: Resolver;
  retry: RetryPolicy;
  timeoutMs: number;
  batch?: number;
  random?: () => number;
}

const retryable = (r: AttemptResult) =>
  r.status === null || r.status >= 500 || r.status === 408 || r.status === 429;

export class WebhookDispatcher {
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #kicked = false;
  readonly #batch: number;
  readonly #pollMs: number;

  constructor(private readonly o: DispatcherOptions) {
    this.#batch = o.batch ?? 10;
    this.#pollMs = Math.min(1000, o.retry.baseMs);
    o.store.webhooks.onEnqueued(() => this.kick());
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops claiming and waits for attempts under way (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
  }

  /** Looks for due deliveries now rather than at the next poll. */
  kick(): void {
    this.#kicked = true;
    this.#wake?.();
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (err) {
        this.o.logger.error({ err }, 'webhook delivery round failed');
      }
      if (this.#running && claimed < this.#batch && !this.#kicked) await this.#idle();
      this.#kicked = false;
    }
  }

  #idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.#pollMs);
      this.#wake = done;
    });
  }

  /** One round: claim what is due and attempt it all; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.o.store.webhooks.claimDeliveries({
      now: this.o.now(),
      // Longer than any attempt, so a live worker never loses its lease mid-attempt.
      leaseMs: this.o.timeoutMs + 30_000,
      limit: this.#batch,
    });
    await Promise.all(claimed.map((d) => this.#deliver(d)));
    return claimed.length;
  }

  async #attempt(d: ClaimedDelivery): Promise<{ result: AttemptResult; final: boolean }> {
    try {
      const url = parseTarget(d.subscription.url);
      const addresses = await resolveTarget(url, {
        allowPrivate: this.o.allowPrivate,
        resolve: this.o.resolve,
      });
      const secret = openAny(this.o.keys, d.subscription.secret, subscriptionSecretAad(d.subscription.id));
      const timestamp = Math.floor(this.o.now() / 1000);
      const result = await postWebhook({
        url,
        addresses,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'fleetgate-webhooks/1',
          'webhook-id': d.message.id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(secret, d.message.id, timestamp, d.message.payload),
        },
        body: d.message.payload,
        timeoutMs: this.o.timeoutMs,
      });
      return { result, final: false };
    } catch (err) {
      // DNS that does not answer may come back; an address the guard refuses is not retried.
      if (err instanceof TargetRefused)
        return { result: { status: null, error: err.message }, final: err.reason !== 'unresolvable' };
      this.o.logger.error({ err, deliveryId: d.id }, 'webhook delivery could not be attempted');
      return { result: { status: null, error: 'internal error' }, final: true };
    }
  }

  #outcome(d: ClaimedDelivery, r: AttemptResult, final: boolean): DeliveryOutcome {
    const at = this.o.now();
    const base = { at, httpStatus: r.status, error: r.error };
    if (r.status !== null && r.status >= 200 && r.status < 300) return { ...base, status: 'delivered' };
    if (final || !retryable(r)) return { ...base, status: 'failed' };
    const { baseMs, maxMs, forMs } = this.o.retry;
    const exp = Math.min(maxMs, baseMs * 2 ** d.attempts);
    // Jitter (±25 %) keeps many failed deliveries from retrying in lockstep.
    const delay = Math.round(exp * (0.75 + (this.o.random ?? Math.random)() * 0.5));
    const nextAttemptAt = at + delay;
    if (nextAttemptAt > d.createdMs + forMs) return { ...base, status: 'failed' };
    return { ...base, status: 'pending', nextAttemptAt };
  }

  async #deliver(d: ClaimedDelivery): Promise<void> {
    const traced = tracing();
    const { result, final } = await (traced
      ? traced.delivery(
          {
            url: d.subscription.url,
            deliveryId: d.id,
            messageId: d.message.id,
            subscriptionId: d.subscription.id,
            type: d.message.type,
            attempt: d.attempts + 1,
            traceparent: d.traceparent,
          },
          () => this.#attempt(d),
        )
      : this.#attempt(d));
    const outcome = this.#outcome(d, result, final);
    const kept = await this.o.store.webhooks.finishDelivery(d.id, d.lockToken, outcome);
    const facts = {
      deliveryId: d.id,
      messageId: d.message.id,
      subscriptionId: d.subscription.id,
      type: d.message.type,
      attempt: d.attempts + 1,
      httpStatus: result.status,
      error: result.error,
    };
    if (!kept) this.o.logger.warn(facts, 'webhook delivery lease was lost; another worker owns it');
    else if (outcome.status === 'failed') this.o.logger.warn(facts, 'webhook delivery failed for good');
    else if (outcome.status === 'pending') this.o.logger.info(facts, 'webhook delivery will be retried');
    else this.o.logger.debug(facts, 'webhook delivered');
  }
}
