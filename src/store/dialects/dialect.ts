/**
 * What the one SQL store (sql-store.ts) needs from a database engine: the Kysely instance, how
 * a write transaction and the link lock are taken, the claim of outgoing deliveries, the change
 * stamp, the schema's dialect-specific types, and how migrations run. Everything else is
 * written once.
 */
import type { Kysely, Migration, RawBuilder } from 'kysely';
import type { MigrationState } from '../migration-state.js';
import type { Ddl } from '../migrations.js';
import type { ClaimIds } from '../outbox-sql.js';
import type { Bool, LinkRow, Tables } from '../tables.js';
import type { WriteHealth } from '../write-health.js';

export interface Dialect {
  readonly kind: 'sqlite' | 'postgres';
  /** Its queries run through failure-driver.ts, which reports storage failures here. */
  readonly db: Kysely<Tables>;
  /** Whether the store can write (readiness). */
  readonly health: WriteHealth;
  readonly ddl: Ddl;
  /** Leases due outgoing deliveries, atomically for this engine. */
  readonly claim: ClaimIds;
  /** Whether a read-modify-write must lock its rows (`FOR UPDATE`): false where the write transaction already excludes every other writer. */
  readonly rowLocks: boolean;
  /** A write transaction; `fn` must query through the handle it is given. */
  write<T>(fn: (trx: Kysely<Tables>) => Promise<T>): Promise<T>;
  /** Reads the link row inside `write`, holding it against other refreshers until commit. */
  lockLink(trx: Kysely<Tables>): Promise<LinkRow | undefined>;
  bool(b: boolean): Bool;
  /**
   * The video ids of stored events whose terms have a word starting with each of `words`
   * (folded, letters and digits only), the most recently stored first, at most `cap`.
   */
  search(words: string[], cap: number): Promise<string[]>;
  /** The seq of a new webhook receipt; undefined where the database assigns it. */
  receiptSeq(): RawBuilder<number> | undefined;
  /** See Store.changeStamp; `writes` counts this store's own writes. */
  changeStamp(writes: number): { stamp: string; exact: boolean };
  migrate(migrations: Record<string, Migration>): Promise<void>;
  migrationState(migrations: Record<string, Migration>): Promise<MigrationState>;
  close(): Promise<void>;
}
