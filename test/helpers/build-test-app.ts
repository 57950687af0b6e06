/**
 * Builds the app in-process over a brand folder, with a throwaway data dir and a logger whose
 * lines the test can read. Close it with the returned close().
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { BrandService } from '../../src/brand/brand-service.js';
import { parseConfig } from '../../src/config.js';
import { createMetrics, type Metrics } from '../../src/http/metrics.js';
import { createLogger } from '../../src/log.js';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const BASE = 'http://brand.test:8080';

export interface TestApp {
  app: FastifyInstance;
  brand: BrandService;
  dataDir: string;
  logs: () => string[];
  close: () => Promise<void>;
}

export async function buildTestApp(
  opts: {
    brandDir?: string;
    watch?: boolean;
    env?: Record<string, string>;
    redis?: Redis;
    metrics?: Metrics;
  } = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-test-'));
  const config = parseConfig({
    PUBLIC_URL: BASE,
    FLEETGATE_DATA_DIR: dataDir,
    BRAND_DIR: opts.brandDir ?? path.join(REPO, 'brand'),
    LOG_LEVEL: 'info',
    ...opts.env,
  });
  const lines: string[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const logger = createLogger(config.logLevel, sink);
  const brand = await BrandService.start({
    dir: config.brandDir,
    baseUrl: config.publicUrl,
    cacheDir: path.join(REPO, 'data', 'test-cache'),
    logger,
  });
  if (opts.watch) await brand.watch(50);
  const app = buildApp({
    config,
    logger,
    brand,
    metrics: opts.metrics ?? createMetrics(),
    ...(opts.redis ? { redis: opts.redis } : {}),
  });
  await app.ready();
  return {
    app,
    brand,
    dataDir,
    logs: () => lines,
    close: async () => {
      await app.close();
      await brand.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until check() passes or the attempts run out (no wall-clock assertion). */
export { eventually } from '../../packages/platform-emulator/test/helpers/wait.js';
