/**
 * A gateway wired to a real emulator over loopback, with its own SQLite file and data dir.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { appGateway } from '../../src/app-deps.js';
import { buildApp } from '../../src/app.js';
import { BrandService } from '../../src/brand/brand-service.js';
import { parseConfig, type Config } from '../../src/config.js';
import { createGateway, type Gateway } from '../../src/gateway/gateway.js';
import { autolinkOverHttp } from '../../src/gateway/oauth/autolink.js';
import { fetchTransport } from '../../src/gateway/platform/http-transport.js';
import { loadSecrets } from '../../src/gateway/secrets.js';
import { createMetrics } from '../../src/http/metrics.js';
import { createLogger } from '../../src/log.js';
import { createStore } from '../../src/store/create-store.js';
import type { Store } from '../../src/store/store.js';
import { REPO } from '../helpers/build-test-app.js';
import { freePort } from '../helpers/spawn-service.js';
import { REDIRECT, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import type { EmulatorOptions } from '../../packages/platform-emulator/src/options.js';

// Random, as an operator's should be: a process start refuses a placeholder (src/core/key-strength.ts).
export const API_KEY = `gw-test-${randomBytes(24).toString('base64url')}`;

export interface GatewayEnv {
  emu: TestEmulator;
  base: string;
  dataDir: string;
  config: Config;
  app: FastifyInstance;
  gateway: Gateway;
  store: Store;
  logs: () => string[];
  api(
    method: string,
    path: string,
    opts?: { body?: unknown; key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; json: any; text: string }>;
  link(): Promise<void>;
  /** A second gateway instance on the same data dir (another process, as far as the store knows). */
  twin(): Promise<GatewayEnv>;
  close(): Promise<void>;
}

let brand: BrandService | undefined;
async function sharedBrand(logger: ReturnType<typeof createLogger>): Promise<BrandService> {
  brand ??= await BrandService.start({
    dir: path.join(REPO, 'brand'),
    baseUrl: 'http://gw.test',
    cacheDir: path.join(REPO, 'data', 'test-cache'),
    logger,
  });
  return brand;
}

export async function startGateway(
  opts: {
    emulator?: Partial<EmulatorOptions>;
    env?: Record<string, string>;
    emu?: TestEmulator;
    dataDir?: string;
    /** false: this instance writes the webhook outbox but never delivers from it. */
    deliver?: boolean;
    /** Replaces every outbound call of the gateway, REST transport included (to watch each URL). */
    fetch?: typeof fetch;
    /** Shares our own rate-limit counters with other instances given the same client and prefix. */
    redis?: Redis;
    /** A store opened (and migrated) by the test, to reach its connection; else one on the data dir. */
    store?: Store;
    /** Told every wait the platform client asks for (retry backoff, budget pacing), in ms. */
    onSleep?: (ms: number) => void;
  } = {},
): Promise<GatewayEnv> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const emu =
    opts.emu ??
    (await startTestEmulator({
      redirectUris: [REDIRECT, `${base}/api/video/oauth/callback`],
      ...opts.emulator,
    }));
  if (opts.emu) emu.options.redirectUris.push(`${base}/api/video/oauth/callback`);
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'fleetgate-gw-')));
  const config = parseConfig({
    PORT: String(port),
    PUBLIC_URL: base,
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_API_KEY: API_KEY,
    VIDEO_CLIENT_ID: 'sandbox-client',
    VIDEO_CLIENT_SECRET: 'sandbox-secret',
    VIDEO_API_BASE: `${emu.base}/v2`,
    VIDEO_OAUTH_BASE: emu.base,
    VIDEO_MCP_URL: `${emu.base}/mcp`,
    VIDEO_WEBHOOK_SECRET: 'sandbox-webhook-secret',
    LOG_LEVEL: 'info',
    ...opts.env,
  });
  const lines: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => lines.push(...c.toString().split('\n').filter(Boolean)));
  const logger = createLogger('info', sink);
  const secrets = loadSecrets({ dataDir, apiKey: config.apiKey, encryptionKey: config.encryptionKey });
  const store =
    opts.store ??
    (await createStore({
      databaseUrl: config.databaseUrl,
      dataDir,
      ...(config.databaseSchema ? { schema: config.databaseSchema } : {}),
    }));
  const b = await sharedBrand(createLogger('silent'));
  const metrics = createMetrics({ processMetrics: false });
  const gateway = createGateway({
    observer: metrics.observer,
    ...(opts.fetch ? { fetch: opts.fetch, transport: fetchTransport(opts.fetch) } : {}),
    config,
    store,
    keys: secrets.keys,
    logger,
    brandName: () => b.current.source.info.name,
    funnels: () => b.current.themes.keys,
    sleep: (ms) => {
      opts.onSleep?.(ms);
      return new Promise((r) => setTimeout(r, Math.min(ms, 20)));
    },
  });
  const app = buildApp({
    config,
    logger,
    brand: b,
    gateway: appGateway(gateway, secrets),
    metrics,
    ...(opts.redis ? { redis: opts.redis } : {}),
  });
  await app.listen({ port, host: '127.0.0.1' });
  if (opts.deliver !== false) await gateway.outgoing.start();
  const env: GatewayEnv = {
    emu,
    base,
    dataDir,
    config,
    app,
    gateway,
    store,
    logs: () => lines,
    async api(method, p, o = {}) {
      const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
      if (o.key !== null) headers['authorization'] = `Bearer ${o.key ?? API_KEY}`;
      if (o.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${base}${p}`, {
        method,
        headers,
        body: o.body === undefined ? null : JSON.stringify(o.body),
        redirect: 'manual',
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.status, headers: res.headers, json, text };
    },
    async link() {
      await autolinkOverHttp({ selfBase: base, apiKey: API_KEY });
    },
    twin: () => startGateway({ emu, dataDir, ...(opts.env ? { env: opts.env } : {}) }),
    async close() {
      await app.close();
      await gateway.close();
      await store.close();
      if (!opts.emu) {
        await emu.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
  return env;
}
