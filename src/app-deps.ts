/**
 * What buildApp (app.ts) is given, in a file of its own so the pages it registers can name it
 * without importing the app that imports them.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BrandService } from './brand/brand-service.js';
import type { Config } from './config.js';
import type { Gateway } from './gateway/gateway.js';
import type { Metrics } from './http/metrics.js';
import type { PageDeps } from './pages/page-deps.js';

export interface AppDeps extends PageDeps {
  config: Config;
  logger: Logger;
  brand: BrandService;
  /** The integration gateway; absent, the /api/video paths are not served (brand-only tests). */
  gateway?: { gateway: Gateway; secrets: { apiKeyHash: Buffer } };
  /** Prometheus registry; pass the one the gateway reports into (createGateway's observer). */
  metrics?: Metrics;
  /** Shares our own rate-limit counters across instances (REDIS_URL). */
  redis?: Redis;
}
