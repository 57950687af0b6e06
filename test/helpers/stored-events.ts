/** Every stored event matching a filter, read page by page (tests look at whole, small stores). */
import type { EventFilter, Store, StoredEvent } from '../../src/store/store.js';

export async function storedEvents(store: Store, filter: EventFilter = {}): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (;;) {
    const last = all.at(-1);
    const page = await store.listEvents({
      ...filter,
      limit: 1000,
      ...(last ? { after: { startTime: last.startTime, videoId: last.videoId } } : {}),
    });
    all.push(...page.items);
    if (!page.more) return all;
  }
}
