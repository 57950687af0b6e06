/**
 * Registering an attendee for an events-hub event (video_events/register) over real HTTP against
 * the emulator: the REST path, the generic invoke endpoint and the gateway's MCP tool all run the
 * one operation; the registration shows in the gateway's list and on the platform; bad input is a
 * 400 before any platform call; platform refusals keep the one error shape; and it is counted in
 * the registry, the monitor, the OpenAPI document and the metrics (the status report keeps the
 * seed's capability list). Every answer is held to the operation's declared output.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOutput } from '../../helpers/op-output.js';
import { API_KEY } from '../helpers.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const emu = async (path: string, query: Record<string, string | number> = {}) =>
  e.emu.api('GET', `/v2${path}`, { token: (await e.emu.userToken()).access_token, query });

/** A hosted event by name and status, through the gateway's own list. */
async function hosted(name: string, status = 'upcoming'): Promise<string> {
  const r = await e.api('GET', `/api/video/events-hub?status=${status}&limit=300`);
  expectOutput('video_events', 'list_events', r.json);
  const ev = r.json.items.find((x: { name: string }) => x.name === name);
  if (!ev) throw new Error(`no hosted ${status} event ${name}`);
  return ev.event_id;
}

const registrations = async (eventId: string) => {
  const r = await e.api('GET', `/api/video/events-hub/${eventId}/registrations?limit=300`);
  expectOutput('video_events', 'registrations', r.json);
  return r.json.items as { email: string; registration_status: string; tickets: { ticket_id: string }[] }[];
};

const ticketCalls = async (eventId: string) =>
  ((await e.emu.api('GET', '/_sandbox/stats')).json.requests[
    `POST /v2/zoom_events/events/${eventId}/tickets`
  ] ?? 0) as number;

const person = (email: string) => ({ email, first_name: 'Avery', last_name: 'Quinlan' });

describe('POST /api/video/events-hub/:eventId/registrations', () => {
  it('registers an attendee (201) who then shows in the list and on the platform', async () => {
    const id = await hosted('GrowthOS live demo day');
    const r = await e.api('POST', `/api/video/events-hub/${id}/registrations`, {
      body: { email: ' Avery.Quinlan@Example.com ', first_name: 'Avery', last_name: 'Quinlan' },
    });
    expect(r.status, r.text).toBe(201);
    expectOutput('video_events', 'register', r.json);
    expect(r.json).toEqual({
      event_id: id,
      ticket_id: expect.any(String),
      ticket_type_id: expect.any(String),
      email: 'Avery.Quinlan@Example.com',
      first_name: 'Avery',
      last_name: 'Quinlan',
      join_url: expect.stringMatching(/^http/),
      qr_code_url: null,
      send_notification: false,
    });

    const listed = (await registrations(id)).find((x) => x.email === 'Avery.Quinlan@Example.com');
    expect(listed).toMatchObject({ registration_status: 'PRE_REGISTERED' });
    expect(listed?.tickets.map((t) => t.ticket_id)).toEqual([r.json.ticket_id]);

    const onPlatform = await emu(`/zoom_events/events/${id}/tickets`, { email: 'avery.quinlan@example.com' });
    expect(onPlatform.json.tickets).toEqual([
      expect.objectContaining({
        ticket_id: r.json.ticket_id,
        first_name: 'Avery',
        last_name: 'Quinlan',
        registration_source: 'fleetgate',
        send_notification: false,
        event_join_link: r.json.join_url,
      }),
    ]);
  });

  it('gives an in-person attendee an e-badge, and asks the platform to notify when told to', async () => {
    const id = await hosted('Meridian Early Learning open house');
    const r = await e.api('POST', `/api/video/events-hub/${id}/registrations`, {
      body: { ...person('badge@example.com'), send_notification: true, event_id: 'ignored-the-path-wins' },
    });
    expect(r.status, r.text).toBe(201);
    expectOutput('video_events', 'register', r.json);
    expect(r.json).toMatchObject({ event_id: id, qr_code_url: expect.stringMatching(/qr\.png$/) });
    const t = await emu(`/zoom_events/events/${id}/tickets`, { email: 'badge@example.com' });
    expect(t.json.tickets[0].send_notification).toBe(true);
  });

  it('refuses bad input with 400 validation_failed before calling the platform', async () => {
    const id = await hosted('GrowthOS live demo day');
    const before = await ticketCalls(id);
    const bad = await e.api('POST', `/api/video/events-hub/${id}/registrations`, {
      body: { email: 'not-an-email', first_name: '', last_name: 'x'.repeat(65), send_notification: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('validation_failed');
    expect(bad.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'send_notification',
    ]);
    const missing = await e.api('POST', `/api/video/events-hub/${id}/registrations`, { body: {} });
    expect(missing.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
    ]);
    const notObject = await e.api('POST', `/api/video/events-hub/${id}/registrations`, { body: ['x'] });
    expect(notObject.status).toBe(400);
    expect(notObject.json.error.code).toBe('validation_failed');
    const badId = await e.api('POST', '/api/video/events-hub/a%20b/registrations', {
      body: person('a@example.com'),
    });
    expect(badId.json.error.details.issues[0].path).toBe('event_id');
    expect(await ticketCalls(id)).toBe(before);
    expect(
      (
        await e.api('POST', `/api/video/events-hub/${id}/registrations`, {
          body: person('a@example.com'),
          key: null,
        })
      ).status,
    ).toBe(401);
  });

  it('maps platform refusals: unknown event, unpublished, ended, and an event the user only attends', async () => {
    const body = person('late@example.com');
    const unknown = await e.api('POST', '/api/video/events-hub/NoSuchEvent00000000000/registrations', {
      body,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 'not_found', details: { platformCode: 2002 } });

    const draft = await hosted('Meridian Housing resident town hall', 'draft');
    const unpublished = await e.api('POST', `/api/video/events-hub/${draft}/registrations`, { body });
    expect(unpublished.status).toBe(409);
    expect(unpublished.json.error).toMatchObject({
      code: 'event_not_published',
      details: { platformCode: 26501 },
    });

    const past = await hosted('Meridian Freight driver recruiting fair', 'past');
    const ended = await e.api('POST', `/api/video/events-hub/${past}/registrations`, { body });
    expect(ended.status).toBe(409);
    expect(ended.json.error).toMatchObject({
      code: 'registration_closed',
      details: { platformCode: 'invalid_sale_time' },
    });
    expect((await registrations(past)).map((x) => x.email)).not.toContain('late@example.com');

    const attended = await e.api('GET', '/api/video/events-hub?role=attendee');
    expectOutput('video_events', 'list_events', attended.json);
    const attending = attended.json.items[0].event_id;
    const denied = await e.api('POST', `/api/video/events-hub/${attending}/registrations`, { body });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toMatchObject({
      code: 'upstream_forbidden',
      details: { platformCode: 260200 },
    });
  });
});

describe('video_events/register through the registry', () => {
  it('runs through the generic invoke endpoint with the same validation', async () => {
    const id = await hosted('Meridian Mortgage first-time buyer night');
    const r = await e.api('POST', '/api/video/capabilities/video_events/register', {
      body: { event_id: id, ...person('invoke@example.com') },
    });
    expect(r.status, r.text).toBe(200);
    expectOutput('video_events', 'register', r.json.result);
    expect(r.json.result).toMatchObject({
      event_id: id,
      email: 'invoke@example.com',
      ticket_id: expect.any(String),
    });
    expect((await registrations(id)).map((x) => x.email)).toContain('invoke@example.com');

    const bad = await e.api('POST', '/api/video/capabilities/video_events/register', {
      body: { event_id: id, email: 'nope', first_name: 'A', last_name: 'B' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.issues).toEqual([{ path: 'email', message: expect.any(String) }]);
    const unknown = await e.api('POST', '/api/video/capabilities/video_events/register', {
      body: { event_id: 'NoSuchEvent00000000000', ...person('x@example.com') },
    });
    expect(unknown.status).toBe(404);
  });

  it('is listed as an available write, in the monitor, and in the OpenAPI document', async () => {
    const items = (await e.api('GET', '/api/video/capabilities')).json.items;
    expect(
      items.find((c: { group: string; name: string }) => c.group === 'video_events' && c.name === 'register'),
    ).toMatchObject({
      kind: 'write',
      availability: 'rest',
      available: true,
      state: 'ok',
      invoke: '/api/video/capabilities/video_events/register',
      scopes: expect.arrayContaining(['zoom_events:write:ticket', 'zoom_events_tickets:write']),
      inputSchema: expect.objectContaining({
        required: expect.arrayContaining(['event_id', 'email', 'first_name', 'last_name']),
      }),
    });
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    expect(monitor.groups.video_events.capabilities).toContainEqual(
      expect.objectContaining({ name: 'register', state: 'ok', availability: 'rest' }),
    );

    const doc = (await e.api('GET', '/openapi.json', { key: null })).json;
    const post = doc.paths['/api/video/events-hub/{eventId}/registrations'].post;
    expect(post.responses['201']).toBeDefined();
    expect(post.parameters).toEqual([
      expect.objectContaining({ name: 'eventId', in: 'path' }),
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header' }),
    ]);
    const schema = post.requestBody.content['application/json'].schema;
    // The event comes from the path, not the body.
    expect(Object.keys(schema.properties).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'send_notification',
    ]);
    expect(schema.required.sort()).toEqual(['email', 'first_name', 'last_name']);
  });

  it("keeps the seed's capability list in the status report", async () => {
    const status = (await e.api('GET', '/api/video/status')).json;
    expect(status.capabilityMap.video_events).toEqual([
      'list_events',
      'get_event',
      'registrations',
      'sessions',
      'create_event',
    ]);
    expect(status.capabilities).not.toContain('register');
  });

  it('is counted in the request metrics and spends the LIGHT budget of its group', async () => {
    const id = await hosted('GrowthOS live demo day');
    const metric = async (re: RegExp) => {
      const text = (await e.api('GET', '/metrics')).text;
      return Number(
        text
          .split('\n')
          .find((l) => re.test(l))
          ?.split(' ')
          .pop() ?? 0,
      );
    };
    const route =
      /^fleetgate_http_requests_total\{method="POST",route="\/api\/video\/events-hub\/:eventId\/registrations",status="201"\}/;
    const upstream = /^fleetgate_upstream_calls_total\{label="LIGHT",group="video_events",outcome="ok"\}/;
    const [routeBefore, upstreamBefore] = [await metric(route), await metric(upstream)];
    const r = await e.api('POST', `/api/video/events-hub/${id}/registrations`, {
      body: person('counted@example.com'),
    });
    expect(r.status).toBe(201);
    expect(await metric(route)).toBe(routeBefore + 1);
    expect(await metric(upstream)).toBe(upstreamBefore + 1);
  });
});

describe('the video_events_register MCP tool', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'fleetgate-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
      }),
    );
  });
  afterAll(() => client.close());

  const text = (res: Record<string, unknown>) =>
    (res['content'] as { type: string; text: string }[])[0]?.text ?? '';

  it('is listed as a write that adds (not idempotent, not destructive)', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'video_events_register');
    expect(tool?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(tool?.inputSchema.required).toEqual(expect.arrayContaining(['event_id', 'email']));
  });

  it('registers an attendee, and answers bad input and an unknown event as tool errors', async () => {
    const id = await hosted('GrowthOS live demo day');
    const res = await client.callTool({
      name: 'video_events_register',
      arguments: { event_id: id, ...person('mcp@example.com') },
    });
    expect(res.isError, text(res)).toBeFalsy();
    expectOutput('video_events', 'register', res.structuredContent);
    expect(res.structuredContent).toMatchObject({ event_id: id, email: 'mcp@example.com' });
    expect((await registrations(id)).map((x) => x.email)).toContain('mcp@example.com');

    const bad = await client.callTool({
      name: 'video_events_register',
      arguments: { event_id: id, email: 'no', first_name: 'A', last_name: 'B' },
    });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('validation_failed');
    const unknown = await client.callTool({
      name: 'video_events_register',
      arguments: { event_id: 'NoSuchEvent00000000000', ...person('x@example.com') },
    });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('not_found');
  });
});
