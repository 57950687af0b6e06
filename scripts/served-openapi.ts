/**
 * The OpenAPI document exactly as the service serves it: a full app (brand, store, a configured
 * gateway) is built in-process over a throwaway data dir, and `GET /openapi.json` is injected
 * into it. Nothing listens and nothing calls the platform; the gateway is configured (with
 * unroutable upstreams) only so that its routes exist and describe themselves.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appGateway } from '../src/app-deps.js';
import { buildApp } from '../src/app.js';
import { BrandService } from '../src/brand/brand-service.js';
import { parseConfig } from '../src/config.js';
import { createGateway } from '../src/gateway/gateway.js';
import { loadSecrets } from '../src/gateway/secrets.js';
import { createMetrics } from '../src/http/metrics.js';
import { createLogger } from '../src/log.js';
import { createStore } from '../src/store/create-store.js';

const REPO = path.resolve(import.meta.dirname, '..');
/** Never contacted: building the document needs the gateway's routes, not its upstream. */
const NOWHERE = 'http://127.0.0.1:9';

export async function servedOpenApi(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-openapi-'));
  // Errors only: a document that fails to build says why.
  const logger = createLogger('error');
  const config = parseConfig({
    PUBLIC_URL: 'http://localhost:8080',
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_API_KEY: 'openapi-document-only-0123456789',
    VIDEO_CLIENT_ID: 'client',
    VIDEO_CLIENT_SECRET: 'secret',
    VIDEO_API_BASE: `${NOWHERE}/v2`,
    VIDEO_OAUTH_BASE: NOWHERE,
    VIDEO_MCP_URL: `${NOWHERE}/mcp`,
    VIDEO_WEBHOOK_SECRET: 'webhook-secret',
  });
  const store = await createStore({ databaseUrl: undefined, dataDir });
  const secrets = loadSecrets({ dataDir, apiKey: config.apiKey, encryptionKey: config.encryptionKey });
  const brand = await BrandService.start({
    dir: path.join(REPO, 'brand'),
    baseUrl: config.publicUrl,
    cacheDir: path.join(REPO, 'data', 'test-cache'),
    logger,
  });
  const metrics = createMetrics({ processMetrics: false });
  const gateway = createGateway({ config, store, keys: secrets.keys, logger, brandName: () => 'fleetgate' });
  const app = buildApp({ config, logger, brand, gateway: appGateway(gateway, secrets), metrics });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200)
      throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    return res.json();
  } finally {
    await app.close();
    await gateway.close();
    await store.close();
    await brand.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
