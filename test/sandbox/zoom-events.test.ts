import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxModule } from '../../src/sandbox/context.js';
import { meetingsModule } from '../../src/sandbox/routes/meetings.js';
import { usersModule } from '../../src/sandbox/routes/users.js';
import { zoomEventsModule } from '../../src/sandbox/routes/zoom-events.js';
import { checkResponse, documentedScopes } from './helpers/openapi.js';
import { startTestSandbox, type TestSandbox } from './helpers/sandbox.js';

const MODULES = [usersModule, meetingsModule, zoomEventsModule] as SandboxModule[];
let t: TestSandbox;
let token: string;
beforeAll(async () => {
  t = await startTestSandbox({}, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('events.json', method, template, status, body), `${method} ${template}`).toEqual([]);
const events = (query: Record<string, string | number>) =>
  t.api('GET', '/v2/zoom_events/events', { token, query });
const names = (r: { json: { events: { name: string }[] } }) => r.json.events.map((e) => e.name);

const hubId = async (role: 'host' | 'attendee') =>
  (await t.api('GET', '/v2/zoom_events/hubs', { token, query: { role_type: role } })).json.hubs[0]
    .hub_id as string;

const validEvent = async () => ({
  name: 'Meridian Contracting bid night',
  description: 'How to bid on Meridian Contracting jobs.',
  timezone: 'America/Chicago',
  event_type: 'SIMPLE_EVENT',
  meeting_type: 'MEETING',
  access_level: 'PUBLIC',
  hub_id: await hubId('host'),
  attendance_type: 'virtual',
  categories: ['Business & Networking'],
  calendar: [{ start_time: '2030-05-06T23:00:00Z', end_time: '2030-05-07T00:30:00Z' }],
});

describe('zoom events', () => {
  it('lists hosted events by status, and attended events by default', async () => {
    const upcoming = await events({ role_type: 'host', event_status_type: 'upcoming' });
    expect(upcoming.status).toBe(200);
    fidelity('GET', '/zoom_events/events', 200, upcoming.json);
    expect(names(upcoming)).toEqual([
      'Meridian Early Learning open house',
      'Meridian Mortgage first-time buyer night',
      'GrowthOS live demo day',
    ]);
    const past = await events({ role_type: 'host', event_status_type: 'past' });
    expect(names(past)).toEqual([
      'Meridian Freight driver recruiting fair',
      'Meridian Capital small-business lending webinar',
    ]);
    expect(names(await events({ role_type: 'host', event_status_type: 'draft' }))).toEqual([
      'Meridian Housing resident town hall',
    ]);
    expect(names(await events({ role_type: 'host', event_status_type: 'cancelled' }))).toEqual([
      'FleetWorks EV maintenance workshop',
    ]);

    const attending = await t.api('GET', '/v2/zoom_events/events', { token });
    fidelity('GET', '/zoom_events/events', 200, attending.json);
    expect(names(attending)).toEqual(['Meridian Learning CDL instructor summit']);
    const draftAsAttendee = await events({ event_status_type: 'draft' });
    expect(draftAsAttendee.status).toBe(400);
    expect(draftAsAttendee.json.code).toBe(300);
  });

  it('pages events with opaque tokens; a forged token is a 400 code 300', async () => {
    const first = await events({ role_type: 'host', page_size: 2 });
    expect(first.json.events).toHaveLength(2);
    expect(first.json.total_records).toBe(3);
    const second = await events({
      role_type: 'host',
      page_size: 2,
      next_page_token: first.json.next_page_token,
    });
    expect(names(second)).toEqual(['GrowthOS live demo day']);
    expect(second.json.next_page_token).toBe('');
    const bad = await events({ role_type: 'host', next_page_token: 'forged' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
  });

  it('gets an event with its host, sessions and registrants; unknown ids are 404 code 2002', async () => {
    const demo = (await events({ role_type: 'host' })).json.events.find(
      (e: { name: string }) => e.name === 'GrowthOS live demo day',
    );
    const got = await t.api('GET', `/v2/zoom_events/events/${demo.event_id}`, { token });
    expect(got.status).toBe(200);
    fidelity('GET', '/zoom_events/events/{eventId}', 200, got.json);
    const me = await t.api('GET', '/v2/users/me', { token });
    expect(got.json.host_id).toBe(me.json.id);
    expect(got.json.event_type).toBe('CONFERENCE');

    const sessions = await t.api('GET', `/v2/zoom_events/events/${demo.event_id}/sessions`, { token });
    expect(sessions.status).toBe(200);
    fidelity('GET', '/zoom_events/events/{eventId}/sessions', 200, sessions.json);
    expect(sessions.json.total_records).toBe(3);
    expect(sessions.json).not.toHaveProperty('next_page_token');

    const regs = await t.api('GET', `/v2/zoom_events/events/${demo.event_id}/registrants`, {
      token,
      query: { page_size: 5 },
    });
    expect(regs.status).toBe(200);
    fidelity('GET', '/zoom_events/events/{eventId}/registrants', 200, regs.json);
    expect(regs.json.registrants).toHaveLength(5);
    expect(regs.json.total_records).toBeGreaterThan(5);
    const next = await t.api('GET', `/v2/zoom_events/events/${demo.event_id}/registrants`, {
      token,
      query: { page_size: 5, next_page_token: regs.json.next_page_token },
    });
    expect(next.json.registrants[0].email).not.toBe(regs.json.registrants[0].email);

    const missing = await t.api('GET', '/v2/zoom_events/events/nope', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 2002, message: 'Event not found.' });
    expect((await t.api('GET', '/v2/zoom_events/events/nope/sessions', { token })).json.code).toBe(2002);
  });

  it('lists hubs by role, and role_type is required', async () => {
    const host = await t.api('GET', '/v2/zoom_events/hubs', { token, query: { role_type: 'host' } });
    expect(host.status).toBe(200);
    fidelity('GET', '/zoom_events/hubs', 200, host.json);
    expect(host.json.hubs.map((h: { name: string }) => h.name)).toEqual(['Meridian Fleet Events']);
    const attendee = await t.api('GET', '/v2/zoom_events/hubs', { token, query: { role_type: 'attendee' } });
    expect(attendee.json.hubs.map((h: { name: string }) => h.name)).toEqual(['Meridian Learning Hub']);
    const none = await t.api('GET', '/v2/zoom_events/hubs', { token });
    expect(none.status).toBe(400);
    expect(none.json.code).toBe(300);
  });

  it('creates an event (201) as a draft that reads back with its session', async () => {
    const created = await t.api('POST', '/v2/zoom_events/events', { token, body: await validEvent() });
    expect(created.status).toBe(201);
    fidelity('POST', '/zoom_events/events', 201, created.json);
    expect(created.json).toMatchObject({
      status: 'DRAFT',
      start_time: '2030-05-06T23:00:00Z',
      end_time: '2030-05-07T00:30:00Z',
    });
    const got = await t.api('GET', `/v2/zoom_events/events/${created.json.event_id}`, { token });
    expect(got.json.name).toBe('Meridian Contracting bid night');
    expect(names(await events({ role_type: 'host', event_status_type: 'draft' }))).toContain(
      'Meridian Contracting bid night',
    );
    const sessions = await t.api('GET', `/v2/zoom_events/events/${created.json.event_id}/sessions`, {
      token,
    });
    expect(sessions.json.sessions.map((s: { name: string }) => s.name)).toEqual([
      'Meridian Contracting bid night',
    ]);

    const weekly = await t.api('POST', '/v2/zoom_events/events', {
      token,
      body: {
        ...(await validEvent()),
        event_type: 'RECURRING',
        recurrence: { type: 2, repeat_interval: 1, weekly_days: [3, 5], end_times: 4, duration: 60 },
      },
    });
    expect(weekly.status).toBe(201);
    fidelity('POST', '/zoom_events/events', 201, weekly.json);
    const read = await t.api('GET', `/v2/zoom_events/events/${weekly.json.event_id}`, { token });
    fidelity('GET', '/zoom_events/events/{eventId}', 200, read.json);
    expect(read.json.recurrence.weekly_days).toBe('3,5');
  });

  it('validates the required fields and the schedule', async () => {
    const r = await t.api('POST', '/v2/zoom_events/events', {
      token,
      body: { name: 'x', event_type: 'WEBINAR', attendance_type: 'online' },
    });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(300);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'access_level',
      'attendance_type',
      'description',
      'event_type',
      'hub_id',
      'timezone',
    ]);
    const base = await validEvent();
    const backwards = await t.api('POST', '/v2/zoom_events/events', {
      token,
      body: { ...base, calendar: [{ start_time: '2030-05-07T00:00:00Z', end_time: '2030-05-06T00:00:00Z' }] },
    });
    expect(backwards.json).toEqual({
      code: 26203,
      message: 'Event end_time must be after event start_time.',
    });
    const long = await t.api('POST', '/v2/zoom_events/events', {
      token,
      body: { ...base, calendar: [{ start_time: '2030-05-01T00:00:00Z', end_time: '2030-05-09T00:00:00Z' }] },
    });
    expect(long.json.code).toBe(26202);
    const otherHub = await t.api('POST', '/v2/zoom_events/events', {
      token,
      body: { ...base, hub_id: await hubId('attendee') },
    });
    expect(otherHub.status).toBe(403);
    expect(otherHub.json.code).toBe(26201);
  });

  it('accepts every documented scope for each call', async () => {
    const granted = (await t.userToken()).scope.split(' ');
    const ops: [string, string][] = [
      ['GET', '/zoom_events/events'],
      ['GET', '/zoom_events/events/{eventId}'],
      ['POST', '/zoom_events/events'],
      ['GET', '/zoom_events/events/{eventId}/registrants'],
      ['GET', '/zoom_events/events/{eventId}/sessions'],
      ['GET', '/zoom_events/hubs'],
    ];
    for (const [m, path] of ops)
      for (const s of documentedScopes('events.json', m, path)) expect(granted, `${m} ${path}`).toContain(s);
    const only = await startTestSandbox({ scopes: ['zoom_events:read:list_hubs'] }, MODULES);
    try {
      const tok = (await only.userToken()).access_token;
      expect(
        (await only.api('GET', '/v2/zoom_events/hubs', { token: tok, query: { role_type: 'host' } })).status,
      ).toBe(200);
      const denied = await only.api('GET', '/v2/zoom_events/events', { token: tok });
      expect(denied.json.code).toBe(4711);
      expect(denied.json.message).toContain('zoom_events:read:list_events');
    } finally {
      await only.close();
    }
  });
});
