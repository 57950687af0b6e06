/**
 * Idempotency keys through the shared invoke, over REST (the Idempotency-Key header, on a named
 * route and the generic invoke) and MCP (the idempotency_key argument), against a gateway linked
 * to the emulator: one key space for both, a replay books nothing new (counted by the emulator),
 * 422 when a key comes back with another request, 409 while the first still runs (unless it was
 * abandoned), a failure releases the key, and operations that create nothing refuse a key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABANDONED_AFTER_MS, fingerprint } from '../../src/gateway/capabilities/idempotent-invoke.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
let mcp: Client;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  mcp = new Client({ name: 'fleetgate-idempotency-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
    }),
  );
});
afterAll(async () => {
  await mcp.close();
  await e.close();
});

let n = 0;
/** An appointment input no other test books, so each test counts its own creations. */
const appointment = () => ({
  topic: `Idempotent consult ${++n}`,
  start_time: '2031-03-04T10:00:00',
  duration: 30,
  timezone: 'America/Chicago',
  invitee: { name: 'Jamie Buyer', email: 'jamie@example.com' },
  funnel: 'mortgage',
});

const meetingsCreated = async (): Promise<number> =>
  (await e.emu.api('GET', '/_sandbox/stats')).json.requests['POST /v2/users/me/meetings'] ?? 0;

const rest = (body: unknown, key?: string) =>
  e.api('POST', '/api/video/appointments', {
    body,
    ...(key !== undefined ? { headers: { 'idempotency-key': key } } : {}),
  });

async function tool(name: string, args: Record<string, unknown>) {
  const res = await mcp.callTool({ name, arguments: args });
  const text = (res.content as { type: string; text: string }[])[0]?.text ?? '';
  return { res, text };
}

describe('one key space for REST and MCP', () => {
  it('advertises idempotency_key on creating tools only', async () => {
    const { tools } = await mcp.listTools();
    const create = tools.find((t) => t.name === 'meetings_create_appointment');
    expect(create?.inputSchema.properties?.['idempotency_key']).toMatchObject({
      type: 'string',
      description: expect.stringMatching(/retry/i),
    });
    expect(create?.inputSchema.required ?? []).not.toContain('idempotency_key');
    const list = tools.find((t) => t.name === 'meetings_list_meetings');
    expect(list?.inputSchema.properties?.['idempotency_key']).toBeUndefined();
    expect(mcp.getInstructions()).toContain('idempotency_key');
  });

  it('replays a REST create to an MCP retry with the same key, booking once', async () => {
    const input = appointment();
    const first = await rest(input, 'cross-1');
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const count = await meetingsCreated();
    const { res, text } = await tool('meetings_create_appointment', { ...input, idempotency_key: 'cross-1' });
    expect(res.isError, text).toBeFalsy();
    expect(res.structuredContent).toEqual(first.json);
    expect(res._meta).toMatchObject({ 'fleetgate/idempotent-replayed': true });
    expect(await meetingsCreated()).toBe(count);
  });

  it('replays an MCP create to an MCP retry and a REST retry, booking once', async () => {
    const input = appointment();
    const before = await meetingsCreated();
    const a = await tool('meetings_create_appointment', { ...input, idempotency_key: 'mcp-1' });
    expect(a.res.isError, a.text).toBeFalsy();
    expect(a.res._meta?.['fleetgate/idempotent-replayed']).toBeUndefined();
    const b = await tool('meetings_create_appointment', { idempotency_key: 'mcp-1', ...input });
    expect(b.res.structuredContent).toEqual(a.res.structuredContent);
    const c = await rest(input, 'mcp-1');
    expect(c.status).toBe(201);
    expect(c.headers.get('idempotent-replayed')).toBe('true');
    expect(c.json).toEqual(a.res.structuredContent);
    expect(await meetingsCreated()).toBe(before + 1);
  });

  it('takes the same input written another way as the same request', async () => {
    const input = appointment();
    const first = await rest({ ...input, duration: '30' }, 'same-2');
    expect(first.status, first.text).toBe(201);
    const { funnel, ...rest2 } = input;
    // Keys in another order; the duration a number now.
    const again = await rest({ funnel, ...rest2 }, 'same-2');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
  });

  it('answers 422 on REST and a tool error on MCP when a key comes back with another request', async () => {
    const input = appointment();
    expect((await rest(input, 'reuse-1')).status).toBe(201);
    const count = await meetingsCreated();
    const other = await rest({ ...input, topic: 'Something else' }, 'reuse-1');
    expect(other.status).toBe(422);
    expect(other.json.error.code).toBe('idempotency_key_reused');
    const viaMcp = await tool('meetings_create_appointment', {
      ...input,
      topic: 'Something else',
      idempotency_key: 'reuse-1',
    });
    expect(viaMcp.res.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^idempotency_key_reused: /);
    // Another operation under a used key is another request too.
    const meeting = await e.api('POST', '/api/video/events', {
      body: { topic: 'x', start_time: '2031-03-04T10:00:00.000Z' },
      headers: { 'idempotency-key': 'reuse-1' },
    });
    expect(meeting.status).toBe(422);
    expect(await meetingsCreated()).toBe(count);
  });

  it('answers 409 with Retry-After while the first request with the key still runs', async () => {
    const input = appointment();
    // The claim a running request holds: its fingerprint, status 0.
    await e.store.putIdempotent({
      key: 'running-1',
      requestHash: fingerprint('meetings', 'create_appointment', input),
      status: 0,
      body: '',
      createdAt: new Date().toISOString(),
    });
    const count = await meetingsCreated();
    const r = await rest(input, 'running-1');
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('idempotency_in_progress');
    expect(r.headers.get('retry-after')).toBe('1');
    const viaMcp = await tool('meetings_create_appointment', { ...input, idempotency_key: 'running-1' });
    expect(viaMcp.text).toMatch(/^idempotency_in_progress: /);
    expect(await meetingsCreated()).toBe(count);
  });

  it('lets a retry of the same request take over a claim abandoned mid-run, and no other request', async () => {
    const input = appointment();
    const old = new Date(Date.now() - ABANDONED_AFTER_MS - 60_000).toISOString();
    const claim = {
      key: 'abandoned-1',
      requestHash: fingerprint('meetings', 'create_appointment', input),
      status: 0,
      body: '',
      createdAt: old,
    };
    await e.store.putIdempotent(claim);
    const other = await rest({ ...input, topic: 'Another request' }, 'abandoned-1');
    expect(other.status).toBe(422);
    const count = await meetingsCreated();
    const retry = await rest(input, 'abandoned-1');
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await meetingsCreated()).toBe(count + 1);
    expect((await rest(input, 'abandoned-1')).headers.get('idempotent-replayed')).toBe('true');
    // The store takes a claim over once, and only a stale one.
    const fresh = { ...claim, key: 'abandoned-2', createdAt: new Date().toISOString() };
    await e.store.putIdempotent(fresh);
    expect(await e.store.reclaimIdempotent(fresh, old)).toBe(false);
    await e.store.putIdempotent({ ...claim, key: 'abandoned-3' });
    const now = new Date().toISOString();
    const takeOver = { ...claim, key: 'abandoned-3', createdAt: now };
    expect(await e.store.reclaimIdempotent({ ...takeOver, requestHash: 'other' }, now)).toBe(false);
    expect(await e.store.reclaimIdempotent(takeOver, now)).toBe(true);
    expect(await e.store.reclaimIdempotent(takeOver, now)).toBe(false);
  });

  it('releases the key when the create fails, so the caller may retry with it', async () => {
    const past = { ...appointment(), start_time: '2020-01-01T10:00:00' };
    const failed = await rest(past, 'release-1');
    expect(failed.status).toBe(400);
    expect(failed.json.error.code).toBe('start_time_in_past');
    const fixed = await rest({ ...past, start_time: '2031-03-05T10:00:00' }, 'release-1');
    expect(fixed.status, fixed.text).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('honours the header on the generic invoke, replaying its {result} answer', async () => {
    const input = appointment();
    const url = '/api/video/capabilities/meetings/create_appointment';
    const headers = { 'idempotency-key': 'generic-1' };
    const a = await e.api('POST', url, { body: input, headers });
    expect(a.status, a.text).toBe(200);
    const count = await meetingsCreated();
    const b = await e.api('POST', url, { body: input, headers });
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.json).toEqual(a.json);
    expect(await meetingsCreated()).toBe(count);
  });

  it('refuses a key on an operation that creates nothing, and a malformed key', async () => {
    const list = await e.api('POST', '/api/video/capabilities/meetings/list_meetings', {
      body: {},
      headers: { 'idempotency-key': 'list-1' },
    });
    expect(list.status).toBe(400);
    expect(list.json.error.code).toBe('idempotency_key_unsupported');
    const viaMcp = await tool('meetings_list_meetings', { idempotency_key: 'list-1' });
    expect(viaMcp.res.isError).toBe(true);
    expect(viaMcp.text).toMatch(/^idempotency_key_unsupported: /);
    const count = await meetingsCreated();
    const bad = await rest(appointment(), 'has spaces');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('validation_failed');
    const badMcp = await tool('meetings_create_appointment', { ...appointment(), idempotency_key: 7 });
    expect(badMcp.res.isError).toBe(true);
    expect(await meetingsCreated()).toBe(count);
  });

  it('makes a stored event registration idempotent too, and refuses a key where nothing is created', async () => {
    const event = await e.api('POST', '/api/video/events', {
      body: { topic: 'Idempotent webinar', start_time: '2031-04-01T15:00:00.000Z', registration: true },
    });
    expect(event.status, event.text).toBe(201);
    const id = event.json.video_id as string;
    const url = `/api/video/events/${id}/registrations`;
    const person = { email: 'reg@example.com', first_name: 'Reg', last_name: 'Istrant' };
    const headers = { 'idempotency-key': 'register-1' };
    const registrants = async (): Promise<number> =>
      (await e.emu.api('GET', '/_sandbox/stats')).json.requests[`POST /v2/meetings/${id}/registrants`] ?? 0;
    const a = await e.api('POST', url, { body: person, headers });
    expect(a.status, a.text).toBe(201);
    const b = await e.api('POST', url, { body: person, headers });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.json).toEqual(a.json);
    expect(await registrants()).toBe(1);
    const other = await e.api('POST', url, { body: { ...person, email: 'other@example.com' }, headers });
    expect(other.status).toBe(422);
    for (const [method, path, body] of [
      ['PATCH', `/api/video/events/${id}`, { topic: 'Renamed' }],
      ['GET', `/api/video/events/${id}`, undefined],
      ['GET', url, undefined],
    ] as const) {
      const r = await e.api(method, path, { body, headers: { 'idempotency-key': 'nothing-1' } });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.json.error.code).toBe('idempotency_key_unsupported');
    }
    expect((await e.api('GET', `/api/video/events/${id}`)).json.topic).toBe('Idempotent webinar');
  });
});
