/**
 * The pieces behind the stored-event reads, without HTTP: the cursor codec (round trip, foreign
 * list, junk), the search ranking (word prefix, topic first, the topic's first word best), and
 * the status window's split between upcoming and past events over a list shaped like the store's.
 */
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, filterTag } from '../../src/gateway/cursor.js';
import { eventScore, rankEvents } from '../../src/gateway/event-search.js';
import { PAST_SHOWN, STORED_EVENTS_SHOWN, storedEventWindow } from '../../src/gateway/event-window.js';
import { words } from '../../src/store/search-terms.js';
import type { EventQuery, Page, StoredEvent } from '../../src/store/store.js';
import { at, byListOrder, storedEvent } from './stored-event-fixtures.js';

describe('cursor codec', () => {
  const key = z.tuple([z.string(), z.string()]);

  it('gives back the key under the same list and filter, however the filter is written', () => {
    const tag = filterTag('events', { funnel: 'capital', status: undefined, from: '2030' });
    expect(filterTag('events', { from: '2030', funnel: 'capital' })).toBe(tag);
    const c = encodeCursor(tag, ['2030-01-01T00:00:00.000Z', '42']);
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c, tag, key)).toEqual(['2030-01-01T00:00:00.000Z', '42']);
  });

  it('refuses another list, another filter, another shape and junk with 400 invalid_cursor', () => {
    const tag = filterTag('events', { funnel: 'capital' });
    const c = encodeCursor(tag, ['a', 'b']);
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        return err;
      }
      return undefined;
    };
    for (const f of [
      () => decodeCursor(c, filterTag('events', { funnel: 'freight' }), key),
      () => decodeCursor(c, filterTag('registrations', { funnel: 'capital' }), key),
      () => decodeCursor(encodeCursor(tag, [1, 'b']), tag, key),
      () => decodeCursor(encodeCursor(tag, ['a']), tag, key),
      () => decodeCursor('12', tag, key),
      () => decodeCursor('a.b', tag, key),
      () => decodeCursor(Buffer.from('{"a":1}').toString('base64url'), tag, key),
    ])
      expect(refused(f)).toMatchObject({ status: 400, code: 'invalid_cursor' });
  });
});

describe('stored-event ranking', () => {
  const ev = (topic: string, over: Partial<StoredEvent> = {}) =>
    storedEvent('1', '2030-01-01T00:00:00.000Z', { topic, ...over });

  it('scores a topic’s first word over its others over agenda and funnel, every word needed', () => {
    expect(eventScore(words('fleet'), ev('Fleet day'))).toBe(3);
    expect(eventScore(words('fle'), ev('Open fleet day'))).toBe(2);
    expect(eventScore(words('fle'), ev('Open day', { agenda: 'the fleet' }))).toBe(1);
    expect(eventScore(words('fle'), ev('Open day', { funnel: 'fleet' }))).toBe(1);
    expect(eventScore(words('fle day'), ev('Fleet day'))).toBe(5);
    expect(eventScore(words('fle night'), ev('Fleet day'))).toBe(0);
    expect(eventScore(words('leet'), ev('Fleet day'))).toBe(0);
    expect(eventScore(words('ÉTÉ'), ev('Été fleet'))).toBe(3);
    expect(eventScore([], ev('Fleet'))).toBe(0);
  });

  it('orders by score, then newest created, then id, and drops what does not match', () => {
    const list = [
      storedEvent('1', '2030', { topic: 'Open fleet', createdAt: '2026-01-03' }),
      storedEvent('2', '2030', { topic: 'Fleet a', createdAt: '2026-01-01' }),
      storedEvent('3', '2030', { topic: 'Fleet b', createdAt: '2026-01-02' }),
      storedEvent('4', '2030', { topic: 'Fleet c', createdAt: '2026-01-02' }),
      storedEvent('5', '2030', { topic: 'Other' }),
    ];
    expect(rankEvents(words('fleet'), list).map((r) => [r.event.videoId, r.score])).toEqual([
      ['4', 3],
      ['3', 3],
      ['2', 3],
      ['1', 2],
    ]);
  });
});

/** listEvents as the port promises it, over an array. */
function fakeStore(events: StoredEvent[]) {
  return {
    listEvents(q: EventQuery): Promise<Page<StoredEvent>> {
      const desc = q.order === 'desc';
      const sorted = events
        .filter(
          (e) =>
            (q.from === undefined || e.startTime >= q.from) && (q.to === undefined || e.startTime <= q.to),
        )
        .sort((a, b) => (desc ? byListOrder(b, a) : byListOrder(a, b)));
      return Promise.resolve({ items: sorted.slice(0, q.limit), more: sorted.length > q.limit });
    },
  };
}

describe('status window', () => {
  const NOW = Date.parse('2030-06-01T12:00:00.000Z');
  const past = (n: number) =>
    Array.from({ length: n }, (_, i) => storedEvent(`p${1000 + i}`, at('2030-06-01T11:00:00.000Z', -i)));
  const upcoming = (n: number) =>
    Array.from({ length: n }, (_, i) => storedEvent(`u${1000 + i}`, at('2030-06-01T12:00:00.000Z', i)));
  const split = async (events: StoredEvent[]) => {
    const w = await storedEventWindow(fakeStore(events), NOW);
    const ids = w.events.map((e) => e.videoId);
    expect([...w.events].sort(byListOrder).map((e) => e.videoId)).toEqual(ids);
    return {
      past: ids.filter((i) => i.startsWith('p')).length,
      upcoming: ids.filter((i) => i.startsWith('u')).length,
      w,
    };
  };

  it('shows everything, in start order, while the store is small', async () => {
    const r = await split([...upcoming(30), ...past(40)]);
    expect(r).toMatchObject({ past: 40, upcoming: 30 });
    expect(r.w.more).toBe(false);
    expect(r.w.changesAt).toBeUndefined();
  });

  it('splits 50/50 when both sides have enough; either side fills what the other leaves', async () => {
    expect(await split([...upcoming(300), ...past(300)])).toMatchObject({ past: PAST_SHOWN, upcoming: 50 });
    expect(await split([...upcoming(300), ...past(7)])).toMatchObject({ past: 7, upcoming: 93 });
    expect(await split([...upcoming(12), ...past(300)])).toMatchObject({ past: 88, upcoming: 12 });
    const full = await split([...upcoming(100), ...past(1)]);
    expect(full.past + full.upcoming).toBe(STORED_EVENTS_SHOWN);
    expect(full.w.more).toBe(true);
  });

  it('counts an event starting now as upcoming, once, and says when time changes the window', async () => {
    const r = await split([...upcoming(120), ...past(120)]);
    expect(r.w.events.filter((e) => e.videoId === 'u1000')).toHaveLength(1);
    expect(r.w.changesAt).toBe(NOW);
  });
});
