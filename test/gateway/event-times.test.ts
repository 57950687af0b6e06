/**
 * Stored events' start times against the emulator: the form the caller gave (UTC with `Z` and
 * milliseconds, or a local time plus its zone) survives creation, PATCH and the platform's own
 * meeting.updated deliveries; the platform always holds the same instant, and so does an
 * appointment's calendar event; a start in the past is refused on every path, judged by the
 * gateway's clock.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInput } from '../../src/gateway/capabilities/registry.js';
import {
  createEvent,
  eventPatchInput,
  newEventInput,
  updateEvent,
} from '../../src/gateway/events-service.js';
import { eventually } from '../helpers/build-test-app.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
let token: string;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  // The emulator delivers its signed webhooks (meeting.updated among them) to this gateway.
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
  token = (await e.emu.userToken()).access_token;
});
afterAll(() => e.close());

const CHICAGO = 'America/Chicago';

async function create(body: Record<string, unknown>) {
  const r = await e.api('POST', '/api/video/events', { body });
  expect(r.status, r.text).toBe(201);
  return r.json as { video_id: string; start_time: string; timezone: string | null };
}
async function patch(id: string, body: Record<string, unknown>) {
  const r = await e.api('PATCH', `/api/video/events/${id}`, { body });
  expect(r.status, r.text).toBe(200);
  return r.json;
}
const stored = async (id: string) => (await e.api('GET', `/api/video/events/${id}`)).json;
const onPlatform = async (id: string) => (await e.emu.api('GET', `/v2/meetings/${id}`, { token })).json;
const meetingWrites = async () => {
  const req = (await e.emu.api('GET', '/_sandbox/stats')).json.requests as Record<string, number>;
  return Object.entries(req)
    .filter(([k]) => k === 'POST /v2/users/me/meetings' || k.startsWith('PATCH /v2/meetings/'))
    .reduce((n, [, v]) => n + v, 0);
};

/** Waits until the gateway has processed `n` meeting.updated deliveries for this meeting (its log says so). */
async function updatesProcessed(id: string, n: number): Promise<void> {
  const count = () =>
    e.logs().filter((line) => {
      const l = JSON.parse(line) as { msg?: string; event?: string; videoId?: string };
      return l.msg === 'webhook processed' && l.event === 'meeting.updated' && l.videoId === id;
    }).length;
  await eventually(() => expect(count()).toBe(n));
}

async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'event-times-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
    }),
  );
  return client;
}
const toolText = (res: Record<string, unknown>) =>
  (res['content'] as { type: string; text: string }[])[0]?.text ?? '';

describe('a reschedule keeps the form given and the platform gets the same instant', () => {
  it('local time plus zone, through PATCH and the webhook the platform sends back', async () => {
    const ev = await create({ topic: 'Local move', start_time: '2030-12-19T10:00:00', timezone: CHICAGO });
    const moved = await patch(ev.video_id, { start_time: '2030-12-20T11:00:00' });
    expect(moved).toMatchObject({ start_time: '2030-12-20T11:00:00', timezone: CHICAGO });
    // 11:00 in Chicago in December is 17:00 UTC, not 11:00 UTC.
    expect((await onPlatform(ev.video_id)).start_time).toBe('2030-12-20T17:00:00Z');
    await updatesProcessed(ev.video_id, 1);
    expect(await stored(ev.video_id)).toMatchObject({ start_time: '2030-12-20T11:00:00', timezone: CHICAGO });

    // A new zone alone keeps the wall-clock time of a local start, so the meeting moves.
    const rezoned = await patch(ev.video_id, { timezone: 'America/New_York' });
    expect(rezoned).toMatchObject({ start_time: '2030-12-20T11:00:00', timezone: 'America/New_York' });
    expect(await onPlatform(ev.video_id)).toMatchObject({
      start_time: '2030-12-20T16:00:00Z',
      timezone: 'America/New_York',
    });
    await updatesProcessed(ev.video_id, 2);
    expect(await stored(ev.video_id)).toMatchObject({
      start_time: '2030-12-20T11:00:00',
      timezone: 'America/New_York',
    });
  });

  it('UTC with Z, through PATCH and the webhook the platform sends back', async () => {
    const ev = await create({ topic: 'UTC move', start_time: '2030-12-19T17:00:00.000Z', timezone: CHICAGO });
    const moved = await patch(ev.video_id, { start_time: '2030-12-20T17:00:00Z' });
    expect(moved).toMatchObject({ start_time: '2030-12-20T17:00:00.000Z', timezone: CHICAGO });
    expect((await onPlatform(ev.video_id)).start_time).toBe('2030-12-20T17:00:00Z');
    await updatesProcessed(ev.video_id, 1);
    expect(await stored(ev.video_id)).toMatchObject({ start_time: '2030-12-20T17:00:00.000Z' });

    // A UTC start names an instant: a new zone only changes how the platform shows it.
    const rezoned = await patch(ev.video_id, { timezone: 'Europe/Berlin' });
    expect(rezoned).toMatchObject({ start_time: '2030-12-20T17:00:00.000Z', timezone: 'Europe/Berlin' });
    expect((await onPlatform(ev.video_id)).start_time).toBe('2030-12-20T17:00:00Z');
    await updatesProcessed(ev.video_id, 2);
    expect(await stored(ev.video_id)).toMatchObject({
      start_time: '2030-12-20T17:00:00.000Z',
      timezone: 'Europe/Berlin',
    });
  });

  it('a move made on the platform itself arrives in UTC and is stored in the form given', async () => {
    const local = await create({
      topic: 'Moved there (local)',
      start_time: '2030-12-19T10:00:00',
      timezone: CHICAGO,
    });
    const utc = await create({ topic: 'Moved there (UTC)', start_time: '2030-12-19T16:00:00.000Z' });
    for (const id of [local.video_id, utc.video_id]) {
      const r = await e.emu.api('PATCH', `/v2/meetings/${id}`, {
        token,
        body: { start_time: '2030-12-21T15:30:00Z' },
      });
      expect(r.status).toBe(204);
      await updatesProcessed(id, 1);
    }
    expect(await stored(local.video_id)).toMatchObject({
      start_time: '2030-12-21T09:30:00',
      timezone: CHICAGO,
    });
    expect(await stored(utc.video_id)).toMatchObject({ start_time: '2030-12-21T15:30:00.000Z' });

    // A new zone set on the platform keeps the platform's instant: the local form follows it.
    await e.emu.api('PATCH', `/v2/meetings/${local.video_id}`, {
      token,
      body: { timezone: 'America/New_York' },
    });
    await updatesProcessed(local.video_id, 2);
    expect(await stored(local.video_id)).toMatchObject({
      start_time: '2030-12-21T10:30:00',
      timezone: 'America/New_York',
    });

    // A delivery sent through the emulator's control API, into summer time (UTC-4 in New York).
    await e.emu.api('POST', '/_sandbox/webhooks/send', {
      body: {
        event: 'meeting.updated',
        object: { id: Number(local.video_id), start_time: '2031-07-01T15:00:00Z' },
      },
    });
    await updatesProcessed(local.video_id, 3);
    expect(await stored(local.video_id)).toMatchObject({
      start_time: '2031-07-01T11:00:00',
      timezone: 'America/New_York',
    });
  });

  it('an appointment shows the same instant in the stored event, the meeting and the calendar', async () => {
    const cases = [
      { start_time: '2030-12-18T09:00:00', kept: '2030-12-18T09:00:00', at: '2030-12-18T15:00:00.000Z' },
      {
        start_time: '2030-12-18T20:00:00Z',
        kept: '2030-12-18T20:00:00.000Z',
        at: '2030-12-18T20:00:00.000Z',
      },
    ];
    for (const c of cases) {
      const r = await e.api('POST', '/api/video/appointments', {
        body: {
          topic: `Consult ${c.start_time}`,
          start_time: c.start_time,
          duration: 30,
          timezone: CHICAGO,
          invitee: { name: 'Jamie Buyer', email: 'jamie@example.com' },
        },
      });
      expect(r.status, r.text).toBe(201);
      const { meeting, calendar_event_id } = r.json.appointment;
      expect(meeting.start_time).toBe(c.kept);
      const at = Date.parse(c.at);
      expect(Date.parse((await onPlatform(meeting.video_id)).start_time)).toBe(at);
      const list = await e.api('POST', '/api/video/capabilities/calendar/list_events', {
        body: { from: new Date(at - 60_000).toISOString(), to: new Date(at + 60_000).toISOString() },
      });
      const cal = list.json.result.items.find((i: { id: string }) => i.id === calendar_event_id);
      expect(cal, list.text).toBeDefined();
      expect(Date.parse(cal.start)).toBe(at);
      expect(Date.parse(cal.end)).toBe(at + 30 * 60_000);
    }
  });
});

describe('a UTC start is stored with milliseconds', () => {
  it('on every way in: REST, the generic invoke, MCP', async () => {
    const body = { topic: 'Milliseconds', start_time: '2030-12-20T17:00:00Z' };
    const rest = await create(body);
    const invoked = await e.api('POST', '/api/video/capabilities/meetings/create_meeting', { body });
    expect(invoked.status, invoked.text).toBe(200);
    const client = await mcpClient();
    try {
      const res = await client.callTool({ name: 'meetings_create_meeting', arguments: body });
      expect(res.isError, toolText(res)).toBeFalsy();
      const viaMcp = res.structuredContent as { video_id: string; start_time: string };
      for (const ev of [rest, invoked.json.result, viaMcp]) {
        expect(ev.start_time).toBe('2030-12-20T17:00:00.000Z');
        expect((await e.store.getEvent(ev.video_id))?.startTime).toBe('2030-12-20T17:00:00.000Z');
        expect((await onPlatform(ev.video_id)).start_time).toBe('2030-12-20T17:00:00Z');
      }
    } finally {
      await client.close();
    }
  });
});

describe('a start in the past', () => {
  it('is refused on create and reschedule, on every way in, before the platform is asked', async () => {
    const ev = await create({ topic: 'Stays put', start_time: '2030-12-20T17:00:00.000Z' });
    const writes = await meetingWrites();
    const past = [
      { topic: 'Too late', start_time: '2020-01-01T10:00:00Z' },
      { topic: 'Too late', start_time: '2020-01-01T10:00:00', timezone: CHICAGO },
    ];
    for (const body of past) {
      const r = await e.api('POST', '/api/video/events', { body });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({
        code: 'start_time_in_past',
        message: expect.stringContaining('past'),
        details: { field: 'start_time' },
      });
      const invoked = await e.api('POST', '/api/video/capabilities/meetings/create_meeting', { body });
      expect(invoked.status).toBe(400);
      expect(invoked.json.error.code).toBe('start_time_in_past');
    }
    const client = await mcpClient();
    try {
      const res = await client.callTool({ name: 'meetings_create_meeting', arguments: past[0] });
      expect(res.isError).toBe(true);
      expect(toolText(res)).toContain('start_time_in_past');
    } finally {
      await client.close();
    }
    const appt = await e.api('POST', '/api/video/appointments', {
      body: {
        topic: 'Too late',
        start_time: '2020-01-01T10:00:00',
        timezone: CHICAGO,
        invitee: { name: 'Jamie Buyer', email: 'jamie@example.com' },
      },
    });
    expect(appt.status).toBe(400);
    expect(appt.json.error.code).toBe('start_time_in_past');

    const moved = await e.api('PATCH', `/api/video/events/${ev.video_id}`, {
      body: { start_time: '2020-01-01T10:00:00Z' },
    });
    expect(moved.status).toBe(400);
    expect(moved.json.error).toMatchObject({ code: 'start_time_in_past', details: { field: 'start_time' } });
    expect(await meetingWrites()).toBe(writes);
    expect((await stored(ev.video_id)).start_time).toBe('2030-12-20T17:00:00.000Z');
  });

  it("is judged by the gateway's injected clock, a start within the current minute counting as now", async () => {
    const real = await e.gateway.opContext();
    const at = (iso: string) => ({ ...real, now: () => Date.parse(iso) });
    const input = (start: string) => parseInput(newEventInput, { topic: 'Clocked', start_time: start });
    // Years ahead of the machine's clock, yet past for the gateway's.
    await expect(
      createEvent(at('2031-01-01T00:00:00Z'), input('2030-12-31T23:59:00Z')),
    ).rejects.toMatchObject({ status: 400, code: 'start_time_in_past' });
    const now = at('2030-06-01T10:00:30Z');
    const made = await createEvent(now, input('2030-06-01T10:00:00Z'));
    expect(made.start_time).toBe('2030-06-01T10:00:00.000Z');
    await expect(createEvent(now, input('2030-06-01T09:59:59Z'))).rejects.toMatchObject({
      code: 'start_time_in_past',
    });
    // 04:59 in Chicago in June (UTC-5) is 09:59 UTC, a minute before the gateway's now.
    await expect(
      updateEvent(
        now,
        made.video_id,
        parseInput(eventPatchInput, { start_time: '2030-06-01T04:59:00', timezone: CHICAGO }),
      ),
    ).rejects.toMatchObject({ code: 'start_time_in_past' });
    // Changing something else is not a reschedule, even once the start has gone by.
    const later = at('2030-06-01T12:00:00Z');
    const renamed = await updateEvent(
      later,
      made.video_id,
      parseInput(eventPatchInput, { topic: 'Clocked (done)' }),
    );
    expect(renamed).toMatchObject({ topic: 'Clocked (done)', start_time: '2030-06-01T10:00:00.000Z' });
  });
});
