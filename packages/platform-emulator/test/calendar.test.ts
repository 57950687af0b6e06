import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RouteDef, EmulatorContext, EmulatorModule } from '../src/context.js';
import { calendarModule } from '../src/routes/calendar.js';
import { parseQuickAdd } from '../src/routes/calendar/quick-add.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { expectViolation } from './helpers/contract.js';
import { checkResponse, documentedScopes, itWithSpecs, publishedSpec } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const MODULES = [usersModule, meetingsModule, calendarModule] as EmulatorModule[];
const DEMO = 'avery.quinn@meridianfleet.example';
const TZ = 'America/Chicago';

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('calendar.json', method, template, status, body), `${method} ${template}`).toEqual([]);

/** Local date (yyyy-mm-dd) and hour in the demo user's zone. */
const local = (d: Date) => {
  const o = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: TZ,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return { date: `${o['year']}-${o['month']}-${o['day']}`, hour: Number(o['hour']) };
};

const calendars = async () =>
  (await t.api('GET', '/v2/calendars/users/me/calendarList', { token })).json.items as {
    id: string;
    summary: string;
  }[];
const calId = async (summary: string) => (await calendars()).find((c) => c.summary === summary)!.id;

describe('calendar routes', () => {
  itWithSpecs('declare every documented scope and the documented rate-limit label', () => {
    const defs: RouteDef[] = [];
    calendarModule.register({ route: (d: RouteDef) => defs.push(d) } as unknown as EmulatorContext);
    const spec = publishedSpec('calendar.json');
    expect(defs).toHaveLength(8);
    for (const d of defs) {
      const template = d.url.replace(/:(\w+)/g, '{$1}');
      const scopes = documentedScopes('calendar.json', d.method, template);
      expect(scopes.length).toBeGreaterThan(0);
      expect(d.scopes, `${d.method} ${template}`).toEqual(expect.arrayContaining(scopes));
      const description = spec.paths[template][d.method.toLowerCase()].description as string;
      expect(description).toContain(`\`${d.label}\``);
    }
  });

  it('admits a token holding only one documented granular scope', async () => {
    const narrow = await startTestEmulator({ scopes: ['calendar:read:list_events'] }, MODULES);
    try {
      const tok = (await narrow.userToken()).access_token;
      expect((await narrow.api('GET', '/v2/calendars/primary/events', { token: tok })).status).toBe(200);
      const denied = await narrow.api('POST', '/v2/calendars/primary/events/quickAdd', {
        token: tok,
        query: { text: 'x' },
      });
      expect(denied.status).toBe(400);
      expect(denied.json.code).toBe(4711);
    } finally {
      await narrow.close();
    }
  });
});

describe('calendar list and calendars', () => {
  it('lists the primary and two secondary calendars for me, the user id or the email', async () => {
    const r = await t.api('GET', '/v2/calendars/users/me/calendarList', { token });
    expect(r.status).toBe(200);
    fidelity('GET', '/calendars/users/{userIdentifier}/calendarList', 200, r.json);
    expect(r.json.kind).toBe('calendar#calendarList');
    expect(r.json.items.map((c: { summary: string }) => c.summary)).toEqual([
      'Avery Quinn',
      'Freight dispatch',
      'Learning cohorts',
    ]);
    expect(r.json.items[0]).toMatchObject({ id: DEMO, primary: true, accessRole: 'owner', timeZone: TZ });
    expect(r.json.nextPageToken).toBeUndefined();
    const me = (await t.api('GET', '/v2/users/me', { token })).json;
    for (const who of [me.id, DEMO]) {
      const x = await t.api('GET', `/v2/calendars/users/${encodeURIComponent(who)}/calendarList`, { token });
      expect(x.status).toBe(200);
      expect(x.json.items).toHaveLength(3);
    }
    const writers = await t.api('GET', '/v2/calendars/users/me/calendarList', {
      token,
      query: { minAccessRole: 'owner' },
    });
    expect(writers.json.items).toHaveLength(2);
    const nobody = await t.api('GET', '/v2/calendars/users/someone@else.example/calendarList', { token });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toEqual({ code: 404, message: 'Not Found.' });
  });

  it('pages the calendar list with maxResults and pageToken', async () => {
    const first = await t.api('GET', '/v2/calendars/users/me/calendarList', {
      token,
      query: { maxResults: 2 },
    });
    expect(first.json.items).toHaveLength(2);
    expect(first.json.nextPageToken).toBeTruthy();
    const second = await t.api('GET', '/v2/calendars/users/me/calendarList', {
      token,
      query: { maxResults: 2, pageToken: first.json.nextPageToken },
    });
    fidelity('GET', '/calendars/users/{userIdentifier}/calendarList', 200, second.json);
    expect(second.json.items.map((c: { summary: string }) => c.summary)).toEqual(['Learning cohorts']);
    const forged = await t.api('GET', '/v2/calendars/users/me/calendarList', {
      token,
      query: { pageToken: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json.code).toBe(300);
  });

  it('gets a calendar by id, and the primary alias', async () => {
    const primary = await t.api('GET', '/v2/calendars/primary', { token });
    expect(primary.status).toBe(200);
    fidelity('GET', '/calendars/{calId}', 200, primary.json);
    expect(primary.json).toMatchObject({ kind: 'calendar#calendar', id: DEMO, timeZone: TZ });
    const freight = await calId('Freight dispatch');
    expect(freight).toMatch(/^c_[a-z0-9]+@group\.calendar\.zoom\.us$/);
    const got = await t.api('GET', `/v2/calendars/${encodeURIComponent(freight)}`, { token });
    fidelity('GET', '/calendars/{calId}', 200, got.json);
    expect(got.json.summary).toBe('Freight dispatch');
    const missing = await t.api('GET', '/v2/calendars/nope@group.calendar.zoom.us', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 404, message: 'Not Found.' });
  });
});

describe('events', () => {
  it('lists seeded past and upcoming events with attendees, per the documented schema', async () => {
    const r = await t.api('GET', '/v2/calendars/primary/events', { token });
    expect(r.status).toBe(200);
    fidelity('GET', '/calendars/{calId}/events', 200, r.json);
    expect(r.json).toMatchObject({
      kind: 'calendar#events',
      summary: 'Avery Quinn',
      timeZone: TZ,
      accessRole: 'owner',
    });
    const now = Date.now();
    const starts = r.json.items.map((e: { start: { dateTime?: string; date?: string } }) =>
      Date.parse(e.start.dateTime ?? e.start.date!),
    );
    expect(starts.some((s: number) => s < now)).toBe(true);
    expect(starts.some((s: number) => s > now)).toBe(true);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(r.json.items.every((e: { attendees?: unknown[] }) => (e.attendees?.length ?? 0) > 0)).toBe(true);
    expect(r.json.items.some((e: { status: string }) => e.status === 'cancelled')).toBe(false);
    expect(r.json.nextSyncToken).toBeTruthy();
    const all = await t.api('GET', '/v2/calendars/primary/events', { token, query: { showDeleted: 'true' } });
    expect(all.json.items.filter((e: { status: string }) => e.status === 'cancelled')).toHaveLength(1);
  });

  it('filters by timeMin / timeMax (RFC 3339) and rejects bad bounds with code 400', async () => {
    const min = new Date(Date.now() - 86_400_000).toISOString();
    const max = new Date(Date.now() + 7 * 86_400_000).toISOString().replace('Z', '+00:00');
    const r = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { timeMin: min, timeMax: max, orderBy: 'startTime', singleEvents: 'true' },
    });
    expect(r.status).toBe(200);
    fidelity('GET', '/calendars/{calId}/events', 200, r.json);
    expect(r.json.items.length).toBeGreaterThan(0);
    for (const e of r.json.items) {
      expect(Date.parse(e.end.dateTime ?? e.end.date)).toBeGreaterThan(Date.parse(min));
      expect(Date.parse(e.start.dateTime ?? e.start.date)).toBeLessThan(Date.parse(max));
    }
    const bad = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { timeMin: '2024-01-01T00:00:00' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 400, errors: [{ field: 'timeMin', message: 'Invalid field.' }] });
    const reversed = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { timeMin: max, timeMax: min },
    });
    expect(reversed.status).toBe(400);
  });

  it('pages events with maxResults and pageToken; a forged token is 400 code 300', async () => {
    const first = await t.api('GET', '/v2/calendars/primary/events', { token, query: { maxResults: 5 } });
    expect(first.json.items).toHaveLength(5);
    expect(first.json.nextPageToken).toBeTruthy();
    expect(first.json.nextSyncToken).toBeUndefined();
    const second = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { maxResults: 5, pageToken: first.json.nextPageToken },
    });
    expect(second.status).toBe(200);
    fidelity('GET', '/calendars/{calId}/events', 200, second.json);
    expect(second.json.items[0].id).not.toBe(first.json.items[0].id);
    const forged = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { pageToken: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
  });

  it('expands recurring events into instances with singleEvents, and deletes one instance', async () => {
    const freight = encodeURIComponent(await calId('Freight dispatch'));
    const masters = await t.api('GET', `/v2/calendars/${freight}/events`, { token });
    const series = masters.json.items.find((e: { summary: string }) => e.summary === 'Dispatch stand-up');
    expect(series.recurrence).toEqual(['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=24']);
    const single = await t.api('GET', `/v2/calendars/${freight}/events`, {
      token,
      query: { singleEvents: 'true', orderBy: 'startTime' },
    });
    fidelity('GET', '/calendars/{calId}/events', 200, single.json);
    const instances = single.json.items.filter(
      (e: { recurringEventId?: string }) => e.recurringEventId === series.id,
    );
    expect(instances).toHaveLength(24);
    const one = instances[5];
    const got = await t.api('GET', `/v2/calendars/${freight}/events/${one.id}`, { token });
    expect(got.status).toBe(200);
    fidelity('GET', '/calendars/{calId}/events/{eventId}', 200, got.json);
    expect(got.json.start).toEqual(one.start);
    expect((await t.api('DELETE', `/v2/calendars/${freight}/events/${one.id}`, { token })).status).toBe(204);
    expect((await t.api('GET', `/v2/calendars/${freight}/events/${one.id}`, { token })).status).toBe(404);
    const after = await t.api('GET', `/v2/calendars/${freight}/events`, {
      token,
      query: { singleEvents: 'true' },
    });
    expect(
      after.json.items.filter((e: { recurringEventId?: string }) => e.recurringEventId === series.id),
    ).toHaveLength(23);
  });

  it('creates (200), gets, patches (200) and deletes (204) an event, emitting webhooks', async () => {
    const emit = vi.spyOn(t.emulator.context.webhooks, 'emit');
    try {
      const created = await t.api('POST', '/v2/calendars/primary/events', {
        token,
        query: { sendUpdates: 'all' },
        body: {
          summary: 'Lakeshore pilot kickoff',
          description: 'Dedicated-capacity pilot: week 1 plan.',
          location: 'Joliet yard',
          start: { dateTime: '2030-03-04T10:00:00', timeZone: TZ },
          end: { dateTime: '2030-03-04T11:00:00-06:00' },
          attendees: [
            { email: 'dana.whitfield@lakeshorelogistics.example', displayName: 'Dana Whitfield' },
            { email: 'marcus.bell@meridianfleet.example', optional: true },
          ],
        },
      });
      expect(created.status).toBe(200);
      fidelity('POST', '/calendars/{calId}/events', 200, created.json);
      expect(created.json).toMatchObject({
        kind: 'calendar#event',
        status: 'confirmed',
        summary: 'Lakeshore pilot kickoff',
        start: { dateTime: '2030-03-04T10:00:00-06:00', timeZone: TZ },
        end: { dateTime: '2030-03-04T11:00:00-06:00' },
        organizer: { email: DEMO },
      });
      expect(created.json.attendees.map((a: { responseStatus: string }) => a.responseStatus)).toEqual([
        'needsAction',
        'needsAction',
      ]);
      const id = created.json.id as string;
      expect(emit).toHaveBeenCalledWith(
        'calendar.event_create',
        { resource_id: DEMO, event_id: id },
        { operator: DEMO },
      );

      const got = await t.api('GET', `/v2/calendars/primary/events/${id}`, { token });
      expect(got.status).toBe(200);
      fidelity('GET', '/calendars/{calId}/events/{eventId}', 200, got.json);
      expect(got.json.location).toBe('Joliet yard');

      const patched = await t.api('PATCH', `/v2/calendars/primary/events/${id}`, {
        token,
        body: {
          summary: 'Lakeshore pilot kickoff (moved)',
          start: { dateTime: '2030-03-05T15:00:00Z' },
          end: { dateTime: '2030-03-05T16:30:00Z' },
        },
      });
      expect(patched.status).toBe(200);
      fidelity('PATCH', '/calendars/{calId}/events/{eventId}', 200, patched.json);
      expect(patched.json.sequence).toBe(1);
      expect(emit).toHaveBeenCalledWith(
        'calendar.event_update',
        { resource_id: DEMO, event_id: id },
        { operator: DEMO },
      );
      const reread = await t.api('GET', `/v2/calendars/${encodeURIComponent(DEMO)}/events/${id}`, { token });
      expect(reread.json.summary).toBe('Lakeshore pilot kickoff (moved)');
      expect(reread.json.start).toEqual({ dateTime: '2030-03-05T09:00:00-06:00' });
      expect(reread.json.description).toBe('Dedicated-capacity pilot: week 1 plan.');

      const del = await t.api('DELETE', `/v2/calendars/primary/events/${id}`, { token });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      expect(emit).toHaveBeenCalledWith(
        'calendar.event_delete',
        { resource_id: DEMO, event_id: id },
        { operator: DEMO },
      );
      const gone = await t.api('GET', `/v2/calendars/primary/events/${id}`, { token });
      expect(gone.status).toBe(404);
      expect(gone.json).toEqual({ code: 404, message: 'Not Found.' });
      expect((await t.api('DELETE', `/v2/calendars/primary/events/${id}`, { token })).status).toBe(404);
    } finally {
      emit.mockRestore();
    }
  });

  it('creates all-day events and rejects invalid bodies with code 400 and the fields', async () => {
    const allDay = await t.api('POST', '/v2/calendars/primary/events', {
      token,
      body: { summary: 'Inspections', start: { date: '2030-05-01' }, end: { date: '2030-05-02' } },
    });
    expect(allDay.status).toBe(200);
    expect(allDay.json.start).toEqual({ date: '2030-05-01' });
    // What the document refuses is refused in the calendar's own words.
    const r = await expectViolation({ where: 'body' }, () =>
      t.api('POST', '/v2/calendars/primary/events', {
        token,
        body: {
          summary: 5,
          start: { dateTime: '2030-03-04T10:00:00' },
          attendees: [{ email: 'not-an-email' }],
          visibility: 'secret',
        },
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'attendees[0].email',
      'end',
      'summary',
      'visibility',
    ]);
    // What the document allows but the calendar does not: a local time needs its time zone.
    const local = await t.api('POST', '/v2/calendars/primary/events', {
      token,
      body: { start: { dateTime: '2030-03-04T10:00:00' }, end: { dateTime: '2030-03-04T11:00:00Z' } },
    });
    expect(local.json.errors).toEqual([{ field: 'start.dateTime', message: 'Invalid field.' }]);
    const missing = await expectViolation({ where: 'body', rule: 'required' }, () =>
      t.api('POST', '/v2/calendars/primary/events', { token, body: { summary: 'x' } }),
    );
    expect(missing.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['end', 'start']);
    const empty = await t.api('POST', '/v2/calendars/primary/events', {
      token,
      body: { start: { dateTime: '2030-03-04T10:00:00Z' }, end: { dateTime: '2030-03-04T09:00:00Z' } },
    });
    expect(empty.json).toEqual({
      code: 400,
      message: 'Bad Request.',
      errors: [{ field: 'end.dateTime', message: 'Invalid field.' }],
    });
    const mixed = await t.api('POST', '/v2/calendars/primary/events', {
      token,
      body: { start: { date: '2030-03-04' }, end: { dateTime: '2030-03-04T09:00:00Z' } },
    });
    expect(mixed.status).toBe(400);
    const noEvent = await t.api('PATCH', '/v2/calendars/primary/events/doesnotexist', {
      token,
      body: { summary: 'x', start: { date: '2030-05-01' }, end: { date: '2030-05-02' } },
    });
    expect(noEvent.json).toEqual({ code: 404, message: 'Not Found.' });
  });

  it('quick-adds "Lunch with Sam tomorrow at 1pm" as a one-hour event tomorrow', async () => {
    const r = await t.api('POST', '/v2/calendars/primary/events/quickAdd', {
      token,
      query: { text: 'Lunch with Sam tomorrow at 1pm' },
    });
    expect(r.status).toBe(200);
    fidelity('POST', '/calendars/{calId}/events/quickAdd', 200, r.json);
    expect(r.json.summary).toBe('Lunch with Sam');
    const start = new Date(r.json.start.dateTime);
    const end = new Date(r.json.end.dateTime);
    expect(end.getTime() - start.getTime()).toBe(3_600_000);
    const today = local(new Date());
    const tomorrow = new Date(Date.parse(`${today.date}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(local(start)).toEqual({ date: tomorrow, hour: 13 });
    expect(r.json.start.timeZone).toBe(TZ);
    const back = await t.api('GET', `/v2/calendars/primary/events/${r.json.id}`, { token });
    expect(back.json.summary).toBe('Lunch with Sam');

    const vague = await t.api('POST', '/v2/calendars/primary/events/quickAdd', {
      token,
      query: { text: 'Think about pricing' },
    });
    expect(vague.status).toBe(200);
    const s = Date.parse(vague.json.start.dateTime);
    expect(s).toBeGreaterThan(Date.now());
    expect(s - Date.now()).toBeLessThanOrEqual(3_600_000);
    expect(new Date(s).getUTCMinutes()).toBe(0);
    expect(vague.json.summary).toBe('Think about pricing');

    const none = await expectViolation({ where: 'query', name: 'text', rule: 'required' }, () =>
      t.api('POST', '/v2/calendars/primary/events/quickAdd', { token }),
    );
    expect(none.status).toBe(400);
    expect(none.json.errors).toEqual([{ field: 'text', message: 'Invalid field.' }]);
  });

  it('parses common quickAdd phrasings deterministically', () => {
    const now = new Date('2025-03-05T16:20:00Z'); // Wednesday 10:20 in Chicago
    const at = (text: string) => parseQuickAdd(text, now, TZ);
    expect(at('Dinner with Michael at Olive Garden tomorrow 7pm')).toMatchObject({
      summary: 'Dinner with Michael',
      location: 'Olive Garden',
      start: { dateTime: '2025-03-06T19:00:00-06:00' },
    });
    expect(at('Dentist Friday')).toMatchObject({
      summary: 'Dentist',
      start: { date: '2025-03-07' },
      end: { date: '2025-03-08' },
    });
    expect(at('Call dana@lakeshorelogistics.example next Monday 2-3pm')).toMatchObject({
      attendees: ['dana@lakeshorelogistics.example'],
      start: { dateTime: '2025-03-10T14:00:00-05:00' },
      end: { dateTime: '2025-03-10T15:00:00-05:00' },
    });
    expect(at('Budget review March 12 at 10 for 90 minutes')).toMatchObject({
      summary: 'Budget review',
      start: { dateTime: '2025-03-12T10:00:00-05:00' },
      end: { dateTime: '2025-03-12T11:30:00-05:00' },
    });
    expect(at('Standup 9:30am').start.dateTime).toBe('2025-03-06T09:30:00-06:00');
    expect(at('Check in').start.dateTime).toBe('2025-03-05T11:00:00-06:00');
  });

  it('returns only changed events for a syncToken', async () => {
    const full = await t.api('GET', '/v2/calendars/primary/events', {
      token,
      query: { showDeleted: 'true' },
    });
    const sync = full.json.nextSyncToken as string;
    await new Promise((r) => setTimeout(r, 5));
    const c = await t.api('POST', '/v2/calendars/primary/events', {
      token,
      body: {
        summary: 'Sync probe',
        start: { dateTime: '2030-06-01T15:00:00Z' },
        end: { dateTime: '2030-06-01T15:30:00Z' },
      },
    });
    const delta = await t.api('GET', '/v2/calendars/primary/events', { token, query: { syncToken: sync } });
    expect(delta.status).toBe(200);
    expect(delta.json.items.map((e: { id: string }) => e.id)).toEqual([c.json.id]);
    const bad = await t.api('GET', '/v2/calendars/primary/events', { token, query: { syncToken: '!!' } });
    expect(bad.status).toBe(400);
  });
});
