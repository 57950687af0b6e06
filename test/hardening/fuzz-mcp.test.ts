/**
 * Property-based bad input for POST /mcp: JSON-RPC envelopes with every field wrong in turn,
 * tool calls whose arguments come from each tool's own input schema with hostile values mixed
 * in, broken JSON, batches, wrong content types and protocol versions. Never a 5xx, never a
 * polluted prototype; every answer is a JSON-RPC 2.0 response (or 202 for a notification).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { contentTypes, fromSchema, FUZZ, hostileString, hostileValue, rawBody, runs } from './arbitraries.js';
import { HARDENING_ENV, tally } from './expect.js';

let t: TestApp;
let tools: { name: string; inputSchema: Record<string, unknown> }[];

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

beforeAll(async () => {
  t = await buildTestApp({ env: HARDENING_ENV });
  const res = await t.app.inject({
    method: 'POST',
    url: '/mcp',
    headers: HEADERS,
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  tools = (JSON.parse(res.body) as { result: { tools: typeof tools } }).result.tools;
});
afterAll(() => t.close());

const METHODS = [
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'notifications/initialized',
  'logging/setLevel',
  'completion/complete',
];

const params = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(...tools).chain((tool) =>
      fc.record(
        {
          name: fc.oneof({ weight: 5, arbitrary: fc.constant(tool.name) }, hostileString),
          arguments: fc.oneof({ weight: 4, arbitrary: fromSchema(tool.inputSchema, 1) }, hostileValue),
        },
        { requiredKeys: [] },
      ),
    ),
    fc.record({ uri: fc.oneof(hostileString, fc.constant('https://brand.test:8080/api/brand')) }),
    hostileValue,
  );

const envelope = (): fc.Arbitrary<string> =>
  fc
    .record(
      {
        jsonrpc: fc.oneof({ weight: 6, arbitrary: fc.constant('2.0') }, hostileValue),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), hostileValue),
        method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, hostileString),
        params: params(),
      },
      { requiredKeys: [] },
    )
    .map((e) => JSON.stringify(e));

const request = (): fc.Arbitrary<{ payload: string; headers: Record<string, string>; expect?: number }> =>
  fc.oneof(
    { weight: 8, arbitrary: envelope().map((payload) => ({ payload, headers: HEADERS })) },
    { weight: 1, arbitrary: rawBody.map((payload) => ({ payload, headers: HEADERS, expect: 400 })) },
    {
      weight: 1,
      arbitrary: fc
        .array(envelope(), { minLength: 1, maxLength: 3 })
        .map((list) => ({ payload: `[${list.join(',')}]`, headers: HEADERS, expect: 400 })),
    },
    {
      weight: 1,
      arbitrary: fc.record({ payload: envelope(), type: contentTypes }).map((r) => ({
        payload: r.payload,
        headers: { ...HEADERS, 'content-type': r.type },
        expect: 415,
      })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          payload: envelope(),
          version: hostileString,
          accept: fc.constantFrom('*/*', 'text/html', ''),
        })
        .map((r) => ({
          payload: r.payload,
          headers: { ...HEADERS, 'mcp-protocol-version': r.version.slice(0, 100), accept: r.accept },
        })),
    },
  );

describe('bad input on POST /mcp', () => {
  it('answers every envelope with a JSON-RPC response and never a 5xx', async () => {
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(request(), async (r) => {
        // Header values must be valid header bytes; what cannot be sent is not a case.
        const headers = Object.fromEntries(
          Object.entries(r.headers).map(([k, v]) => [k, v.replace(/[^\t\x20-\x7e]/g, '?')]),
        );
        const res = await t.app.inject({ method: 'POST', url: '/mcp', headers, payload: r.payload });
        seen.add('POST /mcp', res.statusCode);
        const where = `${res.statusCode} ${res.body.slice(0, 300)} ← ${r.payload.slice(0, 200)}`;
        expect(({} as Record<string, unknown>)['polluted'], 'Object.prototype polluted').toBeUndefined();
        expect(res.statusCode, where).toBeLessThan(500);
        if (r.expect) expect(res.statusCode, where).toBe(r.expect);
        if (res.statusCode === 202) return;
        const body = JSON.parse(res.body) as {
          jsonrpc?: unknown;
          error?: { code?: unknown; message?: unknown };
        };
        expect(body.jsonrpc, where).toBe('2.0');
        if (res.statusCode >= 400 || body.error) {
          expect(Number.isInteger(body.error?.code), where).toBe(true);
          expect(typeof body.error?.message, where).toBe('string');
        }
      }),
      { seed: FUZZ.seed, numRuns: runs(1000), verbose: 1 },
    );
    seen.report('mcp');
    expect(seen.count((s) => s === 200)).toBeGreaterThan(50);
  }, 120_000);
});
