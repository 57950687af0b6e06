/**
 * Every gateway MCP tool's outputSchema is its operation's declared output, never an open
 * object; real tools/call answers hold to the schema tools/list advertises (checked by Ajv here,
 * and by the SDK client, which validates structuredContent too); and an answer outside it is a
 * logged server-side failure that reaches the model as an internal error, not a silent pass.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationOf, REGISTRY } from '../../../src/gateway/capabilities/registry.js';
import { API_KEY, startGateway, type GatewayEnv } from '../helpers.js';

let e: GatewayEnv;
let client: Client;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  client = new Client({ name: 'fleetgate-output-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${e.base}/api/video/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${API_KEY}` } },
    }),
  );
});
afterAll(async () => {
  await client.close();
  await e.close();
});

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);

type Schema = { properties?: Record<string, unknown>; anyOf?: Schema[]; oneOf?: Schema[] };
/** A schema that names what the answer holds: properties, or a choice of shapes that each do. */
const constrains = (s: Schema): boolean => {
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])];
  return Object.keys(s.properties ?? {}).length > 0 || (branches.length > 0 && branches.every(constrains));
};

describe('gateway MCP output schemas', () => {
  it('gives every tool an outputSchema from its operation, none of them the open object', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBe(REGISTRY.filter((r) => r.operation).length);
    for (const tool of tools) {
      const schema = tool.outputSchema as
        (Schema & { type?: string; additionalProperties?: unknown }) | undefined;
      expect(schema?.type, tool.name).toBe('object');
      expect(constrains(schema ?? {}), `${tool.name}: ${JSON.stringify(schema)}`).toBe(true);
      expect(schema?.additionalProperties, tool.name).not.toBe(true);
      expect(() => ajv.compile(schema ?? {}), tool.name).not.toThrow();
    }
  });

  it('answers real calls within the advertised schema', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const calls: [string, Record<string, unknown>][] = [
      ['meetings_list_meetings', {}],
      ['meetings_create_meeting', { topic: 'Output check', start_time: '2031-06-01T15:00:00.000Z' }],
      ['calendar_list_calendars', {}],
      ['recordings_list_user_recordings', {}],
      ['contacts_list_contacts', {}],
      ['clips_list_clips', {}],
      ['email_profile', {}],
      ['marketplace_app', {}],
    ];
    for (const [name, args] of calls) {
      // The SDK client itself rejects structuredContent outside the tool's outputSchema.
      const res = await client.callTool({ name, arguments: args });
      const text = (res.content as { text?: string }[])[0]?.text ?? '';
      expect(res.isError, `${name}: ${text}`).toBeFalsy();
      const validate = ajv.compile(byName.get(name)?.outputSchema ?? {});
      validate(res.structuredContent);
      expect(validate.errors ?? [], name).toEqual([]);
    }
  });

  it('turns an answer outside the schema into a logged internal error', async () => {
    const wrong = vi
      .spyOn(operationOf('calendar', 'list_calendars'), 'run')
      .mockResolvedValue({ items: 'not a list', nextCursor: null });
    try {
      const res = await client.callTool({ name: 'calendar_list_calendars', arguments: {} });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toBeUndefined();
      const text = (res.content as { text: string }[])[0]?.text ?? '';
      expect(text).toMatch(/^internal_error: /);
      expect(text).not.toContain('not a list');
    } finally {
      wrong.mockRestore();
    }
    expect(
      e.logs().some((l) => l.includes('gateway mcp tool failed') && l.includes('outside its output schema')),
    ).toBe(true);
  });
});
