/**
 * video_events (events hub) operations against the emulator: listing hosted and attended events,
 * one event, registrations, sessions, and creating an event in the user's hub; every answer is
 * held to the operation's declared output.
 */
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/gateway/capabilities/catalog.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { videoEventsOps } from '../../../src/gateway/capabilities/ops/video-events.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const op = (name: string) => {
  const o = videoEventsOps.find((x) => x.name === name);
  if (!o) throw new Error(`no op ${name}`);
  return o as unknown as Operation;
};
const run = async (name: string, input: unknown): Promise<any> => {
  const out = await op(name).run(await e.gateway.opContext(), parseInput(op(name).input, input));
  expectOutput('video_events', name, out);
  return out;
};
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as { status: number; code: string; details?: any };
  }
  throw new Error('expected a failure');
};
const emuToken = async () => (await e.emu.userToken()).access_token;
const inDays = (d: number, h = 15) => {
  const t = new Date(Date.now() + d * 86_400_000);
  t.setUTCHours(h, 0, 0, 0);
  return t.toISOString();
};

describe('video_events', () => {
  it('matches the catalog', () => {
    const names = CAPABILITIES.filter((c) => c.group === 'video_events').map((c) => c.name);
    expect(videoEventsOps.map((o) => o.name).sort()).toEqual([...names].sort());
    for (const o of videoEventsOps) expect(o.group).toBe('video_events');
  });

  it('list_events lists hosted events by status, with paging, and attended ones', async () => {
    const upcoming = await run('list_events', {});
    expect(upcoming.items.length).toBeGreaterThanOrEqual(2);
    expect(upcoming.items[0]).toEqual(
      expect.objectContaining({
        event_id: expect.any(String),
        name: expect.any(String),
        status: 'PUBLISHED',
        start_time: expect.any(String),
        hub_id: expect.any(String),
        event_url: expect.stringContaining('http'),
      }),
    );
    const first = await run('list_events', { limit: '1' });
    expect(first.items).toHaveLength(1);
    const second = await run('list_events', { limit: 1, cursor: first.nextCursor });
    expect(second.items[0].event_id).not.toBe(first.items[0].event_id);
    expect(second.items[0].event_id).toBe(upcoming.items[1].event_id);

    const past = await run('list_events', { status: 'past' });
    expect(past.items.length).toBeGreaterThan(0);
    expect(past.items.every((x: any) => Date.parse(x.end_time) < Date.now())).toBe(true);
    const attending = await run('list_events', { role: 'attendee', status: 'upcoming' });
    expect(attending.items.length).toBeGreaterThan(0);
    const hosted = new Set(upcoming.items.map((x: any) => x.event_id));
    expect(attending.items.some((x: any) => hosted.has(x.event_id))).toBe(false);
  });

  it('list_events validates its input', async () => {
    const err = await failure(run('list_events', { status: 'soon', limit: 301 }));
    expect(err.code).toBe('validation_failed');
    expect(err.details.issues.map((i: any) => i.path).sort()).toEqual(['limit', 'status']);
    const attendeeDraft = await failure(run('list_events', { role: 'attendee', status: 'draft' }));
    expect(attendeeDraft.details.issues[0].path).toBe('status');
  });

  it('get_event, registrations and sessions of a hosted event', async () => {
    const upcoming = await run('list_events', {});
    const ev = upcoming.items[0];
    const got = await run('get_event', { event_id: ev.event_id });
    expect(got).toMatchObject({ event_id: ev.event_id, name: ev.name, host_id: expect.any(String) });

    const regs = await run('registrations', { event_id: ev.event_id, limit: 300 });
    expect(regs.items.length).toBeGreaterThan(1);
    expect(regs.items[0]).toEqual(
      expect.objectContaining({
        email: expect.stringContaining('@'),
        registration_status: expect.any(String),
        tickets: expect.any(Array),
      }),
    );
    const page = await run('registrations', { event_id: ev.event_id, limit: 1 });
    expect(page.items).toHaveLength(1);
    const next = await run('registrations', { event_id: ev.event_id, limit: 1, cursor: page.nextCursor });
    expect(next.items[0].email).toBe(regs.items[1].email);

    let withSessions: any;
    for (const x of upcoming.items) {
      const s = await run('sessions', { event_id: x.event_id });
      if (s.items.length) {
        withSessions = s;
        break;
      }
    }
    expect(withSessions.nextCursor).toBeNull();
    expect(withSessions.items[0]).toEqual(
      expect.objectContaining({
        session_id: expect.any(String),
        name: expect.any(String),
        session_type: expect.stringMatching(/^(meeting|webinar|no_meeting)$/),
        start_time: expect.any(String),
        speakers: expect.any(Array),
      }),
    );
  });

  it('maps platform errors: unknown event, and registrations of an attended event', async () => {
    const missing = await failure(run('get_event', { event_id: 'NoSuchEvent00000000000' }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.details.platformCode).toBe(2002);
    const attending = await run('list_events', { role: 'attendee' });
    const denied = await failure(run('registrations', { event_id: attending.items[0].event_id }));
    expect(denied).toMatchObject({ status: 403, code: 'upstream_forbidden' });
    expect((await failure(run('sessions', { event_id: '' }))).code).toBe('validation_failed');
  });

  it('create_event makes a draft in the hosted hub, with its session, seen on both sides', async () => {
    const start = inDays(10);
    const end = inDays(10, 17);
    const made = await run('create_event', {
      name: 'Meridian Freight shipper open house',
      description: 'Tour the Joliet cross-dock and meet the dispatch team.',
      timezone: 'America/Chicago',
      start_time: start.replace('Z', '+00:00'),
      end_time: end,
      tags: ['freight'],
    });
    expect(made).toMatchObject({
      event_id: expect.any(String),
      name: 'Meridian Freight shipper open house',
      status: 'DRAFT',
      event_type: 'SIMPLE_EVENT',
      access_level: 'PRIVATE_RESTRICTED',
      attendance_type: 'virtual',
      meeting_type: 'MEETING',
      timezone: 'America/Chicago',
      start_time: start.replace('.000Z', 'Z'),
      end_time: end.replace('.000Z', 'Z'),
      hub_id: expect.any(String),
      tags: ['freight'],
    });
    const hubs = await e.emu.api('GET', '/v2/zoom_events/hubs', {
      token: await emuToken(),
      query: { role_type: 'host' },
    });
    expect(made.hub_id).toBe(hubs.json.hubs[0].hub_id);

    const drafts = await run('list_events', { status: 'draft', limit: 300 });
    expect(drafts.items.map((x: any) => x.event_id)).toContain(made.event_id);
    const direct = await e.emu.api('GET', `/v2/zoom_events/events/${made.event_id}`, {
      token: await emuToken(),
    });
    expect(direct.json).toMatchObject({ name: made.name, status: 'DRAFT', hub_id: made.hub_id });
    const sessions = await run('sessions', { event_id: made.event_id });
    expect(sessions.items).toHaveLength(1);
    expect(sessions.items[0]).toMatchObject({ name: made.name, session_type: 'meeting' });

    const conference = await run('create_event', {
      name: 'GrowthOS partner summit',
      timezone: 'UTC',
      start_time: inDays(20, 14),
      end_time: inDays(21, 20),
      event_type: 'CONFERENCE',
      access_level: 'PRIVATE_UNRESTRICTED',
      attendance_type: 'hybrid',
      physical_location: '200 W Madison St, Chicago',
      categories: ['Business & Networking'],
    });
    expect(conference).toMatchObject({
      event_type: 'CONFERENCE',
      meeting_type: null,
      attendance_type: 'hybrid',
    });
    expect((await run('sessions', { event_id: conference.event_id })).items).toEqual([]);
  });

  it('create_event validates its input and maps platform refusals', async () => {
    const base = {
      name: 'x',
      timezone: 'America/Chicago',
      start_time: inDays(5),
      end_time: inDays(5, 17),
    };
    const bad = await failure(
      run('create_event', {
        ...base,
        name: '',
        timezone: 'Mars/Olympus',
        start_time: '2026-12-01 10:00',
        access_level: 'OPEN',
      }),
    );
    expect(bad.code).toBe('validation_failed');
    expect(bad.details.issues.map((i: any) => i.path).sort()).toEqual([
      'access_level',
      'name',
      'start_time',
      'timezone',
    ]);
    const backwards = await failure(run('create_event', { ...base, end_time: inDays(4) }));
    expect(backwards.details.issues[0].path).toBe('end_time');
    const long = await failure(run('create_event', { ...base, end_time: inDays(12) }));
    expect(long.details.issues[0].message).toContain('6 days');
    expect((await failure(run('create_event', { ...base, categories: ['Sports'] }))).code).toBe(
      'validation_failed',
    );

    const attending = await run('list_events', { role: 'attendee' });
    const foreignHub = attending.items[0].hub_id;
    const refused = await failure(run('create_event', { ...base, hub_id: foreignHub }));
    expect(refused).toMatchObject({ status: 403, code: 'upstream_forbidden' });
    expect(refused.details.platformCode).toBe(26201);
  });
});
