/**
 * The edge is keyed by the one route table: a GET or HEAD of a route that declared a
 * precomputed pick is answered before Fastify routes it (no hook runs), with the request id
 * and counted under the route's pattern; a pick that declines, another method, a path the table
 * does not know and a route without a pick all go on to Fastify, whose not-found handler answers
 * 405 from the same table.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precomputedEdge, type Edge } from '../../src/http/edge.js';
import { sendNotFound } from '../../src/http/errors.js';
import { sendPrecomputed } from '../../src/http/precomputed.js';
import { routeTable } from '../../src/http/route-table.js';
import { precompute } from '../../src/core/precomputed.js';

const doc = precompute('{"a":1}', { contentType: 'application/json', cacheControl: 'no-cache' });
let app: FastifyInstance;
let base: string;
let routed = 0;
const counted: string[] = [];

beforeAll(async () => {
  // Set once the table exists; the server is made before it (as in app.ts).
  const late: { edge?: Edge } = {};
  app = Fastify({
    serverFactory: (handler) =>
      createServer((req, res) => {
        if (!late.edge?.(req, res)) handler(req, res);
      }),
  });
  const table = routeTable(app, sendNotFound);
  late.edge = precomputedEdge(table, (method, route, status) => counted.push(`${method} ${route} ${status}`));
  app.addHook('onRequest', (_req, _reply, done) => {
    routed++;
    done();
  });
  const pick = (_path: string, query: string) => (query === '' ? doc : undefined);
  app.get('/api/brand/:key', { config: { precomputed: pick } }, (req, reply) =>
    sendPrecomputed(req, reply, doc),
  );
  app.get('/api/brand-plain', (req, reply) => sendPrecomputed(req, reply, doc));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe('the edge', () => {
  it('answers a route that declared a pick without routing it', async () => {
    routed = 0;
    const r = await fetch(`${base}/api/brand/x`, { headers: { 'x-request-id': 'edge-1' } });
    expect(await r.json()).toEqual({ a: 1 });
    expect(r.headers.get('x-request-id')).toBe('edge-1');
    expect(r.headers.get('etag')).toBe(doc.etag);
    const again = await fetch(`${base}/api/brand/x`, { headers: { 'if-none-match': doc.etag } });
    expect(again.status).toBe(304);
    expect(routed).toBe(0);
    expect(counted.slice(-2)).toEqual(['GET /api/brand/:key 200', 'GET /api/brand/:key 304']);
  });

  it('leaves everything else to Fastify', async () => {
    routed = 0;
    expect((await fetch(`${base}/api/brand/x?v=1`)).status).toBe(200);
    expect((await fetch(`${base}/api/brand-plain`)).status).toBe(200);
    const post = await fetch(`${base}/api/brand/x`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(`${base}/nothing`)).status).toBe(404);
    expect(routed).toBe(4);
  });
});
