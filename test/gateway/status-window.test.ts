/**
 * The status report stays small whatever the store holds: `storedEvents` is the bounded window
 * (upcoming soonest first and the most recent past, 100 in all, up to 50 past when enough are
 * upcoming, either side filling what the other leaves; in start_time order), and
 * `registrationsTotal` is exact after registrations and after an event's deletion. Through HTTP,
 * with the events bulk-loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAST_SHOWN, STORED_EVENTS_SHOWN } from '../../src/gateway/event-window.js';
import { loadDashboard, REGISTRANTS_SHOWN } from '../../src/pages/dashboard/data.js';
import type { StoredEvent } from '../../src/store/store.js';
import { startGateway, type GatewayEnv } from './helpers.js';
import { at, registration, storedEvent } from './stored-event-fixtures.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
});
afterAll(() => e.close());

const report = async () => {
  const r = await e.api('GET', '/api/video/status');
  expect(r.status).toBe(200);
  return r.json;
};
const shown = async () => ((await report()).storedEvents as { video_id: string }[]).map((x) => x.video_id);
const range = (prefix: number, n: number, base: string): StoredEvent[] =>
  Array.from({ length: n }, (_, i) => storedEvent(String(prefix + i), at(base, i)));
const idsOf = (events: StoredEvent[]) => events.map((x) => x.videoId);

describe('registrationsTotal', () => {
  it('counts every registration, and forgets a deleted event’s', async () => {
    const made: string[] = [];
    for (const topic of ['Open day', 'Second open day']) {
      const r = await e.api('POST', '/api/video/events', {
        body: { topic, start_time: '2031-05-01T16:00:00.000Z', registration: true },
      });
      expect(r.status, r.text).toBe(201);
      made.push(r.json.video_id);
    }
    const [a = '', b = ''] = made;
    const register = async (id: string, who: string) =>
      expect(
        (
          await e.api('POST', `/api/video/events/${id}/registrations`, {
            body: { email: `${who}@example.com`, first_name: who, last_name: 'Tester' },
          })
        ).status,
      ).toBe(201);
    for (const who of ['ada', 'bo', 'cy']) await register(a, who);
    for (const who of ['di', 'ed']) await register(b, who);
    expect((await report()).registrationsTotal).toBe(5);
    expect((await e.api('DELETE', `/api/video/events/${a}`)).status).toBe(200);
    expect((await report()).registrationsTotal).toBe(2);
    expect((await e.api('DELETE', `/api/video/events/${b}`)).status).toBe(200);
    expect((await report()).registrationsTotal).toBe(0);
    expect(await shown()).toEqual([]);
  });
});

describe('storedEvents with 150 and more stored', () => {
  const past = range(5_000_000_000, 120, '2020-01-01T00:00:00.000Z');
  const soon = range(6_000_000_000, 30, '2032-01-01T00:00:00.000Z');
  const later = range(6_100_000_000, 50, '2033-01-01T00:00:00.000Z');
  const latest = range(6_200_000_000, 100, '2034-01-01T00:00:00.000Z');

  it('holds the upcoming ones and lets the past fill the rest', async () => {
    await e.store.insertEvents([...past, ...soon]);
    const r = await report();
    expect(r.storedEvents).toHaveLength(STORED_EVENTS_SHOWN);
    expect(r.storedEvents.map((x: { video_id: string }) => x.video_id)).toEqual(
      idsOf([...past.slice(-70), ...soon]),
    );
    expect(r.storedEvents[0]).toEqual({
      video_id: past[50]?.videoId,
      topic: past[50]?.topic,
      kind: 'meeting',
      start_time: past[50]?.startTime,
      funnel: null,
      status: 'scheduled',
    });
  });

  it('keeps 50 past when enough are upcoming', async () => {
    await e.store.insertEvents(later);
    expect(await shown()).toEqual(idsOf([...past.slice(-PAST_SHOWN), ...soon, ...later.slice(0, 20)]));
  });

  it('lets the upcoming fill what few past events leave', async () => {
    for (const x of past.slice(0, 110)) await e.store.deleteEvent(x.videoId);
    await e.store.insertEvents(latest);
    expect(await shown()).toEqual(idsOf([...past.slice(110), ...soon, ...later, ...latest.slice(0, 10)]));
    // The warm report and the dashboard's window are the same events.
    const window = await e.gateway.status.storedEvents();
    expect(window.more).toBe(true);
    expect(idsOf(window.events)).toEqual(await shown());
  });

  it('is what the dashboard shows, each event with its registration count and first registrants', async () => {
    const busy = soon[3]?.videoId ?? '';
    for (let i = 0; i < 12; i++)
      await e.store.addRegistration(registration(`dash-${i}`, busy, at('2026-04-01T00:00:00.000Z', i)));
    const d = await loadDashboard(e.gateway, false, e.app.log);
    if (!d.events.ok) throw new Error(d.events.error);
    expect(d.events.value.map((row) => row.event.videoId)).toEqual(await shown());
    const row = d.events.value.find((x) => x.event.videoId === busy);
    expect(row?.registrations).toMatchObject({ ok: true, value: { total: 12 } });
    if (!row?.registrations.ok) throw new Error('registrations');
    expect(row.registrations.value.first.map((r) => r.id)).toEqual(
      Array.from({ length: REGISTRANTS_SHOWN }, (_, i) => `dash-${i}`),
    );
    expect((await report()).registrationsTotal).toBe(12);
  });

  it('stays small: the body does not grow with the store', async () => {
    const r = await e.api('GET', '/api/video/status?fresh=1');
    expect(r.text.length).toBeLessThan(64 * 1024);
  });
});
