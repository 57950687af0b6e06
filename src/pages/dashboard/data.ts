/**
 * What the signed-in dashboard shows, gathered at once: the status report, the monitor, stored
 * events with their registrations, incoming webhook deliveries and outgoing ones, and the link's
 * health history. Each part may fail on its own; a
 * failure becomes a sentence for the page (the gateway's message, or a generic one that is logged).
 * Stored events are the status report's bounded window (event-window.ts), each with its
 * registration count and the first REGISTRANTS_SHOWN registrants, so the page never reads a
 * whole table. Everything comes through gateway services; the page never reads the store.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { AppError } from '../../core/errors.js';
import { HEALTH_SHOWN } from './health-view.js';
import type { Loaded } from './parts.js';
import type { DashboardData } from './render.js';

/** Registrants named under each event; the count covers all of them. */
export const REGISTRANTS_SHOWN = 10;

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
    settle(gateway.activity.received(20), log),
    settle(gateway.activity.delivered(20), log),
    settle(gateway.activity.linkHealth(HEALTH_SHOWN), log),
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
              registrations: await settle(
                gateway.events.registrationsSummary(event.videoId, REGISTRANTS_SHOWN),
                log,
              ),
            })),
          ),
        }
      : events,
  };
}
