/**
 * Stored events, registrations, appointments (with compensation and idempotency) and search,
 * through the gateway's HTTP paths against the emulator, checking both sides stay in step; and
 * the meetings operations run directly. Every answer is held to the operation's declared output.
 */
import { describe, expect, it } from 'vitest';
import type { OpContext, Operation } from '../../../src/gateway/capabilities/operation.js';
import { meetingsOps } from '../../../src/gateway/capabilities/ops/meetings.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { HostedMcpClient } from '../../../src/gateway/platform/hosted-mcp-client.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const platformMeeting = (id: string) => e.emu.api('GET', `/v2/meetings/${id}`, { token: e.token });

/** Runs a meetings operation as invoke does, and holds its answer to the declared output. */
const run = async (name: string, input: unknown, ctx?: OpContext): Promise<any> => {
  const op = meetingsOps.find((o) => o.name === name) as unknown as Operation;
  const out = await op.run(ctx ?? (await e.gateway.opContext()), parseInput(op.input, input));
  expectOutput('meetings', name, out);
  return out;
};

describe('stored events', () => {
  it('creates a meeting with a funnel, keeping the UTC start form given', async () => {
    const r = await e.api('POST', '/api/video/events', {
      body: {
        topic: 'GrowthOS demo day',
        start_time: '2030-05-01T15:00:00.000Z',
        duration: 45,
        funnel: 'growthos',
      },
    });
    expect(r.status).toBe(201);
    expectOutput('meetings', 'create_meeting', r.json);
    expect(r.json).toMatchObject({
      topic: 'GrowthOS demo day',
      kind: 'meeting',
      start_time: '2030-05-01T15:00:00.000Z',
      funnel: 'growthos',
      status: 'scheduled',
    });
    expect(r.json.video_id).toMatch(/^\d+$/);
    const p = await platformMeeting(r.json.video_id);
    expect(p.json).toMatchObject({
      topic: 'GrowthOS demo day',
      start_time: '2030-05-01T15:00:00Z',
      duration: 45,
    });
    const status = (await e.api('GET', '/api/video/status')).json;
    expect(status.storedEvents).toContainEqual({
      video_id: r.json.video_id,
      topic: 'GrowthOS demo day',
      kind: 'meeting',
      start_time: '2030-05-01T15:00:00.000Z',
      funnel: 'growthos',
      status: 'scheduled',
    });
  });

  it('keeps a local start time without zone, sent with its timezone', async () => {
    const r = await e.api('POST', '/api/video/events', {
      body: {
        topic: 'Freight lane review',
        start_time: '2030-05-02T09:30:00',
        timezone: 'America/Chicago',
        funnel: null,
      },
    });
    expect(r.status).toBe(201);
    expectOutput('meetings', 'create_meeting', r.json);
    expect(r.json.start_time).toBe('2030-05-02T09:30:00');
    expect((await platformMeeting(r.json.video_id)).json.start_time).toBe('2030-05-02T14:30:00Z');
    const bad = await e.api('POST', '/api/video/events', {
      body: { topic: 'x', start_time: '2030-05-02T09:30:00' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.issues.map((i: { path: string }) => i.path)).toContain('timezone');
  });

  it('rejects a funnel that is not a live theme, listing the allowed keys, and creates nothing', async () => {
    const before =
      (await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings'] ?? 0;
    const r = await e.api('POST', '/api/video/events', {
      body: { topic: 'x', start_time: '2030-01-01T00:00:00Z', funnel: 'webinars' },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.details.allowed).toContain('mortgage');
    expect((await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings'] ?? 0).toBe(
      before,
    );
  });

  it('lists with filters, patches (platform and store together) and deletes', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: { topic: 'Capital pipeline', start_time: '2030-06-01T16:00:00.000Z', funnel: 'capital' },
    });
    const id = c.json.video_id;
    const list = await e.api('GET', '/api/video/events?funnel=capital');
    expect(list.json.items.map((x: { video_id: string }) => x.video_id)).toContain(id);
    const patched = await e.api('PATCH', `/api/video/events/${id}`, {
      body: { topic: 'Capital pipeline (moved)', start_time: '2030-06-02T16:00:00.000Z', funnel: 'mortgage' },
    });
    expect(patched.json).toMatchObject({
      topic: 'Capital pipeline (moved)',
      funnel: 'mortgage',
      start_time: '2030-06-02T16:00:00.000Z',
    });
    expect((await platformMeeting(id)).json).toMatchObject({
      topic: 'Capital pipeline (moved)',
      start_time: '2030-06-02T16:00:00Z',
    });
    expect((await e.api('PATCH', `/api/video/events/${id}`, { body: {} })).status).toBe(400);
    const del = await e.api('DELETE', `/api/video/events/${id}`);
    expectOutput('meetings', 'delete_meeting', del.json);
    expect(del.json).toMatchObject({ deleted: true, video_id: id, platform: 'deleted' });
    expect((await platformMeeting(id)).status).toBe(404);
    expect((await e.api('GET', `/api/video/events/${id}`)).status).toBe(404);
  });

  it('registers people on an event with registration on, counted in the status', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: {
        topic: 'Open house',
        start_time: '2030-07-01T17:00:00.000Z',
        funnel: 'earlylearning',
        registration: true,
      },
    });
    const id = c.json.video_id;
    const reg = await e.api('POST', `/api/video/events/${id}/registrations`, {
      body: { email: 'Parent@Example.com', first_name: 'Pat' },
    });
    expect(reg.status).toBe(201);
    expect(reg.json).toMatchObject({ email: 'parent@example.com', registrant_id: expect.any(String) });
    const platform = await e.emu.api('GET', `/v2/meetings/${id}/registrants`, { token: e.token });
    expect(platform.json.registrants.map((r: { email: string }) => r.email.toLowerCase())).toContain(
      'parent@example.com',
    );
    expect((await e.api('GET', `/api/video/events/${id}/registrations`)).json.items).toHaveLength(1);
    expect((await e.api('GET', '/api/video/status')).json.registrationsTotal).toBeGreaterThanOrEqual(1);
    const noReg = await e.api('POST', '/api/video/events', {
      body: { topic: 'Closed', start_time: '2030-07-01T17:00:00.000Z' },
    });
    expect(
      (
        await e.api('POST', `/api/video/events/${noReg.json.video_id}/registrations`, {
          body: { email: 'a@b.co', first_name: 'A' },
        })
      ).json.error.code,
    ).toBe('registration_closed');
  });
});

describe('appointments', () => {
  const body = {
    topic: 'Mortgage consult',
    start_time: '2030-08-01T10:00:00',
    duration: 30,
    timezone: 'America/Chicago',
    invitee: { name: 'Jamie Buyer', email: 'jamie@example.com' },
    funnel: 'mortgage',
    notes: 'First-time buyer.',
  };

  it('books a meeting plus a calendar event with the invitee', async () => {
    const r = await e.api('POST', '/api/video/appointments', { body });
    expect(r.status).toBe(201);
    expectOutput('meetings', 'create_appointment', r.json);
    const { meeting, calendar_event_id } = r.json.appointment;
    expect(meeting.funnel).toBe('mortgage');
    const cal = await e.emu.api('GET', `/v2/calendars/primary/events/${calendar_event_id}`, {
      token: e.token,
    });
    expect(cal.status).toBe(200);
    expect(cal.json.attendees.map((a: { email: string }) => a.email)).toContain('jamie@example.com');
  });

  it('undoes the meeting when the calendar step fails, and says so', async () => {
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/calendars/primary/events', method: 'POST', status: 503, times: 1 },
    });
    const before = (await e.api('GET', '/api/video/events?funnel=housing')).json.items.length;
    const r = await e.api('POST', '/api/video/appointments', { body: { ...body, funnel: 'housing' } });
    expect(r.status).toBe(502);
    expect(r.json.error).toMatchObject({
      code: 'appointment_failed',
      details: { step: 'calendar_event', compensated: true },
    });
    expect((await platformMeeting(r.json.error.details.video_id)).status).toBe(404);
    expect((await e.api('GET', '/api/video/events?funnel=housing')).json.items.length).toBe(before);
  });

  it('honours Idempotency-Key: a replay books nothing new', async () => {
    const key = { 'idempotency-key': 'appt-0001' };
    const a = await e.api('POST', '/api/video/appointments', { body, headers: key });
    const count = (await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings'];
    const b = await e.api('POST', '/api/video/appointments', { body, headers: key });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expectOutput('meetings', 'create_appointment', a.json);
    expect(b.json).toEqual(a.json);
    expect((await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings']).toBe(
      count,
    );
    const other = await e.api('POST', '/api/video/appointments', {
      body: { ...body, topic: 'Different' },
      headers: key,
    });
    expect(other.status).toBe(422);
  });
});

describe('search', () => {
  it('ranks and groups results across sources; q is required', async () => {
    const r = await e.api('GET', '/api/video/search?q=freight');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.groups)).toEqual(['events', 'meetings', 'recordings', 'contacts']);
    expect(r.json.groups.meetings.length + r.json.groups.events.length).toBeGreaterThan(0);
    expect(r.json.groups.meetings[0].topic.toLowerCase()).toContain('freight');
    expect((await e.api('GET', '/api/video/search')).status).toBe(400);
    expect((await e.api('GET', `/api/video/search?q=${'x'.repeat(101)}`)).status).toBe(400);
  });
});

describe('meetings operations', () => {
  it('list_meetings pages the platform list in our shape, and answers an empty page', async () => {
    const all = await run('list_meetings', { type: 'scheduled', limit: 300 });
    expect(all.items.length).toBeGreaterThan(2);
    const first = await run('list_meetings', { type: 'scheduled', limit: '2' });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('list_meetings', { type: 'scheduled', limit: 2, cursor: first.nextCursor });
    expect(second.items[0].video_id).toBe(all.items[2].video_id);
    await run('list_meetings', { type: 'previous' });
    const none = await run('list_meetings', { type: 'live' });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('get_meeting gives the platform meeting, with the stored event when the gateway made it', async () => {
    const made = await run('create_meeting', {
      topic: 'Dispatch handover',
      start_time: '2030-09-01T15:00:00.000Z',
      funnel: 'capital',
    });
    expect(await run('get_meeting', { video_id: made.video_id })).toMatchObject({
      video_id: made.video_id,
      topic: 'Dispatch handover',
      stored: { funnel: 'capital', status: 'scheduled' },
    });
    const foreign = (await run('list_meetings', { type: 'scheduled', limit: 300 })).items.find(
      (m: { video_id: string }) => m.video_id !== made.video_id,
    );
    expect((await run('get_meeting', { video_id: foreign.video_id })).stored).toBeNull();
    expect(await run('delete_meeting', { video_id: made.video_id })).toEqual({
      deleted: true,
      video_id: made.video_id,
      platform: 'deleted',
    });
  });

  it('delete_meeting deletes a meeting the gateway did not store', async () => {
    const p = await e.emu.api('POST', '/v2/users/me/meetings', {
      token: e.token,
      body: { topic: 'Made elsewhere', type: 2, start_time: '2030-09-02T15:00:00Z', duration: 30 },
    });
    const id = String(p.json.id);
    expect(await run('delete_meeting', { video_id: id })).toEqual({
      deleted: true,
      video_id: id,
      platform: 'deleted',
    });
    expect((await platformMeeting(id)).status).toBe(404);
  });

  it('search_meetings answers from the hosted search, or from the filtered list when it is away', async () => {
    const ctx = await e.gateway.opContext();
    const client = (url: string | undefined) =>
      new HostedMcpClient({ url, tokens: e.gateway.tokens, fetch, timeoutMs: 5000 });
    const hosted = await run(
      'search_meetings',
      { q: 'Memphis backhaul', limit: 3 },
      {
        ...ctx,
        hostedMcp: client(`${e.emu.base}/mcp`),
      },
    );
    expect(hosted.via).toBe('hosted_mcp');
    expect(hosted.items[0]).toEqual({
      video_id: expect.any(String),
      topic: 'Freight lane planning',
      start_time: expect.any(String),
    });
    const away = { ...ctx, hostedMcp: client(undefined) };
    const listed = await run('search_meetings', { q: 'freight' }, away);
    expect(listed).toMatchObject({ via: 'meeting_list_filter', note: expect.any(String) });
    expect(listed.items.length).toBeGreaterThan(0);
    expect(listed.items[0].topic.toLowerCase()).toContain('freight');
    expect((await run('search_meetings', { q: 'zzzunmatched' }, away)).items).toEqual([]);
  });
});
