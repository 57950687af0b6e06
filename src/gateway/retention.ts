/**
 * Forgets what is only kept for a while, each by its age: platform webhook receipts (the dedupe
 * of the platform's retries), idempotency keys (the Idempotency-Key answers and spent webhook
 * signatures), finished outgoing-webhook deliveries with the messages no delivery needs any
 * more, and OAuth states past their expiry. The one place that prunes. A round runs at start
 * and then periodically, deleting in small batches and yielding to requests between them, so
 * no single write holds the store for long, however many rows have piled up; several instances
 * may prune the same store, since a delete finds what another has not.
 */
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';

export interface RetentionPolicy {
  /** Webhook receipts older than this go (the newest stays, for the monitor). */
  receiptsMs: number;
  /** Idempotency keys older than this go. */
  idempotencyMs: number;
  /** Delivered or failed outgoing-webhook deliveries last changed longer ago go (pending stay). */
  deliveriesMs: number;
}

/** How many rows a round removed, by kind. */
export interface PruneCounts {
  receipts: number;
  idempotencyKeys: number;
  deliveries: number;
  oauthStates: number;
}

export interface RetentionOptions {
  store: Store;
  now: () => number;
  logger: Logger;
  policy: RetentionPolicy;
  everyMs?: number;
  batch?: number;
}

const EVERY_MS = 10 * 60_000;
const BATCH = 1000;

export class RetentionJob {
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<unknown> | undefined;
  #stopped = false;

  constructor(private readonly o: RetentionOptions) {}

  /** Runs a round now and then every `everyMs` until stop(). */
  start(): void {
    if (this.#timer || this.#stopped) return;
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), this.o.everyMs ?? EVERY_MS);
    this.#timer.unref();
  }

  /** No more rounds; waits for the one under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#round;
  }

  #tick(): void {
    if (this.#round) return; // the last round is still going (a large backlog)
    this.#round = this.runOnce()
      .catch((err: unknown) => this.o.logger.warn({ err }, 'pruning old rows failed'))
      .finally(() => {
        this.#round = undefined;
      });
  }

  /** One round: everything past its retention, batch by batch; returns how many rows went. */
  async runOnce(): Promise<PruneCounts> {
    const now = this.o.now();
    const { policy, store } = this.o;
    const before = (ms: number) => new Date(now - ms).toISOString();
    const counts: PruneCounts = {
      receipts: await this.#drain((limit) => store.pruneWebhookReceipts(before(policy.receiptsMs), limit)),
      idempotencyKeys: await this.#drain((limit) =>
        store.pruneIdempotent(before(policy.idempotencyMs), limit),
      ),
      deliveries: await this.#drain((limit) =>
        store.webhooks.pruneDeliveries(now - policy.deliveriesMs, limit),
      ),
      oauthStates: await this.#drain((limit) => store.pruneOAuthStates(now, limit)),
    };
    if (Object.values(counts).some((n) => n > 0)) this.o.logger.info(counts, 'pruned old rows');
    return counts;
  }

  async #drain(prune: (limit: number) => Promise<number>): Promise<number> {
    const batch = this.o.batch ?? BATCH;
    let total = 0;
    for (;;) {
      const n = await prune(batch);
      total += n;
      // Shutting down: the rest waits for the next start.
      if (n < batch || this.#stopped) return total;
      // Let requests waiting on the store in between.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
