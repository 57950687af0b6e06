/**
 * calendar operations against the emulator: each operation run directly (input parsed with the
 * registry's parseInput), paging, validation, a mapped platform error, and writes read back from
 * the emulator; every answer is held to the operation's declared output.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { calendarOps } from '../../../src/gateway/capabilities/ops/calendar.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const op = (name: string) => {
  const o = calendarOps.find((x) => x.name === name) as unknown as Operation | undefined;
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};
const run = async (name: string, input: unknown): Promise<any> => {
  const out = await op(name).run(e.ctx, parseInput(op(name).input, input));
  expectOutput('calendar', name, out);
  return out;
};
const platform = (path: string, query?: Record<string, string | number>) =>
  e.emu.api('GET', `/v2${path}`, { token: e.token, ...(query ? { query } : {}) });
const issues = (name: string, input: unknown) => {
  try {
    parseInput(op(name).input, input);
  } catch (err) {
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    return ((err as { details: { issues: { path: string }[] } }).details.issues ?? []).map((i) => i.path);
  }
  throw new Error('expected a validation error');
};
const inDays = (n: number, h = 15) => {
  const d = new Date(Date.now() + n * 86_400_000);
  d.setUTCHours(h, 0, 0, 0);
  return d.toISOString();
};

describe('calendar', () => {
  it('the operations match the catalog', () => {
    expect(calendarOps.map((o) => `${o.group}/${o.name}`)).toEqual([
      'calendar/list_calendars',
      'calendar/list_events',
      'calendar/create_event',
      'calendar/update_event',
      'calendar/delete_event',
      'calendar/quick_add',
    ]);
  });

  it('list_calendars lists the calendars with paging', async () => {
    const all = await run('list_calendars', {});
    expect(all.items).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    const primary = all.items.find((c: { primary: boolean }) => c.primary);
    expect(primary).toMatchObject({
      id: expect.stringContaining('@'),
      timezone: expect.any(String),
      access_role: 'owner',
    });
    const first = await run('list_calendars', { limit: '2' });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('list_calendars', { limit: 2, cursor: first.nextCursor });
    expect(second.items).toHaveLength(1);
    expect([...first.items, ...second.items].map((c: { id: string }) => c.id).sort()).toEqual(
      all.items.map((c: { id: string }) => c.id).sort(),
    );
    const writable = await run('list_calendars', { min_access_role: 'owner' });
    expect(writable.items).toHaveLength(2);
  });

  it('list_events lists the next 30 days in start order, with paging', async () => {
    const all = await run('list_events', { limit: 100 });
    expect(all.items.length).toBeGreaterThan(4);
    const now = Date.now();
    for (const ev of all.items) {
      expect(Date.parse(ev.end ?? ev.start) >= now - 86_400_000).toBe(true);
      expect(Date.parse(ev.start) < now + 31 * 86_400_000).toBe(true);
    }
    const starts = all.items.map((x: { start: string }) => Date.parse(x.start));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    const ev = all.items.find((x: { all_day: boolean }) => !x.all_day);
    expect(ev).toEqual({
      id: expect.any(String),
      calendar_id: 'primary',
      summary: expect.any(String),
      description: expect.any(String),
      location: expect.toBeOneOf([expect.any(String), null]),
      start: expect.stringMatching(/T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$/),
      end: expect.stringMatching(/T/),
      all_day: false,
      timezone: expect.any(String),
      attendees: expect.arrayContaining([
        { email: expect.stringContaining('@'), name: expect.any(String), response: expect.any(String) },
      ]),
      status: 'confirmed',
      recurring_event_id: null,
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect(
      all.items.some(
        (x: { all_day: boolean; start: string }) => x.all_day && /^\d{4}-\d{2}-\d{2}$/.test(x.start),
      ),
    ).toBe(true);

    const first = await run('list_events', { limit: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('list_events', { limit: 2, cursor: first.nextCursor });
    expect(second.items.map((x: { id: string }) => x.id)).toEqual(
      all.items.slice(2, 4).map((x: { id: string }) => x.id),
    );
  });

  it('list_events takes a window and a calendar, and expands recurring events', async () => {
    const cals = (await run('list_calendars', {})).items;
    const freight = cals.find((c: { summary: string }) => c.summary === 'Freight dispatch').id;
    const r = await run('list_events', {
      calendar_id: freight,
      from: inDays(-14, 0),
      to: inDays(14, 0),
      limit: 100,
    });
    const standUps = r.items.filter((x: { summary: string }) => x.summary === 'Dispatch stand-up');
    expect(standUps.length).toBeGreaterThan(5);
    expect(standUps[0]).toMatchObject({ calendar_id: freight, recurring_event_id: expect.any(String) });
    expect(standUps[0].id).toContain('_');
    const past = await run('list_events', { from: inDays(-21, 0), to: inDays(-1, 0), limit: 100 });
    expect(past.items.every((x: { start: string }) => Date.parse(x.start) < Date.parse(inDays(-1, 0)))).toBe(
      true,
    );
    expect(past.items.length).toBeGreaterThan(3);
    const empty = await run('list_events', { from: '2045-01-01T00:00:00Z', to: '2045-01-02T00:00:00Z' });
    expect(empty).toEqual({ items: [], nextCursor: null });
  });

  it('create_event creates timed and all-day events that the platform keeps', async () => {
    const created = await run('create_event', {
      summary: 'Gateway test: carrier review',
      start: inDays(3, 16),
      end: inDays(3, 17),
      timezone: 'America/Chicago',
      description: 'Lane rates.',
      location: 'Joliet yard',
      attendees: [{ email: 'dana.whitfield@lakeshorelogistics.example', name: 'Dana Whitfield' }],
    });
    expect(created).toMatchObject({
      id: expect.any(String),
      calendar_id: 'primary',
      summary: 'Gateway test: carrier review',
      description: 'Lane rates.',
      location: 'Joliet yard',
      all_day: false,
      timezone: 'America/Chicago',
      status: 'confirmed',
      attendees: [
        {
          email: 'dana.whitfield@lakeshorelogistics.example',
          name: 'Dana Whitfield',
          response: 'needsAction',
        },
      ],
    });
    expect(Date.parse(created.start)).toBe(Date.parse(inDays(3, 16)));
    expect(Date.parse(created.end)).toBe(Date.parse(inDays(3, 17)));
    const back = await platform(`/calendars/primary/events/${created.id}`);
    expect(back.status).toBe(200);
    expect(back.json).toMatchObject({
      summary: 'Gateway test: carrier review',
      location: 'Joliet yard',
      start: { timeZone: 'America/Chicago' },
    });
    expect(Date.parse(back.json.start.dateTime)).toBe(Date.parse(inDays(3, 16)));

    const allDay = await run('create_event', { summary: 'Gateway test: yard closed', start: '2031-07-04' });
    expect(allDay).toMatchObject({ all_day: true, start: '2031-07-04', end: '2031-07-05' });
    const back2 = await platform(`/calendars/primary/events/${allDay.id}`);
    expect(back2.json).toMatchObject({ start: { date: '2031-07-04' }, end: { date: '2031-07-05' } });

    const timed = await run('create_event', {
      summary: 'Gateway test: one hour',
      start: '2031-07-07T15:00:00Z',
    });
    expect(Date.parse(timed.end) - Date.parse(timed.start)).toBe(3_600_000);
    const listed = await run('list_events', { from: '2031-07-01T00:00:00Z', to: '2031-07-10T00:00:00Z' });
    expect(listed.items.map((x: { id: string }) => x.id)).toEqual([allDay.id, timed.id]);
  });

  it('update_event changes only what is given, and both sides agree', async () => {
    const ev = await run('create_event', {
      summary: 'Gateway test: to update',
      start: '2031-08-01T15:00:00Z',
      end: '2031-08-01T16:00:00Z',
      location: 'Room 1',
      attendees: [{ email: 'sam.okafor@meridianfleet.example' }],
    });
    const updated = await run('update_event', {
      event_id: ev.id,
      summary: 'Gateway test: updated',
      start: '2031-08-01T17:00:00Z',
      end: '2031-08-01T18:30:00Z',
    });
    expect(updated).toMatchObject({ id: ev.id, summary: 'Gateway test: updated', location: 'Room 1' });
    expect(updated.attendees.map((a: { email: string }) => a.email)).toEqual([
      'sam.okafor@meridianfleet.example',
    ]);
    const back = await platform(`/calendars/primary/events/${ev.id}`);
    expect(back.json.summary).toBe('Gateway test: updated');
    expect(Date.parse(back.json.start.dateTime)).toBe(Date.parse('2031-08-01T17:00:00Z'));
    expect(Date.parse(back.json.end.dateTime)).toBe(Date.parse('2031-08-01T18:30:00Z'));

    // A new zone alone keeps the instants.
    const zoned = await run('update_event', { event_id: ev.id, timezone: 'Europe/Berlin' });
    expect(zoned.timezone).toBe('Europe/Berlin');
    expect(Date.parse(zoned.start)).toBe(Date.parse('2031-08-01T17:00:00Z'));
    expect(zoned.start).toMatch(/\+02:00$/);

    const invited = await run('update_event', {
      event_id: ev.id,
      attendees: [{ email: 'priya.natarajan@meridianfleet.example', name: 'Priya' }],
    });
    expect(invited.attendees).toEqual([
      { email: 'priya.natarajan@meridianfleet.example', name: 'Priya', response: 'needsAction' },
    ]);
  });

  it('delete_event deletes on the platform; unknown ids map to not_found', async () => {
    const ev = await run('create_event', {
      summary: 'Gateway test: to delete',
      start: '2031-09-01T15:00:00Z',
    });
    expect(await run('delete_event', { event_id: ev.id })).toEqual({
      deleted: true,
      id: ev.id,
      calendar_id: 'primary',
    });
    expect((await platform(`/calendars/primary/events/${ev.id}`)).status).toBe(404);
    await expect(run('delete_event', { event_id: ev.id })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      details: { group: 'calendar', platformStatus: 404 },
    });
    await expect(run('update_event', { event_id: 'nosuchevent', summary: 'x' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await expect(run('list_events', { calendar_id: 'nobody@nowhere.example' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('quick_add creates an event from text', async () => {
    const ev = await run('quick_add', {
      text: 'Lunch with dana.whitfield@lakeshorelogistics.example tomorrow at 1pm',
    });
    expect(ev).toMatchObject({
      id: expect.any(String),
      summary: expect.stringContaining('Lunch'),
      all_day: false,
      attendees: [expect.objectContaining({ email: 'dana.whitfield@lakeshorelogistics.example' })],
    });
    expect(Date.parse(ev.end) - Date.parse(ev.start)).toBe(3_600_000);
    const back = await platform(`/calendars/primary/events/${ev.id}`);
    expect(back.json.summary).toBe(ev.summary);
  });

  it('validates input', () => {
    expect(issues('list_events', { limit: 0, from: '2031-01-01', calendar_id: 'a b' }).sort()).toEqual([
      'calendar_id',
      'from',
      'limit',
    ]);
    expect(issues('list_events', { to: `2031-01-01T00:00:00.${'0'.repeat(40)}Z` })).toEqual(['to']);
    // A 6-digit year parses, but an hour or 30 days later is past what a Date holds (a RangeError).
    expect(issues('list_events', { from: '+275760-09-13T00:00:00Z' })).toEqual(['from']);
    expect(issues('create_event', { summary: 'x', start: '+275760-09-13T00:00:00Z' })).toEqual(['start']);
    expect(issues('list_events', { from: '2031-01-02T00:00:00Z', to: '2031-01-01T00:00:00Z' })).toEqual([
      'to',
    ]);
    expect(issues('create_event', { start: 'tomorrow' }).sort()).toEqual(['start', 'summary']);
    expect(
      issues('create_event', { summary: 'x', start: '2031-01-01', end: '2031-01-01T10:00:00Z' }),
    ).toEqual(['end']);
    expect(issues('create_event', { summary: 'x', start: '2031-01-02', end: '2031-01-02' })).toEqual(['end']);
    expect(issues('create_event', { summary: 'x', start: '2031-02-30' })).toEqual(['start']);
    expect(
      issues('create_event', {
        summary: 'x',
        start: '2031-01-01T10:00:00Z',
        timezone: 'Mars/Olympus',
        attendees: [{ email: 'not-an-email' }],
      }).sort(),
    ).toEqual(['attendees.0.email', 'timezone']);
    expect(issues('update_event', { event_id: 'abc' })).toEqual(['(root)']);
    expect(issues('update_event', { summary: 'x' })).toEqual(['event_id']);
    expect(issues('delete_event', { event_id: '../x?y' })).toEqual(['event_id']);
    expect(issues('quick_add', { text: 'x'.repeat(501) })).toEqual(['text']);
    expect(issues('quick_add', { text: '   ' })).toEqual(['text']);
  });
});
