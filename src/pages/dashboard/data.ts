/**
 * What the signed-in dashboard shows, gathered at once: the status report, the monitor, stored
 * events with their registrations, incoming webhook deliveries and outgoing ones, and the link's
 * health history. Each part may fail on its own; a
 * failure becomes a sentence for the page (the gateway's message, or a generic one that is logged).
 * Stored events are the status report's bounded window (event-window.ts), each with its
 * registration count and the first REGISTRANTS_SHOWN registrants, so the page never reads a
 * whole table.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { AppError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { RegistrationsSummary } from './events-view.js';
import { HEALTH_SHOWN } from './health-view.js';
import type { Loaded } from './parts.js';
import type { DashboardData } from './render.js';

/** Registrants named under each event; the count covers all of them. */
export const REGISTRANTS_SHOWN = 10;

/**
 * An event's registration count and its first registrants: one read, and a count only when the
 * first page is not all of them (most events have fewer than REGISTRANTS_SHOWN).
 */
export async function registrationsSummary(store: Store, videoId: string): Promise<RegistrationsSummary> {
  const first = await store.listRegistrations(videoId, { limit: REGISTRANTS_SHOWN });
  const total = first.more ? await store.countRegistrations(videoId) : first.items.length;
  return { total, first: first.items };
}

/** A gateway failure as a sentence for the page; anything unexpected is logged and not described. */
export function explain(err: unknown, log: FastifyBaseLogger): string {
  if (err instanceof AppError) {
    const issues = err.details?.['issues'];
    const list = Array.isArray(issues)
      ? issues
          .map((i: { path?: unknown; message?: unknown }) => `${String(i.path)}: ${String(i.message)}`)
          .join('; ')
      : '';
    return list ? `${err.message} (${list})` : err.message;
  }
  log.error({ err }, 'dashboard request failed');
  return 'Something went wrong on our side.';
}

const settle = <T>(p: Promise<T>, log: FastifyBaseLogger): Promise<Loaded<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (err: unknown) => ({ ok: false as const, error: explain(err, log) }),
  );

export async function loadDashboard(
  gateway: Gateway,
  fresh: boolean,
  log: FastifyBaseLogger,
): Promise<DashboardData> {
  const [report, monitor, events, webhooks, outgoing, health] = await Promise.all([
    settle(gateway.status.report({ fresh }), log),
    settle(gateway.monitor(), log),
    settle(gateway.status.storedEvents(), log),
    settle(gateway.store.recentWebhooks(20), log),
    settle(gateway.store.webhooks.recentDeliveries({ limit: 20 }), log),
    settle(gateway.store.linkHealth(HEALTH_SHOWN), log),
  ]);
  return {
    report,
    health,
    monitor,
    webhooks,
    outgoing,
    events: events.ok
      ? {
          ok: true,
          value: await Promise.all(
            events.value.events.map(async (event) => ({
              event,
              registrations: await settle(registrationsSummary(gateway.store, event.videoId), log),
            })),
          ),
        }
      : events,
  };
}
