/**
 * What the gateway tells subscribers: the event types, and outbox messages in the Standard
 * Webhooks payload shape `{"type", "timestamp", "data"}`. The body is fixed when the message is
 * written, so every retry sends the same bytes under the same `msg_` id.
 */
import { randomBytes } from 'node:crypto';
import type { LinkRecord, StoredEvent } from './store.js';
import type { OutboxMessage } from './webhooks.js';

export const EVENT_TYPES = [
  'event.created',
  'event.updated',
  'event.started',
  'event.ended',
  'event.cancelled',
  'registration.created',
  'recording.completed',
  'link.changed',
  'brand.updated',
  'connection.linked',
  'connection.refresh_failed',
  'connection.needs_relink',
  'connection.recovered',
  'connection.unlinked',
  'connection.deauthorized',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function outboxMessage(type: EventType, data: Record<string, unknown>, atMs: number): OutboxMessage {
  const createdAt = new Date(atMs).toISOString();
  return {
    id: `msg_${randomBytes(16).toString('base64url')}`,
    type,
    payload: JSON.stringify({ type, timestamp: createdAt, data }),
    createdAt,
  };
}

const STATUS_TYPES: Partial<Record<StoredEvent['status'], EventType>> = {
  started: 'event.started',
  ended: 'event.ended',
  cancelled: 'event.cancelled',
};

/** The type a stored-event change announces: its new status, else `event.updated`; none if nothing changed. */
export function eventChangeType(prev: StoredEvent, next: StoredEvent): EventType | undefined {
  if (prev.status !== next.status) return STATUS_TYPES[next.status] ?? 'event.updated';
  const same = JSON.stringify({ ...prev, updatedAt: '' }) === JSON.stringify({ ...next, updatedAt: '' });
  return same ? undefined : 'event.updated';
}

/** `link.changed`: who is linked and in which state (no tokens, sealed or not). */
export function linkMessage(
  link: LinkRecord,
  status: 'linked' | 'needs_relink' | 'unlinked',
  atMs: number,
): OutboxMessage {
  return outboxMessage(
    'link.changed',
    { status, mode: link.mode, account_id: link.accountId, user_id: link.userId, email: link.email },
    atMs,
  );
}
