/**
 * The answers of the gateway's own paths (status report, monitor, linking, webhook
 * subscriptions) as zod schemas for the OpenAPI document. The gateway builds these answers as
 * TypeScript types; the `Holds` checks fail the build when a type and its schema part.
 */
import * as z from 'zod';
import type { MonitorReport } from '../../gateway/monitor.js';
import { PLATFORM_CAUSES } from '../../gateway/platform/reachability.js';
import type { StatusReport } from '../../gateway/status.js';
import type { Holds } from '../openapi.js';

const at = z.string().describe('ISO 8601 time');
const state = z.enum(['ok', 'missing_scope', 'no_license', 'no_public_api', 'upstream_error', 'not_linked']);
const platformCause = z
  .enum(PLATFORM_CAUSES)
  .describe(
    'connection_refused, dns_failure (the host name does not resolve), timeout (no answer within FLEETGATE_UPSTREAM_TIMEOUT_MS), connection_reset, host_unreachable, tls_failure, network_error (another socket error), server_error (the platform answers 5xx), token_refresh_failed (the access token could not be renewed)',
  );
const labels = <T extends z.ZodType>(v: T) =>
  z.object({ LIGHT: v, MEDIUM: v, HEAVY: v, RESOURCE_INTENSIVE: v });

const storedEventSummary = z.object({
  video_id: z.string(),
  topic: z.string(),
  kind: z.literal('meeting'),
  start_time: z.string(),
  funnel: z.string().nullable(),
  status: z.enum(['scheduled', 'started', 'ended', 'cancelled']),
});

export const statusReport = z.object({
  ok: z.boolean(),
  platform: z
    .object({
      reachable: z.boolean().describe('false while calls get no answer; true for server_error'),
      cause: platformCause,
      message: z.string().describe('the cause and the host, for people (also the note)'),
      since: at.describe('the first failure of the current run'),
    })
    .optional()
    .describe(
      'Not a seed field: present only when every probe of the report failed for want of the platform (then ok is false); absent while the platform answers.',
    ),
  configured: z.boolean(),
  brand: z.string(),
  account: z
    .object({ id: z.string(), email: z.string(), name: z.string(), type: z.number(), pmi: z.number() })
    .nullable(),
  webinarLicense: z.boolean(),
  note: z.string(),
  upcomingLive: z.array(
    z.object({
      video_id: z.string(),
      topic: z.string(),
      start_time: z.string(),
      join_url: z.string().nullable(),
    }),
  ),
  storedEvents: z.array(storedEventSummary),
  registrationsTotal: z.number(),
  recentRecordings: z.array(
    z.object({
      video_id: z.string(),
      topic: z.string(),
      start_time: z.string(),
      files: z.number(),
      total_size: z.number(),
    }),
  ),
  contactsOk: z.boolean(),
  phoneOk: z.boolean(),
  clipsOk: z.boolean(),
  capabilityMap: z.record(z.string(), z.array(z.string())),
  capabilities: z.array(z.string()),
  apis: z.record(z.string(), z.string()),
  checkedAt: at,
});
export type StatusHolds = Holds<StatusReport, z.output<typeof statusReport>>;

const delivery = z.object({
  id: z.string(),
  message_id: z.string(),
  subscription_id: z.string(),
  type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  last_status: z.number().nullable(),
  last_error: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
});
const deliveryCounts = z.object({ pending: z.number(), delivered: z.number(), failed: z.number() });
const quotaUse = z.object({
  limit: z.number().nullable(),
  used: z.number(),
  remaining: z.number().nullable(),
  exhausted: z.boolean(),
});

export const monitorReport = z.object({
  checkedAt: at,
  link: z.object({
    status: z.enum(['linked', 'needs_relink', 'not_linked']),
    mode: z.enum(['user', 's2s']).nullable(),
    accountId: z.string().nullable(),
    scopes: z.array(z.string()),
    tokenExpiresAt: z.string().nullable(),
    tokenExpiresInSeconds: z.number().nullable(),
    cause: z.string().nullable(),
  }),
  platform: z
    .object({
      reachable: z.boolean(),
      cause: platformCause.nullable(),
      message: z.string().nullable(),
      since: z.string().nullable().describe('ISO 8601: the first failure of the current run'),
      lastAnswerAt: z.string().nullable().describe('ISO 8601: the platform last answered anything'),
    })
    .describe('The platform as the last calls found it; cause null while it answers.'),
  budgets: labels(z.object({ limit: z.number(), windowMs: z.number(), available: z.number() })),
  budgetsShared: z.boolean(),
  dailyQuotas: z
    .object({
      day: z.string(),
      resetsAt: at,
      countedIn: z.enum(['redis', 'database']),
      labels: labels(
        quotaUse.extend({ quota: z.enum(['light', 'medium', 'heavy', 'meeting_writes_per_user']) }),
      ),
      meetingWrites: z.object({ limit: z.number().nullable(), users: z.record(z.string(), quotaUse) }),
    })
    .optional(),
  webhooks: z.object({
    lastReceived: z.object({ event: z.string(), receivedAt: at }).nullable(),
    outgoing: z.object({ subscriptions: z.number(), deliveries: deliveryCounts, recent: z.array(delivery) }),
  }),
  groups: z.record(
    z.string(),
    z.object({
      state,
      breaker: z.enum(['closed', 'open']),
      latencyMs: z.number().nullable(),
      lastSuccess: z.string().nullable(),
      lastError: z.object({ at, code: z.string() }).nullable(),
      capabilities: z.array(
        z.object({
          name: z.string(),
          state,
          availability: z.enum(['rest', 'hosted_mcp', 'composed', 'no_public_api']),
          scopesNeeded: z.array(z.string()),
          scopesGranted: z.array(z.string()),
          note: z.string().optional(),
        }),
      ),
    }),
  ),
});
export type MonitorHolds = Holds<MonitorReport, z.output<typeof monitorReport>>;

const subscription = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  source: z.enum(['api', 'env']),
  created_at: z.string(),
});

export const subscriptionSchemas = {
  created: z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    secret: z.string().describe('whsec_…: the signing secret, shown this once'),
  }),
  list: z.object({ items: z.array(subscription.extend({ deliveries: deliveryCounts })) }),
  one: subscription.extend({ deliveries: deliveryCounts, recent_deliveries: z.array(delivery) }),
  deleted: z.object({ deleted: z.literal(true), id: z.string() }),
};

export const linkSchemas = {
  started: z.object({ authorizeUrl: z.string().describe("the platform's consent page") }),
  linked: z.object({
    linked: z.literal(true),
    account: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  }),
  disconnected: z.object({
    linked: z.literal(false),
    revoked: z.boolean().describe('whether the platform confirmed revoking the tokens'),
  }),
};
