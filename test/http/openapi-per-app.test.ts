/**
 * Each app's /openapi.json describes that app's own routes: apps built in one process (as the
 * tests build many) must not see each other's. A brand-only app built after a gateway one lists
 * no gateway, dashboard or webhook path, and the gateway's still lists its own; and neither
 * documents an operation it does not serve.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';

let gw: GatewayEnv;
let brandOnly: TestApp;

beforeAll(async () => {
  gw = await startGateway();
  brandOnly = await buildTestApp();
});
afterAll(async () => {
  await brandOnly?.close();
  await gw?.close();
});

const pathsOf = async (get: () => Promise<string>) =>
  Object.keys((JSON.parse(await get()) as { paths: Record<string, unknown> }).paths);

describe('the OpenAPI document per app', () => {
  it('lists only the routes the app serves', async () => {
    const brandPaths = await pathsOf(
      async () => (await brandOnly.app.inject({ method: 'GET', url: '/openapi.json' })).body,
    );
    const gatewayPaths = await pathsOf(
      async () => (await gw.api('GET', '/openapi.json', { key: null })).text,
    );
    expect(brandPaths).toContain('/api/brand/tokens');
    expect(brandPaths.filter((p) => p.startsWith('/api/video') || p.startsWith('/dashboard'))).toEqual([]);
    expect(gatewayPaths).toContain('/api/video/status');
    expect(gatewayPaths).toContain('/dashboard');
  });

  it('documents only operations the app serves', async () => {
    const unserved = (app: FastifyInstance, body: string) =>
      Object.entries((JSON.parse(body) as { paths: Record<string, Record<string, unknown>> }).paths)
        .flatMap(([path, ops]) => Object.keys(ops).map((m) => [m.toUpperCase(), path] as const))
        // The brand's files are served by one wildcard route and documented a folder at a time.
        .filter(([, path]) => !path.startsWith('/static/fleet/'))
        .map(([method, path]) => ({ method, url: path.replace(/\{(\w+)\}/g, ':$1') }))
        .filter((r) => !app.hasRoute(r))
        .map((r) => `${r.method} ${r.url}`);
    const brandDoc = (await brandOnly.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    const gatewayDoc = (await gw.api('GET', '/openapi.json', { key: null })).text;
    expect(unserved(brandOnly.app, brandDoc)).toEqual([]);
    expect(unserved(gw.app, gatewayDoc)).toEqual([]);
  });
});
