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
  const f = d.platformGate ? gatedFetch(d.fetch ?? fetch, d.platformGate) : (d.fetch ?? fetch);
  const p: Parts = { d, now: d.now ?? Date.now, fetch: f, observer: d.observer ?? NO_OBSERVER };
  const { now, observer } = p;
  const v = d.config.video;
  const configured = Boolean(v.clientId && v.clientSecret);
  const oauth = oauthClient(p);
  const tokens = tokenManager(p, oauth);
  const budgets = budgetKeeper(p);
  const quotas = dailyQuotas(p);
  const http = keepAliveTransport();
  const platform = platformClient(p, http.transport, { tokens, budgets, quotas });
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
  const status = statusService(p, platform, configured, tokens);
  const link = linkService(p, oauth, tokens, status);
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
    webhooks: webhookIntake(p, tokens, status),
    outgoing,
    retention,
    opContext: opContexts(p, tokens, platform, hostedMcp),
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

/** What every part of the gateway is built with: the deps, the clock, fetch (gated) and the observer. */
interface Parts {
  d: GatewayDeps;
  now: () => number;
  fetch: typeof fetch;
  observer: GatewayObserver;
}

function oauthClient({ d, fetch }: Parts): OAuthClient {
  const v = d.config.video;
  return new OAuthClient({
    oauthBase: v.oauthBase,
    clientId: v.clientId ?? '',
    clientSecret: v.clientSecret ?? '',
    fetch,
    timeoutMs: 10_000,
  });
}

function tokenManager({ d, now, observer }: Parts, oauth: OAuthClient): TokenManager {
  return new TokenManager({
    store: d.store,
    keys: d.keys,
    oauth,
    now,
    marginMs: d.config.gateway.refreshMarginSeconds * 1000,
    logger: d.logger,
    accountId: d.config.video.accountId,
    onRefresh: (outcome) => observer.refresh(outcome),
  });
}

/** The platform's rate budgets, with the configured limits over the Pro plan's; shared through Redis if set. */
function budgetKeeper({ d, now }: Parts): BudgetKeeper {
  const limits = { ...PRO_BUDGETS };
  for (const [label, limit] of Object.entries(d.config.gateway.budgets) as [
    keyof typeof PRO_BUDGETS,
    number,
  ][]) {
    limits[label] = { ...limits[label], limit };
  }
  return d.redis
    ? new RedisBudgets(d.redis, limits, now, d.logger, `${d.config.redisPrefix}:budget`)
    : new Budgets(limits, now);
}

function dailyQuotas({ d, now }: Parts): DailyQuotas {
  return new DailyQuotas(
    d.redis ? new RedisDailyUsage(d.redis, `${d.config.redisPrefix}:daily`) : d.store.dailyUsage,
    d.redis ? 'redis' : 'database',
    dailyQuotaLimits(d.config.gateway.dailyQuotas),
    now,
    d.logger,
  );
}

/** `keepAlive` is the default transport, used unless the deps bring their own. */
function platformClient(
  { d, now, observer }: Parts,
  keepAlive: Transport,
  { tokens, budgets, quotas }: { tokens: TokenManager; budgets: BudgetKeeper; quotas: DailyQuotas },
): PlatformClient {
  return new PlatformClient({
    apiBase: d.config.video.apiBase,
    transport: d.platformGate
      ? gatedTransport(d.transport ?? keepAlive, d.platformGate)
      : (d.transport ?? keepAlive),
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
}

function statusService(
  { d, now }: Parts,
  platform: PlatformClient,
  configured: boolean,
  tokens: TokenManager,
): StatusService {
  return new StatusService({
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
}

function linkService(
  { d, now, fetch }: Parts,
  oauth: OAuthClient,
  tokens: TokenManager,
  status: StatusService,
): LinkService {
  const v = d.config.video;
  return new LinkService({
    store: d.store,
    keys: d.keys,
    oauth,
    tokens,
    apiBase: v.apiBase,
    redirectUri: v.redirectUri,
    accountId: v.accountId,
    fetch,
    now,
    logger: d.logger,
    onLinked: () => status.invalidate(),
  });
}

function webhookIntake({ d, now }: Parts, tokens: TokenManager, status: StatusService): WebhookIntake {
  return new WebhookIntake({
    secret: d.config.video.webhookSecret,
    store: d.store,
    now,
    logger: d.logger,
    onRecording: () => status.invalidate(),
    onDeauthorized: () => {
      tokens.reset();
      status.invalidate();
    },
  });
}

function opContexts(
  { d, now }: Parts,
  tokens: TokenManager,
  platform: PlatformClient,
  hostedMcp: HostedMcp,
): () => Promise<OpContext> {
  return async () => {
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
      appId: d.config.video.clientId ?? '',
      hostedMcp,
    };
  };
}
