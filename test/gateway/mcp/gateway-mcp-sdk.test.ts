/**
 * POST /api/video/mcp driven by the official SDK v1 client (2025-11-25 era; it also validates
 * every structuredContent against the tool's outputSchema), against a gateway linked to the
 * emulator over real HTTP: the tool list per granted scopes, reads and writes that reach the
 * emulator, tool errors a model can act on, resources, and the key and Origin checks.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../src/gateway/capabilities/registry.js';
import { API_KEY, startGateway, type GatewayEnv } from '../helpers.js';

const OFFERED = REGISTRY.filter((r) => r.operation).map((r) => `${r.group}_${r.name}`);
const NO_PUBLIC_API = REGISTRY.filter((r) => !r.operation).map((r) => `${r.group}_${r.name}`);

let e: GatewayEnv;
let emuToken: string;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  emuToken = (await e.emu.userToken()).access_token;
});
afterAll(() => e.close());

async function connect(key: string = API_KEY): Promise<Client> {
  const client = new Client({ name: 'fleetgate-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const text = (res: Record<string, unknown>) =>
  (res['content'] as { type: string; text: string }[])[0]?.text ?? '';

async function structured(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError, text(res)).toBeFalsy();
  expect(JSON.parse(text(res))).toEqual(res.structuredContent);
  return res.structuredContent as any;
}

async function toolError(client: Client, name: string, args: Record<string, unknown> = {}) {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError, text(res)).toBe(true);
  expect(res.structuredContent).toBeUndefined();
  const body = text(res);
  const json = JSON.parse(body.slice(body.lastIndexOf('\n{"error"') + 1)) as {
    error: { code: string; message: string; details?: any };
  };
  return { text: body, error: json.error };
}

const rawPost = (headers: Record<string, string>, path = '/api/video/mcp') =>
  fetch(`${e.base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('authorization', () => {
  it('refuses a request without the key in the MCP authorization shape', async () => {
    const res = await rawPost({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await res.json()).toMatchObject({ error: 'invalid_token', error_description: expect.any(String) });
  });

  it('refuses a wrong key, a key in the query string and a key in another scheme', async () => {
    for (const [headers, path] of [
      [{ authorization: 'Bearer not-the-key' }, '/api/video/mcp'],
      [{ authorization: `Basic ${Buffer.from(`x:${API_KEY}`).toString('base64')}` }, '/api/video/mcp'],
      [{}, `/api/video/mcp?api_key=${API_KEY}`],
      [{}, `/api/video/mcp?access_token=${API_KEY}`],
    ] as const) {
      const res = await rawPost(headers, path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    }
  });

  it('checks the key before reading the body, then speaks JSON-RPC errors like /mcp', async () => {
    const big = await fetch(`${e.base}/api/video/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(300 * 1024),
    });
    expect(big.status).toBe(401);
    const bad = await fetch(`${e.base}/api/video/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
      body: '{"jsonrpc":',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
  });

  it('answers a raw 2026-07-28 request with the key (no handshake, no session)', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    const res = await fetch(`${e.base}/api/video/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${API_KEY}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'meetings_list_meetings',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'meetings_list_meetings', arguments: { limit: 5 }, _meta: meta },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { result: { structuredContent: { items: unknown[] } } };
    expect(Array.isArray(body.result.structuredContent.items)).toBe(true);
  });

  it('lets the SDK client fail to connect without the key', async () => {
    await expect(connect('wrong-key')).rejects.toThrow();
  });

  it('refuses a foreign browser Origin even with the key, and other methods with 405', async () => {
    const res = await rawPost({ authorization: `Bearer ${API_KEY}`, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32000);
    const get = await fetch(`${e.base}/api/video/mcp`, { headers: { authorization: `Bearer ${API_KEY}` } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('with every scope granted', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(() => client.close());

  it('negotiates 2025-11-25 statelessly, with instructions, tools and resources', () => {
    expect(client.getServerVersion()?.name).toBe('fleetgate-gateway');
    expect(client.getInstructions()).toContain('<group>_<capability>');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
  });

  it('lists one tool per offered capability, none for those without a public endpoint', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...OFFERED].sort());
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['meetings_create_meeting', 'calendar_quick_add', 'email_send_message']),
    );
    for (const n of NO_PUBLIC_API) expect(tools.map((t) => t.name)).not.toContain(n);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^\S(.*\S)?$/);
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations?.openWorldHint, tool.name).toBe(true);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('meetings_list_meetings')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
    expect(byName.get('meetings_create_meeting')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(byName.get('meetings_delete_meeting')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get('calendar_update_event')?.annotations).toMatchObject({ destructiveHint: true });
    // Input schemas are the registry's own: enums, defaults and required fields come through.
    const create = byName.get('meetings_create_meeting')!;
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['topic', 'start_time']));
    expect((create.outputSchema?.properties as any).video_id).toEqual({ type: 'string' });
  });

  it('calls a read and gets what the REST API returns', async () => {
    const mcp = await structured(client, 'calendar_list_calendars');
    const rest = await e.api('POST', '/api/video/capabilities/calendar/list_calendars', { body: {} });
    expect(mcp).toEqual(rest.json.result);
    expect(mcp.items.length).toBeGreaterThan(0);
  });

  it('calls a write that reaches the emulator, then deletes it again', async () => {
    const created = await structured(client, 'meetings_create_meeting', {
      topic: 'MCP planning',
      start_time: '2030-06-01T15:00:00Z',
      duration: 30,
      funnel: 'freight',
    });
    expect(created).toMatchObject({ topic: 'MCP planning', funnel: 'freight', status: 'scheduled' });
    const onEmulator = await e.emu.api('GET', `/v2/meetings/${created.video_id}`, { token: emuToken });
    expect(onEmulator.status).toBe(200);
    expect(onEmulator.json).toMatchObject({ topic: 'MCP planning', duration: 30 });
    expect(await e.store.getEvent(created.video_id)).toMatchObject({ funnel: 'freight' });

    const got = await structured(client, 'meetings_get_meeting', { video_id: created.video_id });
    expect(got.stored).toEqual({ funnel: 'freight', status: 'scheduled' });

    const quick = await structured(client, 'calendar_quick_add', { text: 'MCP sync tomorrow at 10am' });
    const event = await e.emu.api('GET', `/v2/calendars/primary/events/${quick.id}`, { token: emuToken });
    expect(event.status).toBe(200);

    const gone = await structured(client, 'meetings_delete_meeting', { video_id: created.video_id });
    expect(gone).toEqual({ deleted: true, video_id: created.video_id, platform: 'deleted' });
    expect((await e.emu.api('GET', `/v2/meetings/${created.video_id}`, { token: emuToken })).status).toBe(
      404,
    );
  });

  it('answers bad arguments with validation_failed naming the field', async () => {
    const r = await toolError(client, 'meetings_create_meeting', { topic: 'x', start_time: 'tomorrow' });
    expect(r.error.code).toBe('validation_failed');
    expect(r.error.details.issues).toContainEqual(expect.objectContaining({ path: 'start_time' }));
    expect(r.text).toContain('details.issues');
  });

  it("passes the platform's status, code and message through", async () => {
    const r = await toolError(client, 'meetings_get_meeting', { video_id: '1' });
    expect(r.error).toMatchObject({
      code: 'not_found',
      details: { platformStatus: 404, platformCode: 3001, platformMessage: 'Meeting does not exist: 1.' },
    });
  });

  it('rejects unknown tools with -32602, saying why a capability without an endpoint is none', async () => {
    await expect(client.callTool({ name: 'meetings_teleport', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.callTool({ name: 'ai_knowledge_graph', arguments: {} })).rejects.toThrow(
      /knowledge-graph/,
    );
  });

  it('serves the status report and the monitor as resources', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      `${e.base}/api/video/status`,
      `${e.base}/api/video/monitor`,
    ]);
    const status = await client.readResource({ uri: `${e.base}/api/video/status` });
    expect(status.contents[0]?.mimeType).toBe('application/json');
    const report = JSON.parse((status.contents[0] as { text: string }).text);
    expect(report).toMatchObject({ configured: true, account: expect.any(Object) });
    expect(Object.keys(report.capabilityMap)).toHaveLength(14);
    const monitor = JSON.parse(
      ((await client.readResource({ uri: `${e.base}/api/video/monitor` })).contents[0] as { text: string })
        .text,
    );
    expect(monitor.link.status).toBe('linked');
    expect(monitor.groups.meetings.capabilities).toContainEqual(
      expect.objectContaining({ name: 'create_meeting', state: 'ok' }),
    );
  });
});

describe('with fewer scopes granted', () => {
  let client: Client;
  beforeAll(async () => {
    e.emu.options.scopes = [
      'user:read:user',
      'user:read:settings',
      'meeting:read:list_meetings',
      'meeting:read:meeting',
      'meeting:write:meeting',
      'meeting:delete:meeting',
    ];
    await e.api('POST', '/api/video/oauth/disconnect');
    await e.link();
    client = await connect();
  });
  afterAll(async () => {
    await client.close();
    e.emu.options.scopes = undefined;
  });

  it('lists only the tools the granted scopes admit', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'meetings_create_meeting',
        'meetings_list_meetings',
        'meetings_delete_meeting',
      ]),
    );
    expect(names).not.toContain('email_send_message');
    expect(names).not.toContain('calendar_quick_add');
    expect(names.length).toBeLessThan(OFFERED.length);
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    const admitted = OFFERED.filter((n) => {
      const r = REGISTRY.find((x) => `${x.group}_${x.name}` === n)!;
      const cap = monitor.groups[r.group].capabilities.find((c: { name: string }) => c.name === r.name);
      return cap.state !== 'missing_scope';
    });
    expect([...names].sort()).toEqual([...admitted].sort());
  });

  it('tells a model calling an unlisted tool which scopes it needs and how to get them', async () => {
    const r = await toolError(client, 'email_send_message', { to: ['a@example.com'], text: 'hi' });
    expect(r.error.code).toBe('missing_scope');
    expect(r.error.details.scopes).toContain('email:write:send_msg');
    expect(r.text).toContain('/api/video/oauth/start');
  });

  it('reports a scope the platform refuses mid-operation, with what was undone', async () => {
    const r = await toolError(client, 'meetings_create_appointment', {
      topic: 'Intro call',
      start_time: '2030-06-02T15:00:00Z',
      timezone: 'UTC',
      invitee: { name: 'Sam', email: 'sam@example.com' },
    });
    expect(r.error).toMatchObject({
      code: 'appointment_failed',
      details: { compensated: true, cause: { code: 'missing_scope' } },
    });
  });
});

describe('without a linked account', () => {
  let client: Client;
  beforeAll(async () => {
    await e.api('POST', '/api/video/oauth/disconnect');
    client = await connect();
  });
  afterAll(() => client.close());

  it('still lists the tools, and a call says how to link', async () => {
    expect((await client.listTools()).tools).toHaveLength(OFFERED.length);
    const r = await toolError(client, 'meetings_list_meetings');
    expect(r.error.code).toBe('not_linked');
    expect(r.text).toContain(`${e.base}/api/video/oauth/start`);
    expect(r.text).toContain(`${e.base}/dashboard`);
  });
});
