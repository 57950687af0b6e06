/**
 * The outgoing-webhook part of the Store port: subscriptions (with their sealed signing secret),
 * the outbox of messages written in the same transaction as the change they announce, and one
 * delivery row per message and subscription that delivery workers claim with a lease. The store
 * implements it with the dialect-neutral queries in outbox-sql.ts plus each dialect's claim.
 */

/** A message as written to the outbox; `payload` is the exact JSON body every attempt sends. */
export interface OutboxMessage {
  /** `msg_…`: the `webhook-id`, the same on every attempt. */
  id: string;
  type: string;
  payload: string;
  createdAt: string;
}

/** Builds the messages for a change from what the store saw inside the transaction. */
export type Emit<T> = (value: T) => OutboxMessage[];

export interface WebhookSubscription {
  id: string;
  url: string;
  /** Event types, or `['*']` for all. */
  events: string[];
  /** Sealed (vault.ts) — never plaintext. */
  secret: string;
  /** `env`: the FLEETGATE_WEBHOOK_URL subscription, kept in step with the configuration. */
  source: 'api' | 'env';
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery a worker holds the lease on; only the holder of `lockToken` may finish it. */
export interface ClaimedDelivery {
  id: string;
  lockToken: string;
  /** Attempts made before this one. */
  attempts: number;
  /** When the message was written (ms), for the bounded retry time. */
  createdMs: number;
  message: OutboxMessage;
  subscription: { id: string; url: string; secret: string };
  /**
   * The W3C `traceparent` of the span that wrote the message, when tracing was on then: the
   * delivery's span links to it.
   */
  traceparent?: string;
}

export interface DeliveryOutcome {
  status: DeliveryStatus;
  at: number;
  httpStatus: number | null;
  error: string | null;
  /** For `pending`: when to try again (ms). */
  nextAttemptAt?: number;
}

export interface DeliveryLogEntry {
  id: string;
  messageId: string;
  subscriptionId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export type DeliveryCounts = Record<DeliveryStatus, number>;

export interface WebhookStore {
  /** Inserts a subscription, or replaces the one with its id (the env subscription). */
  putSubscription(s: WebhookSubscription): Promise<void>;
  getSubscription(id: string): Promise<WebhookSubscription | undefined>;
  listSubscriptions(): Promise<WebhookSubscription[]>;
  /** Deletes it and its deliveries; false when there was none. */
  deleteSubscription(id: string): Promise<boolean>;
  /** Writes messages with no other change to go with them; returns the deliveries created. */
  enqueue(messages: OutboxMessage[]): Promise<number>;
  /**
   * Leases up to `limit` due deliveries (pending, next attempt reached, no live lease) until
   * `now + leaseMs`. Each delivery goes to one claimer at a time, across processes.
   */
  claimDeliveries(o: { now: number; leaseMs: number; limit: number }): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome; false when the lease was lost to another claimer. */
  finishDelivery(id: string, lockToken: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Frees every pending delivery's lease, for a restored store: the workers that held them were
   * the backed-up service's, so the restored one need not wait out their leases. Returns how many.
   */
  releaseLeases(): Promise<number>;
  /** The newest deliveries first (by last change). */
  recentDeliveries(o: { limit: number; subscriptionId?: string }): Promise<DeliveryLogEntry[]>;
  deliveryCounts(subscriptionId?: string): Promise<DeliveryCounts>;
  /**
   * Forgets up to `limit` finished (delivered or failed) deliveries last changed before
   * `beforeMs`, and the messages of those that no delivery is left for; pending ones are never
   * pruned. Returns how many deliveries went.
   */
  pruneDeliveries(beforeMs: number, limit: number): Promise<number>;
  /** Calls `listener` after this process commits new deliveries (wakes the local worker). */
  onEnqueued(listener: () => void): void;
}
