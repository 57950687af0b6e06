/**
 * What buildApp (app.ts) is given, in a file of its own so the pages it registers can name it
 * without importing the app that imports them; and appGateway, the one way main.ts and the tests
 * make the services that hang off the gateway's store.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BrandService } from './brand/brand-service.js';
import { BrandVersions } from './brand/brand-versions.js';
import type { Config } from './config.js';
import type { Gateway } from './gateway/gateway.js';
import { dashboardSessions, type DashboardSessions } from './http/auth/sessions.js';
import type { Metrics } from './http/metrics.js';
import type { PageDeps } from './pages/page-deps.js';

/** The gateway, its key, and what lives in its store beside it. */
export interface AppGateway {
  gateway: Gateway;
  secrets: { apiKeyHash: Buffer };
  /** The dashboard's sessions, also checked for API calls that come with its cookie. */
  sessions: DashboardSessions;
  /** The brand's versions: the same instance the brand publishes each load through. */
  brandVersions: BrandVersions;
}

export interface AppDeps extends PageDeps {
  config: Config;
  logger: Logger;
  brand: BrandService;
  /** The integration gateway; absent, the /api/video paths are not served (brand-only tests). */
  gateway?: AppGateway;
  /** Prometheus registry; the one the gateway reports into (createGateway's observer). */
  metrics: Metrics;
  /** Shares our own rate-limit counters across instances (REDIS_URL). */
  redis?: Redis;
}

/**
 * The gateway's part of AppDeps. Brand versions are made before the gateway when the brand
 * publishes through them (main.ts), and passed in so there is one; else made here.
 */
export function appGateway(
  gateway: Gateway,
  secrets: { apiKeyHash: Buffer },
  brandVersions: BrandVersions = new BrandVersions(gateway.store),
): AppGateway {
  return {
    gateway,
    secrets,
    sessions: dashboardSessions(gateway.store, secrets.apiKeyHash),
    brandVersions,
  };
}
