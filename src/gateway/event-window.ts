/**
 * The bounded view of stored events that the status report, `fleetgate status` and the dashboard
 * show, so none of them grows with the store: the upcoming events (start_time at or after now,
 * soonest first) and the most recent past ones (latest first), STORED_EVENTS_SHOWN in all. Up to
 * PAST_SHOWN of them are past when enough are upcoming, and either side fills what the other
 * leaves. The result is in start_time order, so a store smaller than the bound shows every event
 * as it always did. Two index-served reads; the whole list stays at GET /api/video/events.
 */
import type { Store, StoredEvent } from '../store/store.js';

/** Most stored events shown. */
export const STORED_EVENTS_SHOWN = 100;
/** Past events shown when enough are upcoming to fill the rest. */
export const PAST_SHOWN = 50;

export interface EventWindow {
  /** start_time ascending. */
  events: StoredEvent[];
  /** Some stored events are not shown. */
  more: boolean;
  /**
   * When time alone next changes what is shown (ms since epoch): the first upcoming start, once
   * the window leaves events out; undefined while it shows every event.
   */
  changesAt: number | undefined;
}

/**
 * The instant `now` passes a start time in the text comparison above: a local time without zone
 * is compared as if it were UTC, as the store compares it.
 */
function textInstant(startTime: string): number | undefined {
  const ms = Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(startTime) ? startTime : `${startTime}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Which stored events to show at `now` (ms since epoch). */
export async function storedEventWindow(store: Pick<Store, 'listEvents'>, now: number): Promise<EventWindow> {
  // The stored UTC form (milliseconds, Z); start times compare as stored text.
  const at = new Date(now).toISOString();
  const [upcoming, past] = await Promise.all([
    store.listEvents({ from: at, order: 'asc', limit: STORED_EVENTS_SHOWN }),
    store.listEvents({ to: at, order: 'desc', limit: STORED_EVENTS_SHOWN }),
  ]);
  // `from` and `to` both include `at`: an event starting then is upcoming.
  const earlier = past.items.filter((e) => e.startTime < at);
  const upTake = Math.min(upcoming.items.length, STORED_EVENTS_SHOWN - Math.min(earlier.length, PAST_SHOWN));
  const pastTake = Math.min(earlier.length, STORED_EVENTS_SHOWN - upTake);
  const shown = upcoming.items.slice(0, upTake);
  const more = upcoming.more || past.more || upTake < upcoming.items.length || pastTake < earlier.length;
  const first = shown[0];
  return {
    events: [...earlier.slice(0, pastTake).reverse(), ...shown],
    more,
    changesAt: more && first ? textInstant(first.startTime) : undefined,
  };
}
