/**
 * JSON nested thousands of levels deep is refused with 400 before anything walks it
 * recursively (the MCP answer cache's key, argument validation, the idempotency hash), and
 * answered in the protocol's shape: JSON-RPC on MCP (public and gateway), the one error shape
 * on the REST API. Real sockets, as a client meets every layer.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/core/json-depth.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

/** `{"a":{"a":…1…}}` or `[[…1…]]`, `depth` levels deep. */
const nested = (depth: number, kind: 'object' | 'array') =>
  kind === 'object'
    ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}1${']'.repeat(depth)}`;

const toolCall = (id: number, args: string) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"get_brand_tokens","arguments":{"deep":${args}}}}`;

function post(base: string, path: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const url = new URL(path, base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

type Line = { level: number; msg?: string; err?: unknown; reqId?: string; res?: { statusCode?: number } };
const linesSince = (t: { logs: () => string[] }, from: number) =>
  t
    .logs()
    .slice(from)
    .map((l) => JSON.parse(l) as Line);

describe('the depth limit', () => {
  it('takes JSON nested exactly MAX_JSON_DEPTH levels and refuses one level more', () => {
    expect(MAX_JSON_DEPTH).toBe(64);
    for (const kind of ['object', 'array'] as const) {
      expect(nestsDeeperThan(JSON.parse(nested(MAX_JSON_DEPTH, kind))), kind).toBe(false);
      expect(nestsDeeperThan(JSON.parse(nested(MAX_JSON_DEPTH + 1, kind))), kind).toBe(true);
    }
    // Mixed containers, and the deepest branch counting rather than the first.
    const mixed = (depth: number) => `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`;
    expect(nestsDeeperThan(JSON.parse(mixed(MAX_JSON_DEPTH)))).toBe(false);
    expect(nestsDeeperThan(JSON.parse(`[1,{"b":2},${mixed(MAX_JSON_DEPTH)}]`))).toBe(true);
    expect(nestsDeeperThan(JSON.parse(`{"x":[],"y":${nested(MAX_JSON_DEPTH - 1, 'array')}}`))).toBe(false);
    // Scalars nest nothing; an empty container is one level.
    expect(nestsDeeperThan(1, 0)).toBe(false);
    expect(nestsDeeperThan({}, 0)).toBe(true);
    expect(nestsDeeperThan({}, 1)).toBe(false);
  });
});

describe('public MCP', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp();
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('refuses arguments nested 5,000 levels deep with a JSON-RPC invalid-params 400, logged without a stack', async () => {
    for (const kind of ['object', 'array'] as const) {
      const from = t.logs().length;
      const r = await post(base, '/mcp', toolCall(41, nested(5000, kind)), MCP_HEADERS);
      expect(r.status, kind).toBe(400);
      expect(r.json, kind).toEqual({
        jsonrpc: '2.0',
        id: 41,
        error: { code: -32602, message: expect.stringContaining('nested deeper than') },
      });
      const lines = linesSince(t, from);
      expect(lines.filter((l) => l.level >= 40 || l.err !== undefined)).toEqual([]);
      expect(lines.filter((l) => l.res?.statusCode === 400)).toHaveLength(1);
    }
  });

  it('takes a message nested exactly at the limit and refuses one level more', async () => {
    // The message itself, params and arguments are three levels: the rest is the argument's.
    const at = await post(base, '/mcp', toolCall(43, nested(MAX_JSON_DEPTH - 3, 'object')), MCP_HEADERS);
    expect(at.status).toBe(200);
    expect(at.json).toMatchObject({ jsonrpc: '2.0', id: 43, result: expect.any(Object) });
    const over = await post(base, '/mcp', toolCall(44, nested(MAX_JSON_DEPTH - 2, 'object')), MCP_HEADERS);
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ id: 44, error: { code: -32602 } });
  });

  it('still answers arguments nested within the limit', async () => {
    const r = await post(base, '/mcp', toolCall(42, nested(30, 'object')), MCP_HEADERS);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 42 });
  });
});

describe('gateway', () => {
  let e: GatewayEnv;
  beforeAll(async () => {
    e = await startGateway();
  }, 60_000);
  afterAll(() => e.close());
  const keyed = { authorization: `Bearer ${API_KEY}` };

  it('refuses a deep MCP message on /api/video/mcp with a JSON-RPC 400', async () => {
    const body = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_events","arguments":${nested(5000, 'object')}}}`;
    const r = await post(e.base, '/api/video/mcp', body, { ...MCP_HEADERS, ...keyed });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32602 } });
  });

  it('reads a REST body nested exactly at the limit and refuses one level more', async () => {
    // The body object is the first level; `extra` holds the rest.
    const body = (depth: number) => `{"topic":"x","extra":${nested(depth - 1, 'array')}}`;
    const at = await post(e.base, '/api/video/events', body(MAX_JSON_DEPTH), {
      'content-type': 'application/json',
      ...keyed,
    });
    // Parsed and handed to validation, which has its own say about the fields.
    expect(at.status).toBe(400);
    expect(at.json.error.code).toBe('validation_failed');
    const over = await post(e.base, '/api/video/events', body(MAX_JSON_DEPTH + 1), {
      'content-type': 'application/json',
      ...keyed,
    });
    expect(over.status).toBe(400);
    expect(over.json.error.code).toBe('json_too_deep');
  });

  it('refuses a deep JSON body on the REST API with 400 in the one error shape', async () => {
    for (const path of ['/api/video/appointments', '/api/video/events']) {
      const r = await post(e.base, path, `{"topic":"x","extra":${nested(5000, 'array')}}`, {
        'content-type': 'application/json',
        ...keyed,
      });
      expect(r.status, path).toBe(400);
      expect(r.json, path).toEqual({ error: { code: 'json_too_deep', message: expect.any(String) } });
    }
  });
});
