/**
 * Property-based bad input over every operation of the OpenAPI document (plus every capability
 * of the registry through the invoke path), against a gateway linked to the real emulator:
 * never a 5xx (501 no_public_api is the documented exception), never a crash or a polluted
 * prototype, every error in the one shape with the status its cause calls for.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import {
  asText,
  enc,
  contentTypes,
  fromSchema,
  FUZZ,
  hostileString,
  hostileValue,
  operations,
  BOM_OBJECT,
  DUPLICATE_KEYS,
  rawBody,
  runs,
  type Operation,
} from './arbitraries.js';
import { expectErrorShape, HARDENING_ENV, tally } from './expect.js';

/** Raw bodies (webhooks) and JSON-RPC (the MCP endpoints, their own suite) have their own shapes. */
const OWN_FORMAT = new Set(['POST /api/video/webhooks']);
const isMcp = (path: string) => path.endsWith('/mcp');
/** Unlinking would turn every later case into a 409; linking is tested on its own. */
const SKIP = new Set(['POST /api/video/oauth/disconnect']);

interface Req {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What the status must be, when the input decides it alone. */
  expect?: number;
  label: string;
}

let e: GatewayEnv;
let ops: Operation[];
let caps: { group: string; name: string; inputSchema: Record<string, unknown> | null }[];

beforeAll(async () => {
  e = await startGateway({ env: HARDENING_ENV });
  await e.link();
  ops = operations((await e.api('GET', '/openapi.json')).json).filter(
    (o) => !SKIP.has(`${o.method} ${o.path}`) && !OWN_FORMAT.has(`${o.method} ${o.path}`) && !isMcp(o.path),
  );
  caps = (await e.api('GET', '/api/video/capabilities')).json.items;
}, 60_000);
afterAll(() => e.close());

const KNOWN_PARAMS: Record<string, string[]> = {
  key: ['freight', 'mog'],
  path: ['design-tokens.css', 'docs/', 'assets/logo.svg'],
};

function pathParam(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...(KNOWN_PARAMS[name] ?? ['1', '85746065432'])),
    hostileString,
    fc.string({ maxLength: 30 }),
  );
}

function requestFor(op: Operation): fc.Arbitrary<Req> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const query = op.params.filter((p) => p.in === 'query');
  const capability = op.path === '/api/video/capabilities/{group}/{name}';
  const target: fc.Arbitrary<{ params: Record<string, string>; body: Record<string, unknown> | undefined }> =
    capability
      ? fc.oneof(
          // A real capability with input shaped by its own schema, or an unknown one.
          fc.constantFrom(...caps).chain((c) =>
            fromSchema(c.inputSchema ?? {}, 1).map((body) => ({
              params: { group: c.group, name: c.name },
              body: { v: body },
            })),
          ),
          fc
            .record({ group: pathParam('group'), name: pathParam('name') })
            .map((params) => ({ params, body: undefined })),
        )
      : fc
          .record(Object.fromEntries(pathParams.map((p) => [p.name, pathParam(p.name)])))
          .map((params) => ({ params, body: undefined }));
  const queryArb = fc.dictionary(
    fc.oneof(
      fc.constantFrom(...query.map((q) => q.name), '__proto__', 'constructor'),
      fc.string({ maxLength: 6 }),
    ),
    fc.oneof(
      ...(query.length ? [fc.constantFrom(...query).chain((q) => fromSchema(q.schema, 1))] : []),
      hostileValue,
    ),
    { maxKeys: 4 },
  );
  const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
  const bodyArb = (schema: Record<string, unknown> | undefined) =>
    fc.oneof(
      {
        weight: 5,
        arbitrary: fromSchema(schema ?? {}, 1).map((v) => ({ payload: JSON.stringify(v) ?? 'null' })),
      },
      {
        weight: 2,
        arbitrary: fromSchema(schema ?? {}, 0).map((v) => ({ payload: JSON.stringify(v) ?? 'null' })),
      },
      { weight: 1, arbitrary: hostileValue.map((v) => ({ payload: JSON.stringify(v) ?? 'null' })) },
      // Every one is refused with 400 before a handler runs, except duplicate keys and a leading
      // byte order mark: valid JSON, so a route that answers before validating (an unknown
      // capability's 404) answers first.
      {
        weight: 1,
        arbitrary: rawBody.map((payload) => ({
          payload,
          broken: payload !== DUPLICATE_KEYS && payload !== BOM_OBJECT,
        })),
      },
      {
        weight: 1,
        arbitrary: contentTypes.map((type) => ({ payload: '{"topic":"x"}', type })),
      },
    );
  return fc
    .record({
      target,
      query: queryArb,
      repeated: fc.boolean(),
      body: hasBody ? bodyArb(op.body) : fc.constant(undefined),
    })
    .chain((r) => {
      // The capability case carries its own body (from the capability's schema).
      type Body = { payload: string; broken?: boolean; type?: string } | undefined;
      const own: Body =
        capability && r.target.body ? { payload: JSON.stringify(r.target.body['v']) ?? 'null' } : r.body;
      const body = fc.constant(own);
      return body.map((b) => {
        let path = op.path;
        for (const [k, v] of Object.entries(r.target.params)) path = path.replace(`{${k}}`, enc(v));
        const qs = new URLSearchParams();
        for (const [k, v] of Object.entries(r.query)) {
          qs.append(k, asText(v));
          if (r.repeated) qs.append(k, asText(v));
        }
        const url = `${path}${qs.size ? `?${qs.toString()}` : ''}`;
        // The router refuses a (decoded) path parameter over its length limit before anything else looks.
        const tooLong = Object.values(r.target.params).some((v) => String(v).length > ROUTER_MAX_PARAM);
        // And an empty or dot-segment one routes nowhere (`/capabilities//x`; `/events/..` is
        // `/api/video/` once the URL is resolved): no body is read there, so its answer (404, or a
        // pipeline check's such as 415) is held only to the one error shape.
        const unrouted = Object.values(r.target.params).some((v) => ['', '.', '..'].includes(String(v)));
        const headers: Record<string, string> = {
          authorization: `Bearer ${e.config.apiKey ?? ''}`,
          accept: 'application/json',
        };
        if (!b) return { method: op.method, url, headers, label: `${op.method} ${op.path}` };
        headers['content-type'] = b.type ?? 'application/json';
        return {
          method: op.method,
          url,
          headers,
          payload: b.payload,
          label: `${op.method} ${op.path}`,
          ...(tooLong
            ? { expect: 414 }
            : unrouted
              ? {}
              : b.type
                ? { expect: 415 }
                : b.broken
                  ? { expect: 400 }
                  : {}),
        };
      });
    });
}

/** buildApp's routerOptions.maxParamLength. */
const ROUTER_MAX_PARAM = 200;

async function send(r: Req) {
  return e.app.inject({
    method: r.method as 'GET',
    url: r.url,
    headers: r.headers,
    ...(r.payload !== undefined ? { payload: r.payload } : {}),
  });
}

describe('bad input on every documented operation', () => {
  it('never answers 5xx, never pollutes a prototype, and every error has the one shape', async () => {
    const seen = tally();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ops).chain((op) => requestFor(op)),
        async (r) => {
          const res = await send(r);
          seen.add(r.label, res.statusCode);
          expect(({} as Record<string, unknown>)['polluted'], 'Object.prototype polluted').toBeUndefined();
          if (r.expect) expect(res.statusCode, `${r.label} ${r.url}`).toBe(r.expect);
          expectErrorShape(res, r.label);
        },
      ),
      { seed: FUZZ.seed, numRuns: runs(1500), verbose: 1 },
    );
    seen.report('http');
    // Every operation was tried, and the suite reached past validation into the emulator.
    expect(seen.labels()).toBeGreaterThanOrEqual(ops.length * 0.9);
    expect(seen.count((s) => s < 300)).toBeGreaterThan(100);
  }, 120_000);

  it('answers 413 over the body limit and 404/405 for unknown paths and methods', async () => {
    const jsonRoutes = ops.filter((o) => o.method === 'POST' || o.method === 'PATCH');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...jsonRoutes), async (op) => {
        const url = op.path.replace(/\{[^}]+\}/g, '1');
        const res = await send({
          method: op.method,
          url,
          headers: { authorization: `Bearer ${e.config.apiKey ?? ''}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ topic: 'x'.repeat(1024 * 1024 + 10) }),
          label: op.path,
        });
        expect(res.statusCode, url).toBe(413);
        expectErrorShape(res, url);
      }),
      { seed: FUZZ.seed, numRuns: Math.min(jsonRoutes.length * 2, runs(40)) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 40 }).map((s) => `/api/video/nope/${enc(s)}`),
          hostileString.map((s) => `/${enc(s)}/x/y`),
        ),
        async (url) => {
          const res = await send({ method: 'GET', url, headers: {}, label: url });
          // Invalid UTF-8 in the percent-encoding is a malformed URL before it is a missing one.
          if (res.statusCode === 400) expect(JSON.parse(res.body).error.code, url).toBe('bad_url');
          else expect(res.statusCode, url).toBe(404);
          expectErrorShape(res, url);
        },
      ),
      { seed: FUZZ.seed, numRuns: runs(100) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ops),
        fc.constantFrom('PUT', 'PATCH', 'DELETE', 'POST'),
        async (op, method) => {
          if (method === op.method || op.path.includes('{path}')) return;
          const url = op.path.replace(/\{[^}]+\}/g, '1');
          // Another documented path may take this URL with the method (a literal segment such as
          // /calendar/events/quick-add is also an /calendar/events/{eventId}).
          const takes = (o: (typeof ops)[number]) =>
            new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(url);
          if (ops.some((o) => o.method === method && takes(o))) return;
          const res = await send({ method, url, headers: {}, label: url });
          expect(res.statusCode, `${method} ${url}`).toBe(405);
          // Allow names what the path does take, and not what was refused.
          const allow = String(res.headers['allow']).toUpperCase().split(/,\s*/);
          expect(allow, `${method} ${url}`).toContain(op.method.toUpperCase());
          expect(allow, `${method} ${url}`).not.toContain(method);
          expectErrorShape(res, url);
        },
      ),
      { seed: FUZZ.seed, numRuns: runs(150) },
    );
  }, 60_000);
});
