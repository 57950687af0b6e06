/**
 * /openapi.json describes the whole HTTP surface, including capability inputs from their
 * validation schemas; /docs renders it locally.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
});
afterAll(() => e.close());

describe('OpenAPI', () => {
  it('is an OpenAPI 3.1 document covering brand, MCP, gateway and capability paths', async () => {
    const r = await e.api('GET', '/openapi.json', { key: null });
    expect(r.status).toBe(200);
    const doc = r.json;
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
    ]) {
      expect(Object.keys(doc.paths), p).toContain(p);
    }
    const create = doc.paths['/api/video/events'].post;
    expect(create.security).toEqual([{ apiKey: [] }]);
    // A funnel key or null (which keys are live is checked when the event is made).
    expect(create.requestBody.content['application/json'].schema.properties.funnel).toMatchObject({
      default: null,
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
    const list = doc.paths['/api/video/contacts'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'type', 'q']),
    );
    expect(doc.paths['/api/brand'].get.security).toBeUndefined();
    expect(doc.paths['/api/video/mcp'].post.security).toEqual([{ apiKey: [] }]);
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string }>>,
    )) {
      for (const op of Object.values(methods)) expect(op.operationId, path).toMatch(/^[a-z_0-9]+$/i);
    }
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
