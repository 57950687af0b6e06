/**
 * Whether the store can write, for readiness, without writing on every readiness probe: any
 * query that fails for want of room or with an I/O error marks the store unwritable
 * (failure-driver.ts reports them); from then on each check runs one probe write, at most one
 * every PROBE_EVERY_MS and one at a time, until one succeeds. While nothing has failed a check
 * writes nothing. A PostgreSQL server out of reach is not recorded here: the ping finds it.
 */
import type { StoreFailureKind } from './store-failure.js';
import { storeFailureKind } from './store-failure.js';

/** Readiness may be polled by anyone: at most one probe write per this many ms. */
export const PROBE_EVERY_MS = 2_000;

type WriteFailure = Exclude<StoreFailureKind, 'unavailable'>;

export class WriteHealth {
  #failure: WriteFailure | undefined;
  #probedAt = Number.NEGATIVE_INFINITY;
  #probing: Promise<void> | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** A query failed so (failure-driver.ts calls this). */
  seen(kind: StoreFailureKind): void {
    if (kind !== 'unavailable') this.#failure = kind;
  }

  /** Undefined when the store can write, else why not; `probe` writes and is called only while marked. */
  async check(probe: () => Promise<void>): Promise<WriteFailure | undefined> {
    if (this.#failure && !this.#probing && this.now() - this.#probedAt >= PROBE_EVERY_MS) {
      this.#probedAt = this.now();
      this.#probing = probe().then(
        () => {
          this.#failure = undefined;
        },
        (err: unknown) => {
          const kind = storeFailureKind(err);
          if (kind === 'full' || kind === 'io') this.#failure = kind;
        },
      );
      await this.#probing.finally(() => {
        this.#probing = undefined;
      });
    } else if (this.#probing) await this.#probing;
    return this.#failure;
  }
}
