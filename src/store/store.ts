/**
 * The Store port: everything the gateway keeps, behind one interface, implemented once in SQL
 * (sql-store.ts) over SQLite (embedded default) or PostgreSQL (scale-out). Domain types live
 * here. Secrets arrive here already sealed. Every list is keyset-paged and index-served.
 * Writes that announce a change to subscribers take an `outbox` argument: its messages are
 * written in the same transaction as the change (see webhooks.ts).
 */
import type { MigrationState, SchemaCheck } from './migration-state.js';
import type { SessionStore } from './sessions.js';
import type { Emit, OutboxMessage, WebhookStore } from './webhooks.js';

export type LinkStatus = 'linked' | 'needs_relink';

export interface LinkRecord {
  mode: 'user' | 's2s';
  status: LinkStatus;
  accountId: string;
  userId: string;
  email: string;
  name: string;
  type: number;
  pmi: number;
  scopes: string[];
  webinarLicense: boolean;
  /** Sealed (vault.ts) — never plaintext. */
  accessToken: string;
  refreshToken: string | null;
  accessExpiresAt: number;
  linkedAt: string;
  updatedAt: string;
  /** Bumped by every token write; lets a refresher see that someone else refreshed first. */
  tokenVersion: number;
  /** Transient refresh failures in a row (0 when the last refresh worked). */
  refreshFailures?: number;
  /** After a transient failure: no refresh before this (ms). */
  nextRefreshAt?: number | null;
  /** 'unreadable' once sealed tokens were found not to open (announced once). */
  health?: 'ok' | 'unreadable';
}

/** One transition of the link's health, as announced (`connection.*`). */
export interface LinkHealthEntry {
  id: string;
  type: string;
  at: string;
  data: Record<string, unknown>;
}

export interface OAuthStateRecord {
  stateHash: string;
  /** Sealed PKCE verifier. */
  verifier: string;
  browserHash: string;
  expiresAt: number;
}

export interface StoredEvent {
  videoId: string;
  topic: string;
  kind: 'meeting';
  startTime: string;
  timezone: string | null;
  duration: number;
  agenda: string | null;
  funnel: string | null;
  status: 'scheduled' | 'started' | 'ended' | 'cancelled';
  registration: boolean;
  joinUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Registration {
  id: string;
  videoId: string;
  email: string;
  firstName: string;
  lastName: string;
  registrantId: string;
  joinUrl: string | null;
  createdAt: string;
}

export interface IdempotentRecord {
  key: string;
  requestHash: string;
  status: number;
  body: string;
  createdAt: string;
}

/** What a webhook receipt brings with it, written in the receipt's transaction. */
export interface WebhookEffects {
  /** An idempotency key claimed too (the intake spends the delivery's signature). */
  claim?: IdempotentRecord;
  /**
   * A patch of a stored event, made from the event as stored (undefined leaves it); nothing
   * happens when there is no such event. `outbox` sees the event before and after.
   */
  change?: {
    videoId: string;
    patch: (prev: StoredEvent) => Partial<StoredEvent> | undefined;
    outbox?: Emit<{ prev: StoredEvent; next: StoredEvent }>;
  };
  /** Messages announced with the receipt. */
  outbox?: OutboxMessage[];
  /**
   * Deletes the link (and so its tokens) if it is this account's (and, for a user-mode link,
   * this user's, when given); `outbox` sees the deleted link.
   */
  dropLink?: { accountId: string; userId?: string; outbox: Emit<LinkRecord> };
}

/** One sealed column of one row, as key rotation reads and rewrites it. */
export interface SealedValue {
  table: string;
  id: string;
  column: string;
  value: string;
}

export interface EventFilter {
  funnel?: string;
  status?: StoredEvent['status'];
  /** start_time at or after (same text form as stored). */
  from?: string;
  /** start_time at or before. */
  to?: string;
}

/** An event's place in the list order (start_time, then video_id): a keyset cursor. */
export interface EventKey {
  startTime: string;
  videoId: string;
}

export interface EventQuery extends EventFilter {
  /** At most this many items (1..1000). */
  limit: number;
  /** Only events after this one in the query's order (the last item of the previous page). */
  after?: EventKey;
  /** 'asc' (default): earliest start first; 'desc': latest start first. */
  order?: 'asc' | 'desc';
}

/** A registration's place in its event's list (created_at, then id). */
export interface RegistrationKey {
  createdAt: string;
  id: string;
}

/** One page of a keyset-paged list; `more` says whether a next page has anything. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

export type BrandBump = 'initial' | 'major' | 'minor' | 'patch';

/** A published brand version as lists show it (no documents). */
export interface BrandVersionSummary {
  /** Semver of the brand data (not the API's version). */
  version: string;
  /** Its place in publishing order (1 for the first version). */
  seq: number;
  /** The version before it; null for the first. */
  previous: string | null;
  publishedAt: string;
  /** Hash of the flattened tokens: the same content never publishes twice in a row. */
  contentHash: string;
  bump: BrandBump;
  added: number;
  removed: number;
  changed: number;
}

export interface BrandVersionRecord extends BrandVersionSummary {
  /** JSON: the change detail against the previous version. */
  changes: string;
  /** JSON: the version's DTCG tokens document. */
  tokens: string;
}

/** What publishing returns: the latest version afterwards, and whether this call wrote it. */
export interface BrandPublishResult {
  published: boolean;
  latest: BrandVersionRecord;
}

/** One quota a platform call draws on: the account's (subject '') or a user's. */
export interface DailyCharge {
  quota: string;
  subject: string;
  /** null: counted, never refused (unless the platform said it is spent). */
  limit: number | null;
}

export interface DailyUsageRow {
  quota: string;
  subject: string;
  used: number;
  exhausted: boolean;
}

/** Daily counts by UTC day (`YYYY-MM-DD`), shared by every instance on the database. */
export interface DailyUsageStore {
  /** Counts one use of each charge, or none: the first charge that has nothing left, if one has not. */
  take(day: string, charges: DailyCharge[]): Promise<DailyCharge | undefined>;
  /** Adds `n` uses, refusing nothing (uncapped quotas, counted in batches). */
  add(day: string, quota: string, subject: string, n: number): Promise<void>;
  /** Marks a quota spent for the day (the platform said so). */
  exhaust(day: string, quota: string, subject: string): Promise<void>;
  usage(day: string): Promise<DailyUsageRow[]>;
  /** Deletes the counts of days before this one; how many rows went. */
  prune(beforeDay: string): Promise<number>;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  /** The migrations this database has run and those still to run; changes nothing. */
  migrations(): Promise<MigrationState>;
  /**
   * How this code and the database's schema stand (a newer release may have migrated it since
   * this instance started); read again at most every few seconds.
   */
  schema(): Promise<SchemaCheck>;
  /** Every table's row count (a backup's manifest; on PostgreSQL from one snapshot). */
  tableCounts(): Promise<Record<string, number>>;
  close(): Promise<void>;
  /** For readiness probes. */
  ping(): Promise<void>;
  /**
   * For readiness probes: undefined while the store can write, else the code of what stops it
   * (`storage_full`, `storage_io_error`). Writes nothing until a query has failed so; from then
   * on a small probe write (at most one every 2 s) until one succeeds (write-health.ts).
   */
  writeFailure(): Promise<string | undefined>;
  /**
   * Differs whenever the link, events or registrations may have changed since the last call:
   * it counts this object's writes and, where the engine reports them, other connections'
   * commits (SQLite's data_version). `exact` is false where other instances' writes go unseen
   * (PostgreSQL), so a cache keyed on the stamp must also expire.
   */
  changeStamp(): { stamp: string; exact: boolean };

  /** Outgoing webhooks: subscriptions, outbox and deliveries. */
  readonly webhooks: WebhookStore;
  /** The dashboard's sessions (sessions.ts). */
  readonly sessions: SessionStore;
  /** The gateway's daily use of the platform's quotas (daily-usage-sql.ts). */
  readonly dailyUsage: DailyUsageStore;

  getLink(): Promise<LinkRecord | undefined>;
  saveLink(link: LinkRecord, outbox?: OutboxMessage[]): Promise<void>;
  /** `outbox` is asked for messages only when there was a link to delete. */
  deleteLink(outbox?: Emit<LinkRecord>): Promise<void>;
  /**
   * Runs `fn` holding the link's refresh lock (across processes), with the link as it is once
   * the lock is held. Whatever `fn` returns as `next` (and `outbox`) is written before the lock
   * is released.
   */
  withLinkLock<T>(
    fn: (link: LinkRecord | undefined) => Promise<{ next?: LinkRecord; result: T; outbox?: OutboxMessage[] }>,
  ): Promise<T>;
  /** The link's last health transitions (`connection.*` messages), newest first. */
  linkHealth(limit: number): Promise<LinkHealthEntry[]>;
  /** Every sealed value with a way to rewrite it (key rotation). */
  sealedValues(): Promise<SealedValue[]>;
  /**
   * Rewrites one sealed value if it still holds `was.value` (compare-and-swap); false, writing
   * nothing, when it changed since it was read or its row is gone.
   */
  rewriteSealed(was: SealedValue, value: string): Promise<boolean>;

  putOAuthState(s: OAuthStateRecord): Promise<void>;
  /** Returns and deletes the state (single use); undefined when absent or expired. */
  takeOAuthState(stateHash: string, now: number): Promise<OAuthStateRecord | undefined>;

  /** One page of stored events in start_time order (index-served; cost does not grow with the table). */
  listEvents(q: EventQuery): Promise<Page<StoredEvent>>;
  /**
   * Stored events whose topic, agenda or funnel has a word starting with each of `words`
   * (normalized by search-terms.ts), through the text index: the most recently stored first, at
   * most `cap`. Ranking is the caller's; both dialects return the same events.
   */
  searchEvents(words: string[], cap: number): Promise<StoredEvent[]>;
  getEvent(videoId: string): Promise<StoredEvent | undefined>;
  insertEvent(e: StoredEvent, outbox?: OutboxMessage[]): Promise<void>;
  /** Many events in one transaction, announcing nothing (imports, the scale bench). */
  insertEvents(events: StoredEvent[]): Promise<void>;
  /** `outbox` sees the event before and after the patch (only when the event exists). */
  updateEvent(
    videoId: string,
    patch: Partial<StoredEvent>,
    outbox?: Emit<{ prev: StoredEvent; next: StoredEvent }>,
  ): Promise<StoredEvent | undefined>;
  /** `outbox` sees the deleted event (only when there was one). */
  deleteEvent(videoId: string, outbox?: Emit<StoredEvent>): Promise<boolean>;

  /** Returns the stored registration; `outbox` is asked only when this call created it. */
  addRegistration(r: Registration, outbox?: Emit<Registration>): Promise<Registration>;
  /** One page of an event's registrations, oldest first. */
  listRegistrations(
    videoId: string,
    page: { limit: number; after?: RegistrationKey },
  ): Promise<Page<Registration>>;
  /** All registrations (a kept counter, not a scan), or one event's (index-served). */
  countRegistrations(videoId?: string): Promise<number>;

  /** A stored answer for an Idempotency-Key, if any. */
  getIdempotent(key: string): Promise<IdempotentRecord | undefined>;
  /** Claims a key (status 0 = in progress); false when it is already claimed. */
  putIdempotent(r: IdempotentRecord): Promise<boolean>;
  finishIdempotent(key: string, status: number, body: string): Promise<void>;
  /** Releases a claim whose request failed, so the caller may retry with the same key. */
  dropIdempotent(key: string): Promise<void>;
  /**
   * Takes over a claim still in progress for the same request (`r.requestHash`) that was made
   * before `staleBefore` (ISO): its request was abandoned (the process ended mid-run). Atomic, so
   * of two retries only one takes it; true when this call did, restamped with `r.createdAt`.
   */
  reclaimIdempotent(r: IdempotentRecord, staleBefore: string): Promise<boolean>;

  /**
   * Records a webhook receipt and its effects in one transaction, so a failure leaves no receipt
   * and the platform's retry is processed. False, applying no effect, when the claim or the
   * receipt was there before (dedupe).
   */
  recordWebhook(id: string, event: string, receivedAt: string, effects?: WebhookEffects): Promise<boolean>;
  lastWebhook(): Promise<{ event: string; receivedAt: string } | undefined>;
  /** The newest receipts first. */
  recentWebhooks(limit: number): Promise<{ event: string; receivedAt: string }[]>;

  /**
   * Deletes up to `limit` webhook receipts received before `before` (ISO), never the newest
   * (the monitor's last received); returns how many went.
   */
  pruneWebhookReceipts(before: string, limit: number): Promise<number>;
  /** Deletes up to `limit` idempotency keys created before `before` (ISO); returns how many went. */
  pruneIdempotent(before: string, limit: number): Promise<number>;
  /** Deletes up to `limit` OAuth states that expired before `nowMs`; returns how many went. */
  pruneOAuthStates(nowMs: number, limit: number): Promise<number>;

  /** The newest published brand version (highest seq), if any. */
  latestBrandVersion(): Promise<BrandVersionRecord | undefined>;
  getBrandVersion(version: string): Promise<BrandVersionRecord | undefined>;
  /** One page of brand versions, newest first; `after` is the seq of the previous page's last item. */
  listBrandVersions(page: { limit: number; after?: number }): Promise<Page<BrandVersionSummary>>;
  /**
   * Publishes brand content in one write transaction: reads the latest version there; when its
   * content hash is `contentHash` nothing is written; otherwise `next` builds the new version
   * (from the latest) and its outbox messages, written together. Of two instances publishing at
   * once on top of the same latest version, one writes and the other gets the winner's version.
   */
  publishBrandVersion(
    contentHash: string,
    next: (latest: BrandVersionRecord | undefined) => {
      record: BrandVersionRecord;
      outbox?: OutboxMessage[];
    },
  ): Promise<BrandPublishResult>;
}
