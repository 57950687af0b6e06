/**
 * One capability, two transports, one set of rules: a REST view and an MCP tool of the same
 * capability run through the one invoke, so both refuse a scope the link lacks with the same
 * error before reaching the platform, and both fail an answer outside the declared output schema
 * as an internal error (logged) rather than send it. Real HTTP, against the emulator.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationOf } from '../../src/gateway/capabilities/registry.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
let client: Client;

async function connect(): Promise<Client> {
  const c = new Client({ name: 'fleetgate-parity-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
    }),
  );
  return c;
}

/** The tool error's `{error}` JSON, the last line of its text. */
async function toolError(name: string, args: Record<string, unknown>) {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError).toBe(true);
  const body = (res.content as { text: string }[])[0]?.text ?? '';
  return JSON.parse(body.slice(body.lastIndexOf('\n{"error"') + 1)) as {
    error: { code: string; message: string; details?: unknown };
  };
}

beforeAll(async () => {
  e = await startGateway();
});
afterAll(async () => {
  await client.close();
  await e.close();
});

describe('a link without the scope a capability needs', () => {
  let platformCalls = 0;
  beforeAll(async () => {
    // Meetings only: no calendar scope at all.
    e.emu.options.scopes = ['user:read:user', 'meeting:read:list_meetings', 'meeting:write:meeting'];
    await e.link();
    client = await connect();
  });
  afterAll(() => {
    e.emu.options.scopes = undefined;
  });

  it('is refused alike over REST and MCP, before the platform is asked', async () => {
    const op = operationOf('calendar', 'list_calendars');
    const run = vi.spyOn(op, 'run').mockImplementation(() => {
      platformCalls++;
      return Promise.resolve({ items: [], nextCursor: null });
    });
    try {
      const rest = await e.api('GET', '/api/video/calendar/calendars');
      const mcp = await toolError('calendar_list_calendars', {});
      expect(rest.status).toBe(403);
      expect(rest.json.error.code).toBe('missing_scope');
      expect(mcp.error).toEqual(rest.json.error);
      expect(mcp.error.details).toEqual({ group: 'calendar', scopes: op.scopes });
      // The generic invoke endpoint is the same invoke.
      const generic = await e.api('POST', '/api/video/capabilities/calendar/list_calendars', { body: {} });
      expect(generic.status).toBe(403);
      expect(generic.json.error).toEqual(rest.json.error);
      expect(platformCalls).toBe(0);
    } finally {
      run.mockRestore();
    }
  });

  it('still runs what the granted scopes admit, on both', async () => {
    const rest = await e.api('GET', '/api/video/capabilities');
    expect(rest.status).toBe(200);
    const res = await client.callTool({ name: 'meetings_list_meetings', arguments: {} });
    expect(res.isError).toBeFalsy();
  });
});

describe('an answer outside the output schema', () => {
  beforeAll(async () => {
    await e.api('POST', '/api/video/oauth/disconnect');
    await e.link();
    await client?.close();
    client = await connect();
  });

  it('is an internal error over REST and MCP alike, logged, never sent', async () => {
    const wrong = vi
      .spyOn(operationOf('calendar', 'list_calendars'), 'run')
      .mockResolvedValue({ items: 'not a list', nextCursor: null });
    try {
      const rest = await e.api('GET', '/api/video/calendar/calendars');
      expect(rest.status).toBe(500);
      expect(rest.json.error.code).toBe('internal_error');
      expect(rest.text).not.toContain('not a list');
      const mcp = await toolError('calendar_list_calendars', {});
      expect(mcp.error.code).toBe('internal_error');
    } finally {
      wrong.mockRestore();
    }
    const failures = e.logs().filter((l) => l.includes('outside its output schema'));
    // One from each transport: the REST error handler and the MCP tool failure.
    expect(failures.length).toBeGreaterThanOrEqual(2);
  });
});
