/**
 * Ranking of stored events for a search. The store finds the candidates through its text index
 * (every query word starts some word of the topic, agenda or funnel), the newest-created
 * SEARCH_CANDIDATES of them, so the cost stays flat however many events are stored; this ranks
 * them: a query word starting the topic's first word counts most, then one starting another topic
 * word, then one starting an agenda or funnel word. Both sides are cut into words by the store's
 * one tokenizer (store/search-terms.ts), so ranking and index agree on what a word is.
 */
import { words } from '../store/search-terms.js';
import type { EventFilter, Store, StoredEvent } from '../store/store.js';

/** How many of the newest matches a search ranks. */
export const SEARCH_CANDIDATES = 500;

/** An event's place in ranked order: score descending, then newest created, then video id descending. */
export interface SearchKey {
  score: number;
  createdAt: string;
  videoId: string;
}

export interface RankedEvent {
  event: StoredEvent;
  score: number;
}

/** How well `e` matches the query words (already folded by `words`); 0 when one matches nothing. */
export function eventScore(query: readonly string[], e: StoredEvent): number {
  if (query.length === 0) return 0;
  const topic = words(e.topic);
  const rest = words(`${e.agenda ?? ''} ${e.funnel ?? ''}`);
  let score = 0;
  for (const w of query) {
    if (topic[0]?.startsWith(w)) score += 3;
    else if (topic.some((t) => t.startsWith(w))) score += 2;
    else if (rest.some((t) => t.startsWith(w))) score += 1;
    else return 0;
  }
  return score;
}

const keyOf = (r: RankedEvent): SearchKey => ({
  score: r.score,
  createdAt: r.event.createdAt,
  videoId: r.event.videoId,
});

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Negative when `a` ranks before `b`. */
export function rankOrder(a: SearchKey, b: SearchKey): number {
  return b.score - a.score || cmp(b.createdAt, a.createdAt) || cmp(b.videoId, a.videoId);
}

/** The events that match, best first (rankOrder). */
export function rankEvents(query: readonly string[], events: readonly StoredEvent[]): RankedEvent[] {
  return events
    .map((event) => ({ event, score: eventScore(query, event) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => rankOrder(keyOf(a), keyOf(b)));
}

/** What the store's own list filters would keep (start times compare as stored text, as there). */
function inFilter(e: StoredEvent, f: EventFilter): boolean {
  return (
    (f.funnel === undefined || e.funnel === f.funnel) &&
    (f.status === undefined || e.status === f.status) &&
    (f.from === undefined || e.startTime >= f.from) &&
    (f.to === undefined || e.startTime <= f.to)
  );
}

/** The newest SEARCH_CANDIDATES events matching `text`, kept by `filter`, best first. */
export async function matchingEvents(
  store: Pick<Store, 'searchEvents'>,
  text: string,
  filter: EventFilter = {},
): Promise<RankedEvent[]> {
  const query = words(text);
  if (query.length === 0) return [];
  const candidates = await store.searchEvents(query, SEARCH_CANDIDATES);
  return rankEvents(
    query,
    candidates.filter((e) => inFilter(e, filter)),
  );
}

/**
 * One page of a search of stored events: the newest SEARCH_CANDIDATES matches, kept by the
 * filter, ranked, and the `limit` that come after `after` in rank order. `next` is the key of the
 * page's last item when more follow.
 */
export async function searchEventsPage(
  store: Pick<Store, 'searchEvents'>,
  q: { text: string; filter: EventFilter; limit: number; after?: SearchKey },
): Promise<{ items: StoredEvent[]; next: SearchKey | undefined }> {
  const ranked = await matchingEvents(store, q.text, q.filter);
  const after = q.after;
  const rest = after ? ranked.filter((r) => rankOrder(keyOf(r), after) > 0) : ranked;
  const page = rest.slice(0, q.limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => r.event),
    next: last && rest.length > page.length ? keyOf(last) : undefined,
  };
}
