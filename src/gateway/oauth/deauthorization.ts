/**
 * The platform's `app_deauthorized` event (the app was removed from the account): the link is
 * deleted, and with it the only copy of its tokens, in the same transaction as the webhook's
 * receipt, and `connection.deauthorized` is announced with it; a retry of the same delivery finds
 * its receipt and changes nothing. The event names the account (and the user who removed the
 * app); a link to another account is left alone.
 *
 * The platform's older Marketplace docs also asked apps to report deletion to a Data Compliance
 * API; its current docs no longer publish that endpoint, so nothing is called: the gateway keeps
 * no user data beyond the link, which goes now.
 */
import type { WebhookEffects } from '../../store/store.js';
import { linkMessage } from '../../store/outbox-messages.js';
import { connectionMessage, healthOf } from './connection-events.js';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length <= 256 ? v : undefined);

/** The link-dropping effect for an `app_deauthorized` payload; undefined when it names no account. */
export function deauthorization(
  payload: Record<string, unknown>,
  atMs: number,
): WebhookEffects['dropLink'] | undefined {
  const accountId = text(payload['account_id']);
  if (!accountId) return undefined;
  const userId = text(payload['user_id']);
  const retention = payload['user_data_retention'];
  return {
    accountId,
    // An account-level removal (server-to-server apps) names no user.
    ...(userId ? { userId } : {}),
    outbox: (gone) => [
      linkMessage(gone, 'unlinked', atMs),
      connectionMessage(
        'connection.deauthorized',
        gone,
        {
          before: healthOf(gone),
          after: 'not_linked',
          reason: 'app_deauthorized',
          extra: {
            deauthorization_time: text(payload['deauthorization_time']) ?? null,
            user_data_retention:
              typeof retention === 'boolean' ? retention : retention === 'true' ? true : false,
          },
        },
        atMs,
      ),
    ],
  };
}
