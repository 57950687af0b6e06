/**
 * Forgets what is only kept for a while: platform webhook receipts (the dedupe of the platform's
 * retries) and idempotency keys (the Idempotency-Key answers and spent webhook signatures), each
 * by its age. A round runs at start and then periodically, deleting in small batches so no
 * single write holds the store for long, however many rows have piled up; several instances
 * may prune the same store, since a delete finds what another has not.
 */
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';

export interface RetentionPolicy {
  /** Webhook receipts older than this go (the newest stays, for the monitor). */
  receiptsMs: number;
  /** Idempotency keys older than this go. */
  idempotencyMs: number;
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
      .catch((err: unknown) => this.o.logger.warn({ err }, 'pruning receipts and idempotency keys failed'))
      .finally(() => {
        this.#round = undefined;
      });
  }

  /** One round: everything past its retention, batch by batch; returns how many rows went. */
  async runOnce(): Promise<{ receipts: number; idempotencyKeys: number }> {
    const now = this.o.now();
    const before = (ms: number) => new Date(now - ms).toISOString();
    const receipts = await this.#drain((limit) =>
      this.o.store.pruneWebhookReceipts(before(this.o.policy.receiptsMs), limit),
    );
    const idempotencyKeys = await this.#drain((limit) =>
      this.o.store.pruneIdempotent(before(this.o.policy.idempotencyMs), limit),
    );
    if (receipts + idempotencyKeys > 0)
      this.o.logger.info({ receipts, idempotencyKeys }, 'pruned old webhook receipts and idempotency keys');
    return { receipts, idempotencyKeys };
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
