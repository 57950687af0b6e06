/**
 * What happened lately, for the operator's views (the dashboard): webhook deliveries received
 * from the platform, deliveries sent to the business application, and the link's health
 * transitions, each newest first and bounded, so a view never reads a whole table.
 */
import type { LinkHealthEntry, Store } from '../store/store.js';
import type { DeliveryLogEntry } from '../store/webhooks.js';

export interface ActivityLog {
  /** Webhook receipts from the platform. */
  received(limit: number): Promise<{ event: string; receivedAt: string }[]>;
  /** Deliveries to subscribers (by last change). */
  delivered(limit: number): Promise<DeliveryLogEntry[]>;
  /** The link's health transitions. */
  linkHealth(limit: number): Promise<LinkHealthEntry[]>;
}

export function activityLog(store: Pick<Store, 'recentWebhooks' | 'webhooks' | 'linkHealth'>): ActivityLog {
  return {
    received: (limit) => store.recentWebhooks(limit),
    delivered: (limit) => store.webhooks.recentDeliveries({ limit }),
    linkHealth: (limit) => store.linkHealth(limit),
  };
}
