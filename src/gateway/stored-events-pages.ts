/**
 * Reads of stored events for the HTTP views and the dashboard, so neither touches the store:
 * keyset pages of events (in start_time order, or ranked by a search), pages of an event's
 * registrations, one event with its registration count, and the dashboard's short summary of
 * registrations. Cursors are bound to the filter they were made for (cursor.ts).
 */
import * as z from 'zod';
import { AppError } from '../core/errors.js';
import { words } from '../store/search-terms.js';
import type { EventFilter, Registration, Store, StoredEvent } from '../store/store.js';
import { cursorParam, decodeCursor, encodeCursor, filterTag } from './cursor.js';
import { SEARCH_CANDIDATES, searchEventsPage } from './event-search.js';
import { eventToWire, registrationToWire, type WireEvent } from './events-service.js';

export const storedEventsQuery = z.object({
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      `words to search for: each must start a word of the topic, agenda or funnel; the newest ${SEARCH_CANDIDATES} matches are ranked (topic before agenda and funnel), best first`,
    ),
  funnel: z.string().max(40).optional(),
  status: z.enum(['scheduled', 'started', 'ended', 'cancelled']).optional(),
  from: z.string().max(40).optional().describe('start_time at or after (same form as stored)'),
  to: z.string().max(40).optional().describe('start_time at or before (same form as stored)'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: cursorParam,
});
export type StoredEventsQuery = z.output<typeof storedEventsQuery>;

export const registrationsPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: cursorParam,
});
export type RegistrationsPageQuery = z.output<typeof registrationsPageQuery>;

/** The keys the cursors of these lists carry. */
const eventKey = z.tuple([z.string().max(40), z.string().max(40)]);
const searchKey = z.tuple([z.number().int().min(0), z.string().max(40), z.string().max(40)]);
const registrationKey = z.tuple([z.string().max(40), z.string().max(200)]);

export interface WirePage<T> {
  items: T[];
  nextCursor: string | null;
}

/** An event's registration count and its first registrants. */
export interface RegistrationsSummary {
  total: number;
  first: Registration[];
}

type EventStore = Pick<
  Store,
  'listEvents' | 'searchEvents' | 'getEvent' | 'listRegistrations' | 'countRegistrations'
>;

/** One page of stored events in start_time order, after the cursor's event. */
async function listPage(store: EventStore, filter: EventFilter, limit: number, cursor: string | undefined) {
  const tag = filterTag('events', { ...filter });
  const after = cursor === undefined ? undefined : decodeCursor(cursor, tag, eventKey);
  const page = await store.listEvents({
    ...filter,
    limit,
    ...(after ? { after: { startTime: after[0], videoId: after[1] } } : {}),
  });
  const last = page.items.at(-1);
  return {
    items: page.items.map(eventToWire),
    nextCursor: page.more && last ? encodeCursor(tag, [last.startTime, last.videoId]) : null,
  };
}

/** One page of a search of stored events in ranked order, after the cursor's place. */
async function searchPage(
  store: EventStore,
  text: string,
  filter: EventFilter,
  limit: number,
  cursor: string | undefined,
) {
  // The folded words, so the same search written another way continues the same list.
  const tag = filterTag('events-search', { ...filter, q: words(text).join(' ') });
  const after = cursor === undefined ? undefined : decodeCursor(cursor, tag, searchKey);
  const page = await searchEventsPage(store, {
    text,
    filter,
    limit,
    ...(after ? { after: { score: after[0], createdAt: after[1], videoId: after[2] } } : {}),
  });
  return {
    items: page.items.map(eventToWire),
    nextCursor: page.next
      ? encodeCursor(tag, [page.next.score, page.next.createdAt, page.next.videoId])
      : null,
  };
}

export interface StoredEventPages {
  /** Stored events filtered, in start_time order; with `q`, the matches ranked. */
  page(q: StoredEventsQuery): Promise<WirePage<WireEvent>>;
  /** One page of a stored event's registrations, oldest first; 404 when there is no such event. */
  registrations(
    videoId: string,
    q: RegistrationsPageQuery,
  ): Promise<WirePage<ReturnType<typeof registrationToWire>>>;
  /** A stored event and how many registered, or undefined when there is none. */
  withRegistrationCount(videoId: string): Promise<{ event: StoredEvent; registrations: number } | undefined>;
  /**
   * The count and the first `shown` registrants: one read, and a count only when the first page
   * is not all of them (most events have fewer).
   */
  registrationsSummary(videoId: string, shown: number): Promise<RegistrationsSummary>;
}

export function storedEventPages(store: EventStore): StoredEventPages {
  return {
    page(q) {
      const filter: EventFilter = {
        ...(q.funnel !== undefined ? { funnel: q.funnel } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.from !== undefined ? { from: q.from } : {}),
        ...(q.to !== undefined ? { to: q.to } : {}),
      };
      return q.q === undefined
        ? listPage(store, filter, q.limit, q.cursor)
        : searchPage(store, q.q, filter, q.limit, q.cursor);
    },
    async registrations(videoId, q) {
      if (!(await store.getEvent(videoId))) {
        throw new AppError(404, 'event_not_found', `No stored event ${videoId.slice(0, 40)}.`);
      }
      const tag = filterTag('registrations', { videoId });
      const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor, tag, registrationKey);
      const r = await store.listRegistrations(videoId, {
        limit: q.limit,
        ...(after ? { after: { createdAt: after[0], id: after[1] } } : {}),
      });
      const last = r.items.at(-1);
      return {
        items: r.items.map(registrationToWire),
        nextCursor: r.more && last ? encodeCursor(tag, [last.createdAt, last.id]) : null,
      };
    },
    async withRegistrationCount(videoId) {
      const event = await store.getEvent(videoId);
      if (!event) return undefined;
      return { event, registrations: await store.countRegistrations(videoId) };
    },
    async registrationsSummary(videoId, shown) {
      const first = await store.listRegistrations(videoId, { limit: shown });
      const total = first.more ? await store.countRegistrations(videoId) : first.items.length;
      return { total, first: first.items };
    },
  };
}
