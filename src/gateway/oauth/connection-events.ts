/**
 * The link's health as subscribers hear it: one `connection.*` message per transition, written
 * through the outbox in the same store transaction as the link change, so each transition is
 * announced once however many instances run. Payloads name the link (account, user, email) and
 * the health before and after, never a token.
 */
import type { LinkRecord } from '../../store/store.js';
import type { OutboxMessage } from '../../store/webhooks.js';
import { outboxMessage, type EventType } from '../../store/outbox-messages.js';

/** The link's health: what the dashboard, the monitor and these messages call it. */
export type LinkHealth = 'not_linked' | 'linked' | 'refresh_failing' | 'needs_relink';

export type ConnectionEvent = Extract<EventType, `connection.${string}`>;

/** Why a transition happened, as the payload's `reason` says it. */
export type ConnectionReason =
  | 'oauth_callback'
  | 'server_to_server'
  | 'refresh_failed'
  | 'refresh_token_rejected'
  | 'no_refresh_token'
  | 'tokens_unreadable'
  | 'refreshed'
  | 'tokens_readable'
  | 'relinked'
  | 'disconnected'
  | 'app_deauthorized';

export function healthOf(link: LinkRecord | undefined): LinkHealth {
  if (!link) return 'not_linked';
  if (link.status === 'needs_relink' || link.health === 'unreadable') return 'needs_relink';
  return (link.refreshFailures ?? 0) > 0 ? 'refresh_failing' : 'linked';
}

export function connectionMessage(
  type: ConnectionEvent,
  link: LinkRecord,
  t: { before: LinkHealth; after: LinkHealth; reason: ConnectionReason; extra?: Record<string, unknown> },
  atMs: number,
): OutboxMessage {
  return outboxMessage(
    type,
    {
      account_id: link.accountId,
      user_id: link.userId,
      email: link.email,
      mode: link.mode,
      status_before: t.before,
      status_after: t.after,
      reason: t.reason,
      ...t.extra,
    },
    atMs,
  );
}
