/**
 * Assembles the gateway's services from configuration and injected I/O (store, fetch, clock):
 * token vault and manager, linking, the platform client with budgets, status and monitor, and
 * outgoing webhooks (subscriptions and the delivery worker, started by the caller).
 * HTTP adapters (http/routes/video-routes.ts) only call into what this returns.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { LinkService } from './oauth/link-service.js';
import { OAuthClient } from './oauth/oauth-client.js';
import { TokenManager } from './oauth/token-manager.js';
import type { KeySource } from './oauth/vault.js';
import type { Redis } from 'ioredis';
import { Budgets, PRO_BUDGETS, type BudgetKeeper } from './platform/budget.js';
import { DailyQuotas, dailyQuotaLimits } from './platform/daily-quotas.js';
import { RedisBudgets, RedisDailyUsage } from './platform/redis-budgets.js';
import { HostedMcpClient } from './platform/hosted-mcp-client.js';
import { PlatformClient } from './platform/platform-client.js';
import type { HostedMcp, OpContext } from './capabilities/operation.js';
import { buildMonitor, type MonitorReport } from './monitor.js';
import { keepAliveTransport, type Transport } from './platform/http-transport.js';
import { gatedFetch, gatedTransport, type PlatformGate } from './platform/gate.js';
import { RetentionJob } from './retention.js';
import { StatusService } from './status.js';
import { WebhookIntake } from './webhook-intake.js';
import { createOutgoingWebhooks, type OutgoingWebhooks } from './webhooks-out/outgoing.js';
import type { Resolver } from './webhooks-out/target-guard.js';
import { NO_OBSERVER, type GatewayObserver } from './observer.js';
import { activityLog, type ActivityLog } from './activity-log.js';
import { storedEventPages, type StoredEventPages } from './stored-events-pages.js';

export interface Gateway {
  store: Store;
  tokens: TokenManager;
  link: LinkService;
  platform: PlatformClient;
  budgets: BudgetKeeper;
  /** The platform's daily quotas as this gateway has counted them. */
  quotas: DailyQuotas;
  status: StatusService;
  monitor(): Promise<MonitorReport>;
  /** Pages of stored events and their registrations, for views (routes never read the store). */
  events: StoredEventPages;
  /** Recent webhooks in and out and link health, for the dashboard. */
  activity: ActivityLog;
  webhooks: WebhookIntake;
  /** Subscriptions and delivery to the business application; call start() to deliver. */
  outgoing: OutgoingWebhooks;
  /** Prunes old webhook receipts and idempotency keys; call start() to run it. */
  retention: RetentionJob;
  /** What capability operations run with, for the current link. */
  opContext(): Promise<OpContext>;
  keys: KeySource;
  configured: boolean;
  /** Where upstream calls, refreshes and webhook deliveries are reported (metrics). */
  observer: GatewayObserver;
  /** Stops delivery and pruning, writes pending daily counts, releases idle upstream connections. */
  close(): Promise<void>;
}

export interface GatewayDeps {
  config: Config;
  store: Store;
  keys: KeySource;
  logger: Logger;
  brandName: () => string;
  /** The live funnel theme keys (valid stored-event funnels). */
  funnels?: () => readonly string[];
  hostedMcp?: HostedMcp;
  /** Shared rate budgets across instances (REDIS_URL). */
  redis?: Redis;
  fetch?: typeof fetch;
  /** The platform REST transport; a keep-alive node:http transport by default. */
  transport?: Transport;
  /** DNS for subscriber hosts (the SSRF guard); default the system resolver. */
  resolve?: Resolver;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  observer?: GatewayObserver;
  /**
   * Asked before each request to the platform's hosts; an error keeps it from going out (sandbox
   * mode: while the emulator child is down, see platform/gate.ts).
   */
  platformGate?: PlatformGate;
}

export function createGateway(d: GatewayDeps): Gateway {
  const now = d.now ?? Date.now;
  const f = d.platformGate ? gatedFetch(d.fetch ?? fetch, d.platformGate) : (d.fetch ?? fetch);
  const observer = d.observer ?? NO_OBSERVER;
  const v = d.config.video;
  const configured = Boolean(v.clientId && v.clientSecret);
  const oauth = new OAuthClient({
    oauthBase: v.oauthBase,
    clientId: v.clientId ?? '',
    clientSecret: v.clientSecret ?? '',
    fetch: f,
    timeoutMs: 10_000,
  });
  const tokens = new TokenManager({
    store: d.store,
    keys: d.keys,
    oauth,
    now,
    marginMs: d.config.gateway.refreshMarginSeconds * 1000,
    logger: d.logger,
    accountId: v.accountId,
    onRefresh: (outcome) => observer.refresh(outcome),
  });
  const limits = { ...PRO_BUDGETS };
  for (const [label, limit] of Object.entries(d.config.gateway.budgets) as [
    keyof typeof PRO_BUDGETS,
    number,
  ][]) {
    limits[label] = { ...limits[label], limit };
  }
  const budgets: BudgetKeeper = d.redis
    ? new RedisBudgets(d.redis, limits, now, d.logger, `${d.config.redisPrefix}:budget`)
    : new Budgets(limits, now);
  const quotas = new DailyQuotas(
    d.redis ? new RedisDailyUsage(d.redis, `${d.config.redisPrefix}:daily`) : d.store.dailyUsage,
    d.redis ? 'redis' : 'database',
    dailyQuotaLimits(d.config.gateway.dailyQuotas),
    now,
    d.logger,
  );
  const http = keepAliveTransport();
  const platform = new PlatformClient({
    apiBase: v.apiBase,
    transport: d.platformGate
      ? gatedTransport(d.transport ?? http.transport, d.platformGate)
      : (d.transport ?? http.transport),
    tokens,
    budgets,
    now,
    logger: d.logger,
    timeoutMs: d.config.gateway.upstreamTimeoutMs,
    maxAttempts: 4,
    retryBaseMs: 200,
    retryMaxMs: 4000,
    maxWaitMs: 5000,
    quotas,
    // Every meeting the gateway writes is its linked user's.
    meetingHost: async () => (tokens.knownLink ?? (await d.store.getLink()))?.userId ?? 'me',
    observer,
    ...(d.sleep ? { sleep: d.sleep } : {}),
  });
  const outgoing = createOutgoingWebhooks({
    config: d.config.webhooksOut,
    store: d.store,
    keys: d.keys,
    logger: d.logger,
    now,
    ...(d.resolve ? { resolve: d.resolve } : {}),
  });
  const retention = new RetentionJob({
    store: d.store,
    now,
    logger: d.logger,
    policy: d.config.retention,
  });
  const hostedMcp =
    d.hostedMcp ?? new HostedMcpClient({ url: v.mcpUrl, tokens, fetch: f, timeoutMs: 10_000 });
  const status = new StatusService({
    store: d.store,
    platform,
    configured,
    brandName: d.brandName,
    now,
    cacheMs: 15_000,
    // Never longer than any call may take (FLEETGATE_UPSTREAM_TIMEOUT_MS).
    probeTimeoutMs: Math.min(3000, d.config.gateway.upstreamTimeoutMs),
    linkProblem: (l) => tokens.problem(l),
  });
  const link = new LinkService({
    store: d.store,
    keys: d.keys,
    oauth,
    tokens,
    apiBase: v.apiBase,
    redirectUri: v.redirectUri,
    accountId: v.accountId,
    fetch: f,
    now,
    logger: d.logger,
    onLinked: () => status.invalidate(),
  });
  return {
    store: d.store,
    tokens,
    link,
    platform,
    budgets,
    quotas,
    status,
    monitor: () =>
      buildMonitor({ store: d.store, platform, budgets, quotas, now, linkProblem: (l) => tokens.problem(l) }),
    events: storedEventPages(d.store),
    activity: activityLog(d.store),
    webhooks: new WebhookIntake({
      secret: v.webhookSecret,
      store: d.store,
      now,
      logger: d.logger,
      onRecording: () => status.invalidate(),
      onDeauthorized: () => {
        tokens.reset();
        status.invalidate();
      },
    }),
    outgoing,
    retention,
    async opContext() {
      // The link's mode, user and scopes change only by relinking, which resets the cache.
      const known = tokens.knownLink;
      const link = known ?? (await d.store.getLink());
      // A cached link's tokens opened; a stored one's may not (then the call fails needs_relink).
      const usable = link?.status === 'linked' && (known !== undefined || !tokens.problem(link));
      return {
        platform,
        store: d.store,
        uid: link?.mode === 's2s' ? link.userId : 'me',
        granted: usable ? link.scopes : undefined,
        now,
        funnels: d.funnels ?? (() => []),
        appId: v.clientId ?? '',
        hostedMcp,
      };
    },
    keys: d.keys,
    configured,
    observer,
    async close() {
      // The last second's uncapped daily counts are written before the store closes.
      await Promise.all([outgoing.stop(), retention.stop(), quotas.flush()]);
      http.close();
    },
  };
}
