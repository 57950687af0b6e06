/**
 * The platform's daily quotas, counted by the gateway so a call that would exceed one is
 * refused before it is spent (429 `daily_quota_exhausted`, Retry-After to the 00:00 UTC reset,
 * `details.quota` naming it) instead of being sent to collect the platform's 429. Quotas: by
 * label where the plan has one (`light`, `medium`; on paid plans Heavy and Resource-intensive
 * share one daily quota, `heavy`), and `meeting_writes_per_user`, the meeting creates, updates
 * and deletes each host user may make a day. Counts live in Redis when configured, else in the
 * store, so every instance draws on the same quotas. A daily 429 from the platform is adopted:
 * that quota counts as spent until the reset.
 */
import type { Logger } from 'pino';
import type { DailyQuotaName } from '../../config.js';
import { AppError } from '../../core/errors.js';
import type { DailyCharge, DailyUsageStore } from '../../store/store.js';
import type { RateLabel } from './budget.js';

export type QuotaName = 'light' | 'medium' | 'heavy' | 'meeting_writes_per_user';
export type DailyQuotaLimits = Record<QuotaName, number | null>;

/** The Pro plan's: the shared Heavy/Resource-intensive cap and 100 meeting writes per user. */
export const PRO_DAILY_QUOTAS: DailyQuotaLimits = {
  light: null,
  medium: null,
  heavy: 30_000,
  meeting_writes_per_user: 100,
};

export const QUOTA_OF_LABEL: Record<RateLabel, Exclude<QuotaName, 'meeting_writes_per_user'>> = {
  LIGHT: 'light',
  MEDIUM: 'medium',
  HEAVY: 'heavy',
  RESOURCE_INTENSIVE: 'heavy',
};

/** FLEETGATE_DAILY_QUOTAS over the Pro plan's; `resource_intensive` names the shared `heavy` quota. */
export function dailyQuotaLimits(configured: Partial<Record<DailyQuotaName, number>>): DailyQuotaLimits {
  const out = { ...PRO_DAILY_QUOTAS };
  const { resource_intensive: ri, ...rest } = configured;
  Object.assign(out, rest);
  if (ri !== undefined) out.heavy = configured.heavy !== undefined ? Math.min(configured.heavy, ri) : ri;
  return out;
}

export interface QuotaUse {
  limit: number | null;
  used: number;
  /** null when there is no limit (and the platform has not said it is spent). */
  remaining: number | null;
  exhausted: boolean;
}

export interface DailyQuotaReport {
  day: string;
  resetsAt: string;
  /** Where the counts are kept, shared by every instance using it (never per process). */
  countedIn: 'redis' | 'database';
  /** Each label's daily quota (HEAVY and RESOURCE_INTENSIVE show the one they share). */
  labels: Record<RateLabel, QuotaUse & { quota: QuotaName }>;
  /** Meeting creates, updates and deletes by host user, today. */
  meetingWrites: { limit: number | null; users: Record<string, QuotaUse> };
}

/** Uncapped counts are written in batches this often (they only inform the monitor). */
const FLUSH_MS = 1000;
/** How long the list of quotas the platform said are spent is trusted before it is read again. */
const SPENT_TTL_MS = 5000;

const keyOf = (quota: string, subject: string) => `${quota}|${subject}`;

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The next 00:00 UTC after `ms`. */
export function nextReset(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

export class DailyQuotas {
  #prunedDay = '';
  /** Uses of uncapped quotas not yet written, by day and quota. */
  #pending = new Map<string, { day: string; quota: string; subject: string; n: number }>();
  #flushTimer: NodeJS.Timeout | undefined;
  /** The quotas spent today by the platform's word, as last read (uncapped quotas only check this). */
  #spent: { day: string; at: number; keys: Set<string>; reading?: Promise<void> | undefined } = {
    day: '',
    at: -Infinity,
    keys: new Set(),
  };

  constructor(
    private readonly backend: DailyUsageStore,
    private readonly countedIn: 'redis' | 'database',
    readonly limits: DailyQuotaLimits,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  #charges(label: RateLabel, meetingHost: string | undefined): DailyCharge[] {
    const quota = QUOTA_OF_LABEL[label];
    const charges: DailyCharge[] = [{ quota, subject: '', limit: this.limits[quota] }];
    if (meetingHost !== undefined)
      charges.push({
        quota: 'meeting_writes_per_user',
        subject: meetingHost,
        limit: this.limits.meeting_writes_per_user,
      });
    return charges;
  }

  /**
   * Counts one call of this label (and one meeting write for `meetingHost`), or throws 429
   * daily_quota_exhausted without counting anything when a quota has nothing left.
   */
  async take(label: RateLabel, meetingHost?: string): Promise<void> {
    const t = this.now();
    const day = utcDay(t);
    if (day !== this.#prunedDay) {
      this.#prunedDay = day;
      void this.backend
        .prune(day)
        .catch((err: unknown) => this.logger.warn({ err }, 'old daily quota counts not pruned'));
    }
    const charges = this.#charges(label, meetingHost);
    if (charges.every((c) => c.limit === null)) {
      // Nothing to refuse by count (Light and Medium on paid plans, most calls): only the
      // platform's word can stop it, so no write per call; the counts follow in batches.
      await this.#readSpent(day, t);
      const spent = charges.find((c) => this.#spent.keys.has(keyOf(c.quota, c.subject)));
      if (spent) throw this.exhausted(spent.quota as QuotaName, spent.subject, label, t);
      for (const c of charges) this.#count(day, c);
      return;
    }
    let refused: DailyCharge | undefined;
    try {
      refused = await this.backend.take(day, charges);
    } catch (err) {
      // The platform's own daily 429, never retried, remains the backstop.
      this.logger.warn(
        { err: (err as Error).message },
        'daily quota counts unavailable; not checking this call',
      );
      return;
    }
    if (refused) throw this.exhausted(refused.quota as QuotaName, refused.subject, label, t);
  }

  #count(day: string, c: DailyCharge): void {
    const key = `${day}|${keyOf(c.quota, c.subject)}`;
    const p = this.#pending.get(key);
    if (p) p.n += 1;
    else this.#pending.set(key, { day, quota: c.quota, subject: c.subject, n: 1 });
    this.#flushTimer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the uncapped counts kept since the last flush. */
  async flush(): Promise<void> {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    const batch = [...this.#pending.values()];
    this.#pending.clear();
    for (const b of batch) {
      try {
        await this.backend.add(b.day, b.quota, b.subject, b.n);
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'daily quota counts not written');
      }
    }
  }

  /** Reads which quotas the platform said are spent today, at most every SPENT_TTL_MS (one read at a time). */
  async #readSpent(day: string, t: number): Promise<void> {
    const s = this.#spent;
    if (s.day === day && t - s.at < SPENT_TTL_MS) return;
    s.reading ??= this.backend
      .usage(day)
      .then((rows) => {
        this.#spent = {
          day,
          at: t,
          keys: new Set(rows.filter((r) => r.exhausted).map((r) => keyOf(r.quota, r.subject))),
        };
      })
      .catch((err: unknown) => {
        s.reading = undefined;
        this.logger.warn({ err: (err as Error).message }, 'spent daily quotas not read');
      });
    await s.reading;
  }

  /** Adopts the platform's daily 429: the quota counts as spent until the reset. */
  async adopt(quota: QuotaName, subject: string): Promise<void> {
    const day = utcDay(this.now());
    if (this.#spent.day === day) this.#spent.keys.add(keyOf(quota, subject));
    try {
      await this.backend.exhaust(day, quota, subject);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'daily quota exhaustion not recorded');
    }
  }

  /** The 429 for a spent quota, Retry-After to the reset. */
  exhausted(
    quota: QuotaName,
    subject: string,
    label: RateLabel,
    t = this.now(),
    extra: Record<string, unknown> = {},
  ): AppError {
    return dailyQuotaError(quota, subject, label, t, this.limits[quota], extra);
  }

  async report(): Promise<DailyQuotaReport> {
    const t = this.now();
    const day = utcDay(t);
    let rows: Awaited<ReturnType<DailyUsageStore['usage']>> = [];
    await this.flush();
    try {
      rows = await this.backend.usage(day);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'daily quota counts unavailable for the monitor');
    }
    const use = (quota: QuotaName, subject: string): QuotaUse => {
      const row = rows.find((r) => r.quota === quota && r.subject === subject);
      const limit = this.limits[quota];
      const used = row?.used ?? 0;
      const exhausted = (row?.exhausted ?? false) || (limit !== null && used >= limit);
      return {
        limit,
        used,
        remaining: exhausted ? 0 : limit === null ? null : limit - used,
        exhausted,
      };
    };
    const labels = {} as DailyQuotaReport['labels'];
    for (const [label, quota] of Object.entries(QUOTA_OF_LABEL) as [RateLabel, QuotaName][])
      labels[label] = { quota, ...use(quota, '') };
    const users: Record<string, QuotaUse> = {};
    for (const r of rows)
      if (r.quota === 'meeting_writes_per_user') users[r.subject] = use('meeting_writes_per_user', r.subject);
    return {
      day,
      resetsAt: new Date(nextReset(t)).toISOString(),
      countedIn: this.countedIn,
      labels,
      meetingWrites: { limit: this.limits.meeting_writes_per_user, users },
    };
  }
}

/** 429 daily_quota_exhausted (DESIGN.md): Retry-After in seconds to the reset, the quota named. */
export function dailyQuotaError(
  quota: QuotaName,
  subject: string,
  label: RateLabel,
  t: number,
  limit: number | null,
  extra: Record<string, unknown> = {},
): AppError {
  const reset = nextReset(t);
  const what =
    quota === 'meeting_writes_per_user'
      ? `The user's meeting creates, updates and deletes for today are spent`
      : `The platform's daily ${quota === 'heavy' ? 'Heavy and Resource-intensive' : quota} quota is spent`;
  return new AppError(
    429,
    'daily_quota_exhausted',
    `${what}; it resets at ${new Date(reset).toISOString()} (00:00 UTC).`,
    {
      quota,
      ...(subject ? { userId: subject } : {}),
      label,
      limit,
      resetsAt: new Date(reset).toISOString(),
      ...extra,
    },
    { 'retry-after': String(Math.max(1, Math.ceil((reset - t) / 1000))) },
  );
}
