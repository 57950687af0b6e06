/**
 * /openapi.json describes the whole HTTP surface as the server reads and answers it: inputs from
 * the validation schemas, every success body's schema, every error status with the one error
 * shape, path parameters as the routes name them and no query parameter repeating one; /docs
 * renders it locally. Routes refuse the path-bound ids they used to ignore in the query.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from './helpers.js';

interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface Media {
  schema?: Record<string, unknown>;
}
interface Op {
  operationId: string;
  parameters?: Param[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  security?: Record<string, string[]>[];
}
type Doc = { openapi: string; paths: Record<string, Record<string, Op>>; components: any };

let e: GatewayEnv;
let doc: Doc;
const ops = () =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      path,
      method,
      op,
      at: `${method.toUpperCase()} ${path}`,
    })),
  );
/** The JSON-RPC endpoints answer JSON-RPC errors, not the API's error shape. */
const MCP = new Set(['/mcp', '/api/video/mcp']);
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

beforeAll(async () => {
  e = await startGateway();
  doc = (await e.api('GET', '/openapi.json', { key: null })).json;
  // Shared answers (the error statuses) are components; read them in place.
  for (const methods of Object.values(doc.paths))
    for (const op of Object.values(methods))
      for (const [status, r] of Object.entries(op.responses)) {
        const ref = (r as { $ref?: string }).$ref;
        if (ref) op.responses[status] = doc.components.responses[ref.replace('#/components/responses/', '')];
      }
});
afterAll(() => e.close());

describe('OpenAPI', () => {
  it('is an OpenAPI 3.1 document covering brand, MCP, gateway, capability and page paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const p of [
      '/api/brand',
      '/api/brand/themes/{key}',
      '/mcp',
      '/api/video/mcp',
      '/api/video/status',
      '/api/video/monitor',
      '/api/video/events',
      '/api/video/events/{videoId}',
      '/api/video/appointments',
      '/api/video/contacts',
      '/api/video/search',
      '/api/video/webhooks',
      '/api/video/capabilities/{group}/{name}',
      '/dashboard',
      '/dashboard/events/{videoId}/delete',
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    const create = doc.paths['/api/video/events']!['post']!;
    expect(create.security).toEqual([{ apiKey: [] }]);
    // A funnel key or null (which keys are live is checked when the event is made).
    expect(create.requestBody?.content['application/json']?.schema?.['properties']).toMatchObject({
      funnel: { default: null, anyOf: [{ type: 'string' }, { type: 'null' }] },
    });
    const list = doc.paths['/api/video/contacts']!['get']!;
    expect(list.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'type', 'q']),
    );
    expect(doc.paths['/api/brand']!['get']!.security).toEqual([]);
    expect(doc.paths['/api/video/mcp']!['post']!.security).toEqual([{ apiKey: [] }]);
    for (const { at, op } of ops()) expect(op.operationId, at).toMatch(/^[a-z_0-9]+$/i);
  });

  it('gives every operation responses, and every 2xx with a body its schema', () => {
    for (const { at, op } of ops()) {
      const statuses = Object.keys(op.responses);
      expect(
        statuses.some((s) => /^[23]\d\d$/.test(s)),
        `${at} has a success answer`,
      ).toBe(true);
      for (const [status, r] of Object.entries(op.responses)) {
        if (status === '204' || status === '202' || status === '304' || /^3/.test(status)) {
          expect(r.content, `${at} ${status} has no body`).toBeUndefined();
          continue;
        }
        if (!status.startsWith('2')) continue;
        expect(Object.keys(r.content ?? {}).length, `${at} ${status} declares its body`).toBeGreaterThan(0);
        for (const [type, m] of Object.entries(r.content ?? {})) {
          expect(m.schema, `${at} ${status} ${type}`).toBeDefined();
          expect(
            Object.keys(m.schema ?? {}).length,
            `${at} ${status} ${type} schema is not empty`,
          ).toBeGreaterThan(0);
        }
      }
    }
  });

  it('answers every JSON error with the one error schema, and every API route has its 4xx', () => {
    const ref = { $ref: '#/components/schemas/Error' };
    expect(doc.components.schemas.Error).toMatchObject({
      required: ['error'],
      properties: { error: { required: ['code', 'message'] } },
    });
    for (const { at, path, op } of ops()) {
      const errors = Object.entries(op.responses).filter(([s]) => /^[45]\d\d$/.test(s));
      if (path.startsWith('/api/video/') || op.security?.some((s) => 'apiKey' in s))
        expect(
          errors.some(([s]) => s.startsWith('4')),
          `${at} declares its client errors`,
        ).toBe(true);
      for (const [status, r] of errors) {
        const json = r.content?.['application/json'];
        if (MCP.has(path)) {
          // JSON-RPC errors, and the private endpoint's 401 an OAuth bearer challenge.
          expect(json?.schema, `${at} ${status}`).toBeDefined();
          continue;
        }
        // The dashboard's refusals are pages; everything else answers in the one shape.
        if (r.content?.['text/html; charset=utf-8']) continue;
        expect(json?.schema, `${at} ${status}`).toEqual(ref);
      }
      if (op.security?.some((s) => 'apiKey' in s)) {
        expect(op.responses['401'], `${at} 401`).toBeDefined();
        expect(op.responses['429'], `${at} 429`).toBeDefined();
      }
    }
    const limited = doc.paths['/api/video/contacts']!['get']!.responses['429'] as { headers?: object };
    expect(limited.headers).toHaveProperty('Retry-After');
    expect(Object.keys(doc.paths['/api/video/capabilities/{group}/{name}']!['post']!.responses)).toEqual(
      expect.arrayContaining(['400', '401', '404', '409', '422', '429', '501', '502', '503', '504']),
    );
  });

  it('lists the path parameters each route names, and no query parameter repeating one', () => {
    for (const { at, path, method, op } of ops()) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const params = op.parameters ?? [];
      expect(
        params.filter((p) => p.in === 'path').map((p) => p.name),
        at,
      ).toEqual(inPath);
      for (const p of params.filter((x) => x.in === 'path')) expect(p.required, `${at} ${p.name}`).toBe(true);
      const query = params.filter((p) => p.in === 'query').map((p) => p.name);
      for (const name of inPath) {
        expect(query, `${at} repeats {${name}} in its query`).not.toContain(name);
        expect(query, `${at} repeats {${name}} in its query`).not.toContain(snake(name));
        const body = op.requestBody?.content['application/json']?.schema?.['properties'] ?? {};
        expect(Object.keys(body), `${at} repeats {${name}} in its body`).not.toContain(snake(name));
      }
      // The route that serves it names exactly these parameters (the static files: one `*` route,
      // documented one template per folder level).
      const found = e.app.findRoute({ method: method.toUpperCase(), url: path.replace(/\{\w+\}/g, 'x1') });
      expect(found, `${at} is a route`).not.toBeNull();
      const names = Object.keys(found?.params ?? {});
      expect(names, at).toEqual(path.startsWith('/static/fleet/') ? ['*'] : inPath);
    }
  });

  it('documents the static files a level at a time, so a template matches files in sub-folders', async () => {
    const templates = Object.keys(doc.paths).filter(
      (p) => p.startsWith('/static/fleet/{') || p.includes('{folder}'),
    );
    const match = (url: string) =>
      templates.some((t) => {
        const re = new RegExp(`^${t.replace(/\{\w+\}/g, '[^/]+')}$`);
        return re.test(url);
      });
    for (const url of [
      '/static/fleet/brand.css',
      '/static/fleet/fonts/fonts.css',
      '/static/fleet/assets/icons/icon.svg',
      '/static/fleet/assets/themes/growthos.svg',
    ]) {
      expect(match(url), url).toBe(true);
    }
    const served = await fetch(`${e.base}/static/fleet/assets/icons/icon.svg`);
    expect(served.status).toBe(200);
    const folder = doc.paths['/static/fleet/{folder}/{subfolder}/{file}']!['get']!.parameters!;
    expect(folder.find((p) => p.name === 'subfolder')?.schema?.['enum']).toContain('icons');
  });

  it('documents ?fresh= on the status report and the dashboard', () => {
    for (const path of ['/api/video/status', '/dashboard'])
      expect(
        doc.paths[path]!['get']!.parameters?.map((p) => p.name),
        path,
      ).toContain('fresh');
  });

  it('declares every date-only parameter as format date and every instant as format date-time', () => {
    const dated: string[] = [];
    const walk = (schema: Record<string, unknown> | undefined, at: string) => {
      if (!schema) return;
      for (const alt of (schema['anyOf'] as Record<string, unknown>[] | undefined) ?? []) walk(alt, at);
      if (schema['pattern'] === '^\\d{4}-\\d{2}-\\d{2}$') {
        expect(schema['format'], at).toBe('date');
        dated.push(at);
      }
    };
    for (const { op, at } of ops()) for (const p of op.parameters ?? []) walk(p.schema, `${at} ${p.name}`);
    // The stored lists' and the platform's date ranges, the agentic search's bounds among them.
    expect(dated).toEqual(
      expect.arrayContaining(['GET /api/video/ai/search from', 'GET /api/video/recordings to']),
    );
    const search = doc.paths['/api/video/ai/search']!['get']!.parameters!.find((p) => p.name === 'from')!;
    expect((search.schema?.['anyOf'] as { format?: string }[]).map((s) => s.format)).toEqual([
      'date',
      'date-time',
    ]);
  });

  it('documents only the read parameters on GET comments, the write ones on POST', () => {
    const comments = doc.paths['/api/video/ra/conversations/{conversationId}/comments']!;
    expect(comments['get']!.parameters?.map((p) => p.name)).toEqual(['conversationId', 'limit', 'cursor']);
    const body = comments['post']!.requestBody?.content['application/json']?.schema;
    expect(Object.keys((body?.['properties'] as object) ?? {}).sort()).toEqual([
      'comment',
      'is_private',
      'parent_comment_id',
      'time_in_recording',
    ]);
    expect(body?.['required']).toEqual(['comment']);
  });

  it('documents the MCP endpoints with JSON-RPC errors', () => {
    for (const path of MCP) {
      const r = doc.paths[path]!['post']!.responses;
      const schema = r['415']?.content?.['application/json']?.schema as { properties?: object };
      expect(Object.keys(schema.properties ?? {}).sort(), path).toEqual(['error', 'id', 'jsonrpc']);
    }
    expect(
      doc.paths['/api/video/mcp']!['post']!.responses['401']?.content?.['application/json']?.schema,
    ).toMatchObject({
      properties: { error: { type: 'string' } },
    });
  });

  it('declares for the MCP endpoints exactly the JSON-RPC ids they take: a string or an integer', async () => {
    // MCP's RequestId is a string or an integer; the endpoints refuse anything else with -32600,
    // integers beyond the safe range too, whether the answer is cached (the brand's tools/list,
    // after the first id) or not.
    const unsafe = [2 ** 53, -(2 ** 53) - 2, 1e21];
    const ids: unknown[] = [1, 0, -7, 2 ** 53 - 1, 'a1', '', 1.5, -0.25, 1e-7, null, true, {}, [], ...unsafe];
    for (const path of MCP) {
      const schema = doc.paths[path]!['post']!.requestBody?.content['application/json']?.schema;
      const declared = new Ajv2020({ strict: false }).compile(schema ?? {});
      for (const id of ids) {
        const body = { jsonrpc: '2.0', id, method: 'tools/list', params: {} };
        const r = await e.api('POST', path, {
          body,
          headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
        });
        const refused = r.status === 400 && r.json?.error?.code === -32600;
        expect({ path, id, takes: !refused }).toEqual({ path, id, takes: declared(body) });
        if (!refused) expect(r.status, `${path} ${JSON.stringify(id)}: ${r.text.slice(0, 200)}`).toBe(200);
      }
    }
  });

  it('holds the public JSON answers (brand, probes, the document itself) to their declared schemas', async () => {
    // The gateway's answers are held to the document by test/gateway/client-e2e.test.ts.
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components });
    const checked: string[] = [];
    for (const { at, path, op } of ops()) {
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      if (!schema || op.security?.length || /\/dashboard|\/api\/video\//.test(path)) continue;
      const url = path.replace('{key}', 'growthos');
      // The changelog needs a published brand version, which this instance keeps none of.
      if (url.includes('{') || MCP.has(path) || path === '/api/brand/changelog') continue;
      const r = await e.api('GET', url, { key: null });
      expect(r.status, at).toBe(200);
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components')),
      );
      validate(r.json);
      expect(validate.errors ?? [], at).toEqual([]);
      checked.push(path);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        '/api/brand',
        '/api/brand/themes/{key}',
        '/api/brand/fonts',
        '/healthz',
        '/readyz',
      ]),
    );
  });

  it('renders a reference page without scripts or third-party hosts', async () => {
    const res = await fetch(`${e.base}/docs`);
    const html = await res.text();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(html).toContain('/api/video/appointments');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/i);
  });
});

describe('path-bound ids', () => {
  // Each of these routes takes the id from its path; the same id in the query used to be ignored
  // (even an invalid one) and is now refused before the platform is asked.
  it.each([
    ['/api/video/ra/deals/D1/activities?deal_id=x%20y', 'deal_id'],
    ['/api/video/ra/conversations/C1/analysis?conversation_id=x', 'conversation_id'],
    ['/api/video/ra/conversations/C1/comments?conversation_id=x', 'conversation_id'],
    ['/api/video/events-hub/E1?event_id=nope', 'event_id'],
    ['/api/video/events-hub/E1/registrations?event_id=nope', 'event_id'],
    ['/api/video/events-hub/E1/sessions?event_id=nope', 'event_id'],
  ])('GET %s is a 400 naming %s', async (url, key) => {
    const r = await e.api('GET', url);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.json.error.details.issues[0].path).toBe(key);
  });

  it('refuses a path parameter repeated in the query of a view that takes it by name', async () => {
    for (const url of ['/api/video/recordings/123/files?video_id=456', '/api/video/clips/c1?clip_id=c2']) {
      const r = await e.api('GET', url);
      expect(r.status, url).toBe(400);
      expect(r.json.error.code, url).toBe('validation_failed');
    }
  });

  it('refuses event_id in the query of the calendar DELETE', async () => {
    const r = await e.api('DELETE', '/api/video/calendar/events/ev1?event_id=other');
    expect(r.status).toBe(400);
    expect(r.json.error.details.issues[0].path).toBe('event_id');
  });

  it('refuses a fresh value the status report does not read', async () => {
    const r = await e.api('GET', '/api/video/status?fresh=maybe');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_failed');
    for (const fresh of ['1', 'true', '0', 'false'])
      expect((await e.api('GET', `/api/video/status?fresh=${fresh}`)).status, fresh).toBe(200);
  });
});
