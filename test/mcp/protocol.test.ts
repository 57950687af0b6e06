/**
 * The /mcp edge over raw HTTP: both eras, and every kind of bad input or abuse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
});
afterAll(() => t.close());

const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

async function post(body: string | object, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { ...ACCEPT, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text ? JSON.parse(text) : undefined,
  };
}
const modern = (method: string, params: object = {}, extra: Record<string, string> = {}) =>
  post(
    { jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: MODERN_META } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...extra },
  );

describe('protocol eras', () => {
  it('answers the 2025-11-25 initialize handshake with JSON, no session', async () => {
    const r = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('mcp-session-id')).toBeNull();
    expect(r.json.result.protocolVersion).toBe('2025-11-25');
    expect(r.json.result.instructions).toContain('get_brand_tokens');
  });

  it('answers 2026-07-28 server/discover and tools/call without any handshake', async () => {
    const d = await modern('server/discover');
    expect(d.status).toBe(200);
    expect(d.json.result.supportedVersions).toContain('2026-07-28');
    const c = await modern(
      'tools/call',
      { name: 'get_brand_theme', arguments: { key: 'mog' } },
      { 'mcp-name': 'get_brand_theme' },
    );
    expect(c.status).toBe(200);
    expect(c.json.result.structuredContent.key).toBe('mog');
  });

  it('accepts a notification with 202 and no body', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
  });

  it('answers an unknown method with -32601 in both eras', async () => {
    const legacy = await post(
      { jsonrpc: '2.0', id: 3, method: 'nothing/here', params: {} },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(legacy.json.error.code).toBe(-32601);
    const m = await modern('nothing/here');
    expect(m.status).toBe(404);
    expect(m.json.error.code).toBe(-32601);
  });
});

describe('repeated calls', () => {
  it("give the same result with each caller's own id (the result cache is transparent)", async () => {
    const call = (id: number | string) =>
      post(
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_brand_tokens', arguments: { group: 'radius' } },
        },
        { 'mcp-protocol-version': '2025-11-25' },
      );
    const first = await call(1);
    const second = await call('abc');
    const third = await call(3);
    expect(second.json.id).toBe('abc');
    expect(third.json.id).toBe(3);
    expect(second.json.result).toEqual(first.json.result);
    expect(third.text).toBe(first.text.replace(/"id":1}$/, '"id":3}'));
    const other = await post(
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'get_brand_tokens', arguments: { group: 'spacing' } },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(Object.keys(other.json.result.structuredContent.tokens)).toContain('spacing');
  });
});

describe('bad input', () => {
  it('bad JSON → 400 with -32700', async () => {
    const r = await post('{"jsonrpc":');
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: expect.any(String) },
      id: null,
    });
  });

  it.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
    ['an empty batch', []],
    ['a string', '"hello"'],
    ['a wrong version', { jsonrpc: '1.0', id: 1, method: 'ping' }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }],
    ['a boolean id', { jsonrpc: '2.0', id: true, method: 'ping' }],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 5 }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }],
    ['no method and no result', { jsonrpc: '2.0', id: 1 }],
  ])('%s → 400 with -32600', async (_name, body) => {
    const r = await post(typeof body === 'string' ? body : JSON.stringify(body));
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe(-32600);
    expect(r.json.id).toBeNull();
  });

  it('a body over 256 KB → 413 in JSON-RPC shape', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(300 * 1024) },
    });
    const r = await post(big);
    expect(r.status).toBe(413);
    expect(r.json.jsonrpc).toBe('2.0');
    expect(r.json.error.code).toBe(-32600);
  });

  it('a non-JSON content type → 415', async () => {
    const r = await post('{}', { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.json).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32600, message: expect.stringContaining('application/json') },
    });
  });

  it('unknown tool → -32602 (a protocol error, not isError)', async () => {
    const r = await post(
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(r.json.error.code).toBe(-32602);
    expect(r.json.result).toBeUndefined();
  });

  it('a bad tool argument is a tool error naming the allowed values', async () => {
    const r = await post(
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'list_brand_assets', arguments: { group: 'banner' } },
      },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(r.json.result.isError).toBe(true);
    expect(r.json.result.content[0].text).toContain('logo');
  });
});

describe('methods and origins', () => {
  it.each(['GET', 'DELETE', 'PUT'])('%s → 405 with Allow: POST', async (method) => {
    const res = await fetch(`${base}/mcp`, { method, headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).error.code).toBe(-32000);
  });

  it('a foreign Origin → 403; none or our own passes', async () => {
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const foreign = await post(ping, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe(-32000);
    const rebinding = await post(ping, { origin: 'http://evil.example.com', host: 'evil.example.com' });
    expect(rebinding.status).toBe(403);
    const own = await post(ping, { origin: new URL(BASE).origin, 'mcp-protocol-version': '2025-11-25' });
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBe(new URL(BASE).origin);
    const none = await post(ping, { 'mcp-protocol-version': '2025-11-25' });
    expect(none.status).toBe(200);
  });

  it('answers CORS preflight for allowed origins only', async () => {
    const ok = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: new URL(BASE).origin, 'access-control-request-method': 'POST' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-headers')).toContain('MCP-Protocol-Version');
    const bad = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(bad.status).toBe(403);
  });
});
