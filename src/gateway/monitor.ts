/**
 * The monitor (GET /api/video/monitor): every group and capability with an honest state, the
 * scopes it needs against those granted, the latest latency and success per group, whether the
 * platform can be reached and if not why (as the last calls found), the token's
 * expiry, the rate-budget headroom per second and the daily quotas left per label and per user,
 * when a webhook last arrived, and how outgoing webhooks fare (subscriptions, deliveries by
 * state, the latest deliveries).
 */
import type { LinkRecord, Store } from '../store/store.js';
import type { DeliveryCounts } from '../store/webhooks.js';
import { CAPABILITIES, type Availability } from './capabilities/catalog.js';
import type { LinkProblem } from './oauth/sealed-link.js';
import type { BudgetKeeper } from './platform/budget.js';
import type { DailyQuotaReport, DailyQuotas } from './platform/daily-quotas.js';
import type { PlatformClient } from './platform/platform-client.js';
import type { PlatformCause } from './platform/reachability.js';
import { deliveryToWire } from './webhooks-out/subscriptions.js';

export type CapabilityState =
  'ok' | 'missing_scope' | 'no_license' | 'no_public_api' | 'upstream_error' | 'not_linked';

export interface MonitorReport {
  checkedAt: string;
  link: {
    status: 'linked' | 'needs_relink' | 'not_linked';
    mode: 'user' | 's2s' | null;
    accountId: string | null;
    scopes: string[];
    tokenExpiresAt: string | null;
    tokenExpiresInSeconds: number | null;
    /** Why the link needs relinking (null when it does not). */
    cause: string | null;
  };
  /** The platform as its last calls found it: reachable, or why not and since when. */
  platform: {
    reachable: boolean;
    cause: PlatformCause | null;
    message: string | null;
    since: string | null;
    lastAnswerAt: string | null;
  };
  budgets: ReturnType<BudgetKeeper['headroom']>;
  budgetsShared: boolean;
  /** The platform's daily quotas today (absent when the gateway does not count them). */
  dailyQuotas?: DailyQuotaReport;
  webhooks: {
    lastReceived: { event: string; receivedAt: string } | null;
    outgoing: {
      subscriptions: number;
      deliveries: DeliveryCounts;
      recent: ReturnType<typeof deliveryToWire>[];
    };
  };
  groups: Record<
    string,
    {
      state: CapabilityState;
      breaker: 'closed' | 'open';
      latencyMs: number | null;
      lastSuccess: string | null;
      lastError: { at: string; code: string } | null;
      capabilities: {
        name: string;
        state: CapabilityState;
        availability: Availability;
        scopesNeeded: string[];
        scopesGranted: string[];
        note?: string;
      }[];
    }
  >;
}

const WORST: CapabilityState[] = [
  'not_linked',
  'upstream_error',
  'missing_scope',
  'no_license',
  'ok',
  'no_public_api',
];

/** One capability's state in a monitor report; a capability the report lacks counts as not linked. */
export function capabilityState(m: MonitorReport, group: string, name: string): CapabilityState {
  return m.groups[group]?.capabilities.find((c) => c.name === name)?.state ?? 'not_linked';
}

export async function buildMonitor(d: {
  store: Store;
  platform: PlatformClient;
  budgets: BudgetKeeper;
  quotas?: DailyQuotas;
  now: () => number;
  /** Why the link's sealed tokens cannot be opened, if they cannot (TokenManager.problem). */
  linkProblem?: (link: LinkRecord) => LinkProblem | undefined;
}): Promise<MonitorReport> {
  const [link, lastWebhook, subscriptions, deliveries, recent, dailyQuotas] = await Promise.all([
    d.store.getLink(),
    d.store.lastWebhook(),
    d.store.webhooks.listSubscriptions(),
    d.store.webhooks.deliveryCounts(),
    d.store.webhooks.recentDeliveries({ limit: 10 }),
    d.quotas?.report(),
  ]);
  // Tokens that do not open are a link that needs relinking, though the store still says linked.
  const problem = link?.status === 'linked' ? d.linkProblem?.(link) : undefined;
  const status = !link ? 'not_linked' : problem ? 'needs_relink' : link.status;
  const linked = status === 'linked';
  const groups = capabilityGroups(d.platform, linked, new Set(link?.scopes ?? []));
  const now = d.now();
  const trouble = d.platform.trouble();
  return {
    checkedAt: new Date(now).toISOString(),
    link: {
      status,
      mode: link?.mode ?? null,
      accountId: link?.accountId ?? null,
      scopes: link?.scopes ?? [],
      tokenExpiresAt: link ? new Date(link.accessExpiresAt).toISOString() : null,
      tokenExpiresInSeconds: link ? Math.round((link.accessExpiresAt - now) / 1000) : null,
      cause: problem
        ? problem.cause
        : status === 'needs_relink'
          ? 'the platform no longer accepts the stored tokens (a refresh was refused)'
          : null,
    },
    platform: {
      reachable: trouble?.reachable ?? true,
      cause: trouble?.cause ?? null,
      message: trouble?.message ?? null,
      since: trouble?.since ?? null,
      lastAnswerAt: d.platform.lastAnswerAt(),
    },
    budgets: d.budgets.headroom(),
    budgetsShared: d.budgets.shared,
    ...(dailyQuotas ? { dailyQuotas } : {}),
    webhooks: {
      lastReceived: lastWebhook ?? null,
      outgoing: { subscriptions: subscriptions.length, deliveries, recent: recent.map(deliveryToWire) },
    },
    groups,
  };
}

/** Every capability's state, by group; a group is as bad as its worst capability. */
function capabilityGroups(
  platform: PlatformClient,
  linked: boolean,
  granted: Set<string>,
): MonitorReport['groups'] {
  const groups: MonitorReport['groups'] = {};
  for (const c of CAPABILITIES) {
    const health = platform.health(c.group);
    const has = c.scopes.filter((s) => granted.has(s));
    const state = stateOf(c, health, linked, has);
    const g = (groups[c.group] ??= {
      state: 'no_public_api',
      breaker: health?.breaker ?? 'closed',
      latencyMs: health?.lastLatencyMs ?? null,
      lastSuccess: health?.lastSuccess ?? null,
      lastError: health?.lastError ?? null,
      capabilities: [],
    });
    g.capabilities.push({
      name: c.name,
      state,
      availability: c.availability,
      scopesNeeded: c.scopes,
      scopesGranted: has,
      ...(c.note ? { note: c.note } : {}),
    });
    if (WORST.indexOf(state) < WORST.indexOf(g.state)) g.state = state;
  }
  return groups;
}

/** `has`: the capability's scopes the link was granted. */
function stateOf(
  c: (typeof CAPABILITIES)[number],
  health: ReturnType<PlatformClient['health']>,
  linked: boolean,
  has: string[],
): CapabilityState {
  const errorIsLatest =
    !!health?.lastError && (!health.lastSuccess || health.lastError.at > health.lastSuccess);
  if (c.availability === 'no_public_api') return 'no_public_api';
  if (!linked) return 'not_linked';
  if (c.scopes.length > 0 && has.length === 0) return 'missing_scope';
  if (errorIsLatest && health?.lastError?.code === 'no_license') return 'no_license';
  if (errorIsLatest && health?.lastError?.code.startsWith('upstream_')) return 'upstream_error';
  return 'ok';
}
