import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef, EmulatorContext, EmulatorModule } from '../src/context.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { zoomEventsModule } from '../src/routes/zoom-events.js';
import { checkResponse, documentedScopes, itWithSpecs, publishedSpec } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, zoomEventsModule] as EmulatorModule[];
let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
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
    const none = await expectViolation({ where: 'query', name: 'role_type', rule: 'required' }, () =>
      t.api('GET', '/v2/zoom_events/hubs', { token }),
    );
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
    const r = await expectViolation({ where: 'body' }, () =>
      t.api('POST', '/v2/zoom_events/events', {
        token,
        body: { name: 'x', event_type: 'WEBINAR', attendance_type: 'online' },
      }),
    );
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
      ['POST', '/zoom_events/events/{eventId}/tickets'],
      ['GET', '/zoom_events/events/{eventId}/tickets'],
    ];
    for (const [m, path] of ops)
      for (const s of documentedScopes('events.json', m, path)) expect(granted, `${m} ${path}`).toContain(s);
    const only = await startTestEmulator({ scopes: ['zoom_events:read:list_hubs'] }, MODULES);
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

describe('zoom events tickets (registering attendees)', () => {
  const TICKETS = '/zoom_events/events/{eventId}/tickets';
  const hosted = async (name: string, status = 'upcoming') => {
    const list = await events({ role_type: 'host', event_status_type: status, page_size: 300 });
    const e = list.json.events.find((x: { name: string }) => x.name === name);
    if (!e) throw new Error(`no hosted ${status} event ${name}`);
    return e.event_id as string;
  };
  const create = (eventId: string, body: unknown, query: Record<string, string> = {}) =>
    t.api('POST', `/v2/zoom_events/events/${eventId}/tickets`, { token, body, query });
  const list = (eventId: string, query: Record<string, string | number> = {}) =>
    t.api('GET', `/v2/zoom_events/events/${eventId}/tickets`, { token, query });
  const allRegistrants = async (eventId: string) =>
    (
      await t.api('GET', `/v2/zoom_events/events/${eventId}/registrants`, {
        token,
        query: { page_size: 300 },
      })
    ).json.registrants as { email: string; registration_status: string; tickets: { ticket_id: string }[] }[];

  itWithSpecs('declare the documented scopes, rate-limit label and answers', () => {
    const defs: RouteDef[] = [];
    zoomEventsModule.register({ route: (d: RouteDef) => defs.push(d) } as unknown as EmulatorContext);
    const answers: Record<string, string[]> = {
      GET: ['200', '403', '404'],
      POST: ['201', '400', '403', '404'],
    };
    const ours = defs.filter((d) => d.url === '/zoom_events/events/:eventId/tickets');
    expect(ours.map((d) => d.method).sort()).toEqual(['GET', 'POST']);
    for (const d of ours) {
      const op = publishedSpec('events.json')['paths'][TICKETS][String(d.method).toLowerCase()];
      const scopes = documentedScopes('events.json', String(d.method), TICKETS);
      expect(scopes.length).toBeGreaterThan(0);
      expect(d.scopes).toEqual(expect.arrayContaining(scopes));
      expect(op.description).toContain(`\`${d.label}\``);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(answers[String(d.method)] ?? []));
    }
  });

  it('creates a ticket (201) that the registrants and tickets lists then show', async () => {
    const id = await hosted('GrowthOS live demo day');
    const r = await create(id, {
      registration_source: 'fleetgate',
      tickets: [{ email: 'Pat.Moreno@example.com', first_name: 'Pat', last_name: 'Moreno' }],
    });
    expect(r.status).toBe(201);
    fidelity('POST', TICKETS, 201, r.json);
    expect(r.json.errors).toEqual([]);
    expect(r.json.tickets).toHaveLength(1);
    const ticket = r.json.tickets[0];
    expect(ticket).toMatchObject({
      ticket_id: expect.any(String),
      ticket_type_id: expect.any(String),
      email: 'Pat.Moreno@example.com',
      event_join_link: expect.stringMatching(/^http/),
    });
    // A virtual event has no e-badge.
    expect(ticket).not.toHaveProperty('qr_code_url');

    const reg = (await allRegistrants(id)).find((x) => x.email === 'Pat.Moreno@example.com');
    expect(reg).toMatchObject({ registration_status: 'PRE_REGISTERED' });
    expect(reg?.tickets.map((x) => x.ticket_id)).toEqual([ticket.ticket_id]);
    fidelity(
      'GET',
      '/zoom_events/events/{eventId}/registrants',
      200,
      (await t.api('GET', `/v2/zoom_events/events/${id}/registrants`, { token })).json,
    );

    const mine = await list(id, { email: 'pat.moreno@example.com' });
    expect(mine.status).toBe(200);
    fidelity('GET', TICKETS, 200, mine.json);
    expect(mine.json.total_records).toBe(1);
    expect(mine.json.tickets[0]).toMatchObject({
      ticket_id: ticket.ticket_id,
      ticket_type_id: ticket.ticket_type_id,
      email: 'Pat.Moreno@example.com',
      first_name: 'Pat',
      last_name: 'Moreno',
      ticket_role_type: 'normal',
      registration_source: 'fleetgate',
      send_notification: false,
      authentication_method: 'zoom_account_otp_at_join',
      event_join_link: ticket.event_join_link,
    });

    // The seeded registrants' tickets are listed too, paged as the platform pages.
    const page = await list(id, { page_size: 2 });
    fidelity('GET', TICKETS, 200, page.json);
    expect(page.json.tickets).toHaveLength(2);
    expect(page.json.total_records).toBeGreaterThan(2);
    const next = await list(id, { page_size: 2, next_page_token: page.json.next_page_token });
    expect(next.json.tickets[0].ticket_id).not.toBe(page.json.tickets[0].ticket_id);
    const byType = await list(id, { ticket_type_id: ticket.ticket_type_id, page_size: 300 });
    expect(byType.json.total_records).toBe(page.json.total_records);
    expect((await list(id, { ticket_type_id: 'nope' })).json.tickets).toEqual([]);
  });

  it('reports per-ticket failures in errors and creates the rest of the batch', async () => {
    const id = await hosted('Meridian Early Learning open house');
    const r = await create(id, {
      tickets: [
        { email: 'not-an-email', first_name: 'A', last_name: 'B' },
        { first_name: 'No', last_name: 'Email' },
        { email: 'both@example.com', fast_join: true, registration_needed: true },
        { email: 'typed@example.com', first_name: 'T', last_name: 'Y', ticket_type_id: 'NoSuchType' },
        { email: 'invitee@example.com', registration_needed: true, send_notification: true },
        { email: 'guest@example.com', first_name: 'G', last_name: 'H', fast_join: true },
      ],
    });
    expect(r.status).toBe(201);
    fidelity('POST', TICKETS, 201, r.json);
    expect(r.json.errors.map((x: { error_code: string }) => x.error_code)).toEqual([
      'email_not_found',
      'email_not_found',
      'fast_join_with_registrationNeeded',
      'ticket_type_notfound',
    ]);
    expect(r.json.errors[0].email).toBe('not-an-email');
    const [invitee, guest] = r.json.tickets;
    // registration_needed: a registration link instead of a join link.
    expect(invitee).toHaveProperty('event_registration_link');
    expect(invitee).not.toHaveProperty('event_join_link');
    // An in-person event gives an e-badge QR code.
    expect(guest).toMatchObject({ event_join_link: expect.any(String), qr_code_url: expect.any(String) });
    const regs = await allRegistrants(id);
    expect(regs.find((x) => x.email === 'invitee@example.com')?.registration_status).toBe(
      'PRE_REGISTER_INVITED',
    );
    const g = await list(id, { email: 'guest@example.com' });
    expect(g.json.tickets[0]).toMatchObject({ authentication_method: 'no_auth' });
    const inv = await list(id, { email: 'invitee@example.com' });
    expect(inv.json.tickets[0]).toMatchObject({ send_notification: true });
    expect(inv.json.tickets[0]).not.toHaveProperty('first_name');
  });

  it('validates the body (code 300) and the registration questions (260503, 260504)', async () => {
    const id = await hosted('GrowthOS live demo day');
    // The first two the document allows (the platform still wants a ticket); the rest it refuses.
    for (const [i, bad] of [
      {},
      { tickets: [] },
      { tickets: 'x' },
      { tickets: Array.from({ length: 31 }, (_, i) => ({ email: `p${i}@example.com` })) },
      { tickets: [{ email: 'a@example.com', first_name: 'x'.repeat(65), last_name: 'B' }] },
      { tickets: [{ email: 'a@example.com', first_name: 'A', last_name: 'B', fast_join: 'yes' }] },
      {
        tickets: [{ email: 'a@example.com', first_name: 'A', last_name: 'B' }],
        registration_source: 'x'.repeat(17),
      },
    ].entries()) {
      const r =
        i < 2 ? await create(id, bad) : await expectViolation({ where: 'body' }, () => create(id, bad));
      expect(r.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(r.json.code).toBe(300);
    }
    const long = await expectViolation({ where: 'body', name: 'tickets[0].first_name' }, () =>
      create(id, { tickets: [{ email: 'a@example.com', first_name: 'x'.repeat(65), last_name: 'B' }] }),
    );
    expect(long.json.errors).toEqual([{ field: 'tickets[0].first_name', message: 'Invalid field.' }]);

    const missing = await create(id, { tickets: [{ email: 'a@example.com', first_name: 'A' }] });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ code: 260504, message: 'Missing required fields - ["last_name"].' });
    const strict = await create(
      id,
      { tickets: [{ email: 'a@example.com', first_name: 'A', last_name: 'B', phone: '5550100' }] },
      { validation_level: 'strict' },
    );
    expect(strict.json).toEqual({ code: 260503, message: 'Nonconfigured fields - ["phone"].' });
    // Standard (the default) takes unconfigured answers without keeping them; none skips the checks.
    const standard = await create(id, {
      tickets: [{ email: 'std@example.com', first_name: 'S', last_name: 'T', phone: '5550100' }],
    });
    expect(standard.status).toBe(201);
    expect((await list(id, { email: 'std@example.com' })).json.tickets[0]).not.toHaveProperty('phone');
    const none = await create(id, { tickets: [{ email: 'none@example.com' }] }, { validation_level: 'none' });
    expect(none.status).toBe(201);
    expect(none.json.tickets).toHaveLength(1);
    const level = await expectViolation({ where: 'query', name: 'validation_level' }, () =>
      create(id, { tickets: [{ email: 'a@example.com' }] }, { validation_level: 'lax' }),
    );
    expect(level.json).toEqual({ code: 300, message: 'Invalid parameter: validation_level.' });
  });

  it('refuses unknown (404 2002), unpublished (400 26501), past and attended events', async () => {
    const one = { tickets: [{ email: 'late@example.com', first_name: 'L', last_name: 'Ate' }] };
    const unknown = await create('NoSuchEvent00000000000', one);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 2002, message: 'Event not found.' });
    expect((await list('NoSuchEvent00000000000')).json.code).toBe(2002);

    const draft = await create(await hosted('Meridian Housing resident town hall', 'draft'), one);
    expect(draft.status).toBe(400);
    expect(draft.json).toEqual({ code: 26501, message: 'Event is not published yet.' });
    const cancelled = await create(await hosted('FleetWorks EV maintenance workshop', 'cancelled'), one);
    expect(cancelled.json.code).toBe(26501);

    // An event that has ended no longer sells tickets.
    const past = await create(await hosted('Meridian Freight driver recruiting fair', 'past'), one);
    expect(past.status).toBe(201);
    expect(past.json.tickets).toEqual([]);
    expect(past.json.errors).toEqual([
      expect.objectContaining({ email: 'late@example.com', error_code: 'invalid_sale_time' }),
    ]);

    const attending = (await t.api('GET', '/v2/zoom_events/events', { token })).json.events[0].event_id;
    const denied = await create(attending, one);
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ code: 260200, message: 'Event access denied.' });
    expect((await list(attending)).status).toBe(403);
  });

  it('needs a ticket write scope to create and a ticket read scope to list', async () => {
    const only = await startTestEmulator({ scopes: ['zoom_events:read:list_tickets'] }, MODULES);
    try {
      const tok = (await only.userToken()).access_token;
      const denied = await only.api('POST', '/v2/zoom_events/events/any/tickets', {
        token: tok,
        body: { tickets: [{ email: 'a@example.com' }] },
      });
      expect(denied.json.code).toBe(4711);
      expect(denied.json.message).toContain('zoom_events:write:ticket');
      expect((await only.api('GET', '/v2/zoom_events/events/any/tickets', { token: tok })).json.code).toBe(
        2002,
      );
    } finally {
      await only.close();
    }
  });
});
