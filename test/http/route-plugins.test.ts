/**
 * Each area of the HTTP surface is its own encapsulated Fastify plugin, a direct child of the
 * root (whose hooks, limits and route table reach into every one); what an area adds (parsers,
 * error handlers, hooks) stays inside it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';

let gw: GatewayEnv;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw?.close());

/** The names of the root's direct children in Fastify's plugin tree. */
const rootPlugins = (tree: string) =>
  tree
    .split('\n')
    .map((line) => /^[├└]─[─┬] (\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);

describe('the route plugins', () => {
  it('register each area as a named plugin of the root', () => {
    expect(rootPlugins(gw.app.printPlugins())).toEqual(
      expect.arrayContaining([
        'healthRoutes',
        'brandRoutes',
        'brandVersionRoutes',
        'brandMcpRoutes',
        'gatewayMcpRoutes',
        'videoRoutes',
        'portalPage',
        'dashboardPage',
        'referenceRoutes',
      ]),
    );
  });

  it('still answer with the root hooks: request id, security headers, and 405 from the route table', async () => {
    for (const path of ['/healthz', '/api/brand', '/openapi.json', '/docs', '/', '/dashboard']) {
      const r = await gw.api('GET', path, { key: null });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('x-request-id'), path).toBeTruthy();
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
    const wrong = await gw.api('DELETE', '/healthz', { key: null });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });
});
