/**
 * Stored events and registrations through real HTTP, keyset-paged: every page follows the last
 * one's nextCursor, each event comes exactly once and in order (also when events are written
 * between pages), a cursor only continues its own list and filters (else 400 invalid_cursor), and
 * `q` lists word-prefix matches ranked topic first, paged the same way. On SQLite, and on
 * PostgreSQL when it answers, with the same answers.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../src/store/store.js';
import { requireService } from '../helpers/services.js';
import { startGateway, type GatewayEnv } from './helpers.js';
import { at, byListOrder, registration, storedEvent } from './stored-event-fixtures.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgUp = await requireService('PostgreSQL', '127.0.0.1', 5432);
const schema = `fg_paging_${process.pid}_${randomBytes(3).toString('hex')}`;

const BASE = '2031-01-01T00:00:00.000Z';
const FUNNELS = ['capital', 'freight', 'housing', null] as const;

/** 250 events, three to an hour (ties broken by id), loaded in an order unlike the list's. */
const EVENTS: StoredEvent[] = Array.from({ length: 250 }, (_, i) =>
  storedEvent(String(8_000_000_000 + i), at(BASE, (i * 7) % 84), {
    funnel: FUNNELS[i % 4] ?? null,
    status: i % 5 === 0 ? 'ended' : 'scheduled',
  }),
);

/** An event for `q`, made on `created` (a day). */
const searched = (id: string, topic: string, created: string, over: Partial<StoredEvent> = {}) =>
  storedEvent(id, '2032-01-01T00:00:00.000Z', { topic, createdAt: `${created}T00:00:00.000Z`, ...over });

/** Events for `q`: what each scores for "harb" is in its comment. */
const SEARCHED: StoredEvent[] = [
  searched('7000000001', 'Harbor freight briefing', '2026-02-01'), // 3: starts the topic
  searched('7000000002', 'Quarterly harbor review', '2026-02-02'), // 2: a later topic word
  searched('7000000003', 'Budget review', '2026-02-03', { agenda: 'Walk along the harbor' }), // 1: agenda
  searched('7000000004', 'Seaharbor gala', '2026-02-04', { agenda: 'seaharbor' }), // none: inside words only
  searched('7000000005', 'Harborside mixer', '2026-02-05'), // 3
  searched('7000000006', 'Ports', '2026-02-06', { funnel: 'harbor' }), // 1: funnel
  searched('7000000007', 'Hárbor night', '2026-02-07'), // 3: accents fold
];

const ids = (items: { video_id: string }[]) => items.map((x) => x.video_id);

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', { DATABASE_URL: DB, FLEETGATE_DB_SCHEMA: schema }],
] as const)('stored events paged on %s', (name, env) => {
  const skip = name === 'PostgreSQL' && !pgUp;
  let e: GatewayEnv;
  beforeAll(async () => {
    if (skip) return;
    e = await startGateway(env ? { env } : {});
    await e.link();
    await e.store.insertEvents(EVENTS);
  });
  afterAll(async () => {
    if (skip) return;
    await e.close();
    if (env) {
      const c = new pg.Client({ connectionString: DB });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });

  /** Every page of a list, following nextCursor; the pages' items in turn. */
  async function pages(path: string): Promise<{ video_id: string }[][]> {
    const out: { video_id: string }[][] = [];
    let cursor: string | null = null;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const r = await e.api('GET', cursor ? `${path}${sep}cursor=${cursor}` : path);
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.json)).toEqual(['items', 'nextCursor']);
      out.push(r.json.items);
      cursor = r.json.nextCursor;
      if (cursor !== null) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    } while (cursor !== null && out.length < 100);
    return out;
  }

  describe.skipIf(skip)('GET /api/video/events', () => {
    it('pages through 250 events, each exactly once, in start_time then id order', async () => {
      const got = await pages('/api/video/events?limit=40');
      expect(got.map((p) => p.length)).toEqual([40, 40, 40, 40, 40, 40, 10]);
      const all = ids(got.flat());
      expect(new Set(all).size).toBe(250);
      expect(all).toEqual(ids([...EVENTS].sort(byListOrder).map((x) => ({ video_id: x.videoId }))));
      // The wire fields are the ones the list always had.
      expect(Object.keys(got[0]?.[0] ?? {})).toEqual(
        Object.keys((await e.api('GET', `/api/video/events/${all[0]}`)).json),
      );
    });

    it('pages with filters: funnel, status and a start-time range', async () => {
      const from = at(BASE, 10);
      const to = at(BASE, 60);
      const got = await pages(
        `/api/video/events?funnel=capital&status=scheduled&from=${from}&to=${to}&limit=7`,
      );
      const want = EVENTS.filter(
        (x) => x.funnel === 'capital' && x.status === 'scheduled' && x.startTime >= from && x.startTime <= to,
      ).sort(byListOrder);
      expect(want.length).toBeGreaterThan(14);
      expect(got.every((p) => p.length <= 7)).toBe(true);
      expect(ids(got.flat())).toEqual(want.map((x) => x.videoId));
    });

    it('keeps its place when events are written between pages', async () => {
      const first = await e.api('GET', '/api/video/events?limit=50');
      const page1 = ids(first.json.items);
      const sorted = [...EVENTS].sort(byListOrder);
      const last = sorted[49];
      if (!last) throw new Error('fixture');
      const before = storedEvent('8100000001', at(BASE, -1)); // sorts before the cursor
      const tie = storedEvent(`${last.videoId}9`, last.startTime); // same start, after by id
      const after = storedEvent('8100000003', at(BASE, 500)); // sorts after everything
      await e.store.insertEvents([before, tie, after]);
      try {
        const rest: string[] = [];
        let cursor: string | null = first.json.nextCursor;
        while (cursor) {
          const r = await e.api('GET', `/api/video/events?limit=50&cursor=${cursor}`);
          rest.push(...ids(r.json.items));
          cursor = r.json.nextCursor;
        }
        const want = sorted.map((x) => x.videoId);
        want.splice(50, 0, tie.videoId);
        want.push(after.videoId);
        expect([...page1, ...rest]).toEqual(want);
      } finally {
        for (const x of [before, tie, after]) await e.store.deleteEvent(x.videoId);
      }
    });

    it('documents its parameters in the OpenAPI document', async () => {
      const doc = (await e.api('GET', '/openapi.json')).json;
      const names = (op: { parameters: { name: string }[] }) => op.parameters.map((p) => p.name);
      expect(names(doc.paths['/api/video/events'].get)).toEqual(
        expect.arrayContaining(['q', 'funnel', 'status', 'from', 'to', 'limit', 'cursor']),
      );
      expect(names(doc.paths['/api/video/events/{videoId}/registrations'].get)).toEqual(
        expect.arrayContaining(['videoId', 'limit', 'cursor']),
      );
    });

    it('takes limit 1..500, 100 by default', async () => {
      expect((await e.api('GET', '/api/video/events')).json.items).toHaveLength(100);
      expect((await e.api('GET', '/api/video/events?limit=500')).json).toMatchObject({ nextCursor: null });
      for (const bad of ['0', '501', 'x'])
        expect((await e.api('GET', `/api/video/events?limit=${bad}`)).json.error.code).toBe(
          'validation_failed',
        );
    });

    it('answers 400 invalid_cursor to a malformed cursor or one from other filters', async () => {
      const capital = (await e.api('GET', '/api/video/events?funnel=capital&limit=5')).json.nextCursor;
      const plain = (await e.api('GET', '/api/video/events?limit=5')).json.nextCursor;
      const junk = Buffer.from('{"not":"ours"}').toString('base64url');
      const forged = Buffer.from(JSON.stringify([1, 'x', 'a', 'b'])).toString('base64url');
      for (const path of [
        '/api/video/events?cursor=12',
        '/api/video/events?cursor=%25%25%25',
        `/api/video/events?cursor=${junk}`,
        `/api/video/events?cursor=${forged}`,
        `/api/video/events?funnel=freight&cursor=${capital}`,
        `/api/video/events?cursor=${capital}`,
        `/api/video/events?funnel=capital&status=ended&cursor=${capital}`,
        `/api/video/events?q=event&cursor=${plain}`,
      ]) {
        const r = await e.api('GET', path);
        expect(r.status, path).toBe(400);
        expect(r.json).toEqual({
          error: { code: 'invalid_cursor', message: expect.stringContaining('cursor') },
        });
      }
      // The same filters continue it, whatever the limit.
      expect((await e.api('GET', `/api/video/events?funnel=capital&limit=9&cursor=${capital}`)).status).toBe(
        200,
      );
      expect((await e.api('GET', `/api/video/events?cursor=${'a'.repeat(600)}`)).json.error.code).toBe(
        'validation_failed',
      );
    });
  });

  describe.skipIf(skip)('GET /api/video/events?q=', () => {
    beforeAll(async () => {
      await e.store.insertEvents(SEARCHED);
    });
    afterAll(async () => {
      for (const x of SEARCHED) await e.store.deleteEvent(x.videoId);
    });

    it('ranks word-prefix matches, topic first, and pages them', async () => {
      const got = await pages('/api/video/events?q=harb&limit=2');
      expect(got.map(ids)).toEqual([
        ['7000000007', '7000000005'],
        ['7000000001', '7000000002'],
        ['7000000006', '7000000003'],
      ]);
      expect(ids((await e.api('GET', '/api/video/events?q=HARBOR%20Review')).json.items)).toEqual([
        '7000000002',
        '7000000003',
      ]);
      expect(ids((await e.api('GET', '/api/video/events?q=harb%20brief')).json.items)).toEqual([
        '7000000001',
      ]);
      expect(ids((await e.api('GET', '/api/video/events?q=harb&funnel=harbor')).json.items)).toEqual([
        '7000000006',
      ]);
      expect((await e.api('GET', '/api/video/events?q=arbor')).json).toEqual({ items: [], nextCursor: null });
      expect((await e.api('GET', '/api/video/events?q=%21%21')).json).toEqual({
        items: [],
        nextCursor: null,
      });
    });

    it('continues a search only with the same words and filters', async () => {
      const first = (await e.api('GET', '/api/video/events?q=harb&limit=2')).json.nextCursor;
      const same = await e.api('GET', `/api/video/events?q=%20HARB&limit=2&cursor=${first}`);
      expect(ids(same.json.items)).toEqual(['7000000001', '7000000002']);
      for (const path of [
        `/api/video/events?q=harbor&cursor=${first}`,
        `/api/video/events?q=harb&funnel=harbor&cursor=${first}`,
        `/api/video/events?cursor=${first}`,
      ])
        expect((await e.api('GET', path)).json.error.code, path).toBe('invalid_cursor');
    });

    it('ranks the search endpoint’s stored events the same way', async () => {
      const r = await e.api('GET', '/api/video/search?q=harb');
      expect(r.status).toBe(200);
      expect(ids(r.json.groups.events)).toEqual([
        '7000000007',
        '7000000005',
        '7000000001',
        '7000000002',
        '7000000006',
        '7000000003',
      ]);
      expect(r.json.groups.events[0]).toMatchObject({ score: 3, topic: 'Hárbor night' });
    });
  });

  describe.skipIf(skip)('GET /api/video/events/:videoId/registrations', () => {
    const EVENT = storedEvent('7100000001', at(BASE, 1), { registration: true });
    const OTHER = storedEvent('7100000002', at(BASE, 2), { registration: true });
    // Two to a second, so ties fall to the id; added in an order unlike the list's.
    const REGS = Array.from({ length: 25 }, (_, i) =>
      registration(
        `reg-${String(i).padStart(2, '0')}`,
        EVENT.videoId,
        at('2026-03-01T00:00:00.000Z', Math.floor(i / 2) / 3600),
      ),
    );
    beforeAll(async () => {
      await e.store.insertEvents([EVENT, OTHER]);
      for (const r of [...REGS].reverse()) await e.store.addRegistration(r);
      await e.store.addRegistration(registration('reg-other', OTHER.videoId, '2026-03-01T00:00:00.000Z'));
    });

    it('pages oldest first, each once', async () => {
      const got: { id: string }[][] = [];
      let cursor: string | null = null;
      do {
        const r = await e.api(
          'GET',
          `/api/video/events/${EVENT.videoId}/registrations?limit=10${cursor ? `&cursor=${cursor}` : ''}`,
        );
        expect(r.status, r.text).toBe(200);
        got.push(r.json.items);
        cursor = r.json.nextCursor;
      } while (cursor && got.length < 10);
      expect(got.map((p) => p.length)).toEqual([10, 10, 5]);
      expect(got.flat().map((x) => x.id)).toEqual(REGS.map((x) => x.id));
      expect(got[0]?.[0]).toMatchObject({
        id: 'reg-00',
        video_id: EVENT.videoId,
        email: 'reg-00@example.com',
      });
    });

    it('refuses another list’s cursor and bad limits', async () => {
      const first = (await e.api('GET', `/api/video/events/${EVENT.videoId}/registrations?limit=3`)).json;
      const other = await e.api(
        'GET',
        `/api/video/events/${OTHER.videoId}/registrations?cursor=${first.nextCursor}`,
      );
      expect(other.status).toBe(400);
      expect(other.json.error.code).toBe('invalid_cursor');
      const events = (await e.api('GET', '/api/video/events?limit=3')).json.nextCursor;
      expect(
        (await e.api('GET', `/api/video/events/${EVENT.videoId}/registrations?cursor=${events}`)).json.error
          .code,
      ).toBe('invalid_cursor');
      expect((await e.api('GET', `/api/video/events/${EVENT.videoId}/registrations?limit=0`)).status).toBe(
        400,
      );
      expect((await e.api('GET', `/api/video/events/${OTHER.videoId}/registrations`)).json).toMatchObject({
        items: [{ id: 'reg-other' }],
        nextCursor: null,
      });
    });
  });
});
