/**
 * Everything the emulator is configured with. main.ts (or a test) fills it; nothing here reads
 * the environment.
 */
import type { Logger } from 'pino';
import type { PlatformRequest } from './contract/check.js';

export type RateLabel = 'LIGHT' | 'MEDIUM' | 'HEAVY' | 'RESOURCE_INTENSIVE';

export interface EmulatorOptions {
  /** Base URL the emulator is reached at, e.g. http://127.0.0.1:3001 (no /v2). */
  baseUrl: string;
  /** Folder for the persisted state; undefined keeps everything in memory (tests). */
  dataDir: string | undefined;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  redirectUris: string[];
  webhookUrl: string | undefined;
  /** Scopes granted to every token; undefined grants every scope the emulator knows except webinar ones. */
  scopes: string[] | undefined;
  accessTtlSeconds: number;
  refreshTtlDays: number;
  rateLimits: boolean;
  /** Daily caps, reset 00:00 UTC (enforced with rateLimits); the platform's when undefined. */
  dailyLimits?: DailyLimits;
  /** Quirk: 429s lose their rate-limit headers, as the real platform's sometimes do. */
  omitRateLimitHeaders?: boolean;
  /** false: /oauth/authorize answers access_denied, as when a user clicks "Decline". */
  autoApprove: boolean;
  /** Delays before webhook retries 1..3 (the platform uses 5, 20 and 60 minutes). */
  webhookRetryDelaysMs: number[];
  /** How often the webhook endpoint is re-validated; 72 h (the platform's) when undefined, 0 never. */
  webhookValidationIntervalMs?: number;
  seed: number;
  now: () => Date;
  logger: Logger;
  /**
   * Told of every request to the platform's surface (/v2, /oauth, /mcp) as received: the
   * suite's strict contract check over the full published documents. Unset outside tests.
   */
  onPlatformRequest?: (req: PlatformRequest) => void;
}

/**
 * The platform's daily caps; null is none. Heavy and Resource-intensive calls share one daily
 * quota on paid plans, so `heavy` caps both together.
 */
export interface DailyLimits {
  light: number | null;
  medium: number | null;
  heavy: number | null;
  /** Meeting creates, updates and deletes per host user. */
  meetingWritesPerUser: number | null;
}

/** The Pro plan: only the shared Heavy/Resource-intensive cap, and 100 meeting writes per user. */
export const PLATFORM_DAILY_LIMITS: DailyLimits = {
  light: null,
  medium: null,
  heavy: 30_000,
  meetingWritesPerUser: 100,
};

const DAILY_NAMES = {
  light: 'light',
  medium: 'medium',
  heavy: 'heavy',
  // The same shared quota, by the other label that draws on it.
  resource_intensive: 'heavy',
  meeting_writes_per_user: 'meetingWritesPerUser',
} as const;

/**
 * SANDBOX_DAILY_LIMITS, e.g. `meeting_writes_per_user=3,heavy=5`: unnamed limits keep the
 * platform's. Throws a message naming the bad part.
 */
export function parseDailyLimits(text: string | undefined): DailyLimits {
  const out = { ...PLATFORM_DAILY_LIMITS };
  let heavySet = false;
  for (const part of (text ?? '').split(',')) {
    if (!part.trim()) continue;
    const [rawName, rawValue] = part.split('=').map((x) => x.trim().toLowerCase());
    const key = DAILY_NAMES[rawName as keyof typeof DAILY_NAMES] as keyof DailyLimits | undefined;
    const n = Number(rawValue);
    if (!key || rawValue === undefined || !Number.isInteger(n) || n < 0)
      throw new Error(
        `SANDBOX_DAILY_LIMITS: "${part.trim()}" is not name=n with a name of ${Object.keys(DAILY_NAMES).join(', ')}`,
      );
    // Both names given: the smaller is the shared quota.
    if (key === 'heavy' && heavySet) out.heavy = Math.min(out.heavy ?? n, n);
    else out[key] = n;
    if (key === 'heavy') heavySet = true;
  }
  return out;
}

export const EMULATOR_DEFAULTS = {
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  webhookSecret: 'sandbox-webhook-secret',
  accessTtlSeconds: 3599,
  refreshTtlDays: 90,
  webhookRetryDelaysMs: [1000, 4000, 12000],
  seed: 20261122,
} as const;
