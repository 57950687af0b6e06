/**
 * The one client for the platform's REST API: bearer injection from the token manager, per-call
 * timeout, per-label pacing, a circuit breaker per capability group (it counts calls that failed
 * after their retries, so scattered faults never open it), and retries where they are
 * safe — reads on 429, 5xx and network errors (exponential backoff with full jitter, honouring
 * Retry-After as seconds or a date); writes only when the request provably never left (connection
 * refused). A 401 code 124 triggers one refresh and one retry. Platform errors become our error
 * shape with the platform's code and message kept in `details`. Daily quotas (daily-quotas.ts)
 * are checked before each call goes out, and a daily 429 is never retried. Every attempt's
 * outcome also tells whether the platform can be reached, and if not why (reachability.ts).
 */
import type { Logger } from 'pino';
import { AppError } from '../../core/errors.js';
import { tracing } from '../../tracing/current.js';
import { USER_AGENT } from '../../version.js';
import type { TokenManager } from '../oauth/token-manager.js';
import { NO_OBSERVER, type GatewayObserver, type UpstreamOutcome } from '../observer.js';
import type { BudgetKeeper } from './budget.js';
import type { Transport, TransportResponse } from './http-transport.js';
import { CircuitBreaker, type RateLabel } from './budget.js';
import { dailyQuotaError, QUOTA_OF_LABEL, type DailyQuotas, type QuotaName } from './daily-quotas.js';
import { errorCode, Reachability, type PlatformTrouble } from './reachability.js';

export interface CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path below VIDEO_API_BASE, starting with '/'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  label: RateLabel;
  /** Capability group, for the circuit breaker and the monitor. */
  group: string;
  /** Per-call timeout override. */
  timeoutMs?: number;
}

export interface CallResult<T> {
  status: number;
  data: T;
  headers: TransportResponse['headers'];
}

export interface GroupHealth {
  lastSuccess: string | null;
  lastError: { at: string; code: string } | null;
  lastLatencyMs: number | null;
  breaker: 'closed' | 'open';
}

export interface PlatformClientOptions {
  apiBase: string;
  /** keepAliveTransport() in production; global fetch fits too. */
  transport: Transport;
  tokens: TokenManager;
  budgets: BudgetKeeper;
  now: () => number;
  logger: Logger;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Longest we wait for a budget slot or a Retry-After before answering 503. */
  maxWaitMs: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  observer?: GatewayObserver;
  /** The platform's daily quotas, checked before each call goes out (daily-quotas.ts). */
  quotas?: DailyQuotas;
  /** The user meeting writes are counted for when the path names none (`me`, `/meetings/{id}`). */
  meetingHost?: () => Promise<string>;
}

interface PlatformBody {
  code?: unknown;
  message?: unknown;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
/** A 429 without Retry-After waits at least this: a per-second window cannot reopen sooner. */
const MIN_429_WAIT_MS = 1000;

/**
 * Whether a 429 is the platform's daily limit: its `X-RateLimit-Type: Daily-limit`, or, as the
 * headers are often missing, its message ("…maximum daily rate limit…", "…exceeded the daily
 * rate limit (100) of Meeting Create/Update API requests…").
 */
export function dailyLimitHit(type: string | null, message: string | null): 'user' | 'account' | undefined {
  const daily = /daily/i.test(type ?? '') || /daily rate limit/i.test(message ?? '');
  if (!daily) return undefined;
  return /particular user|Meeting Create\/Update/i.test(message ?? '') ? 'user' : 'account';
}

/** application/x-www-form-urlencoded, as URLSearchParams writes a query (space as +). */
export const formEncode = (s: string) =>
  encodeURIComponent(s).replace(/%20|[!'()~]/g, (c) =>
    c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** Retry-After as seconds or as an HTTP/ISO date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A platform error body, or {} when it is not JSON. */
function parseBody(text: string): PlatformBody {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}

function causeCode(err: unknown): string | undefined {
  const c = (err as { cause?: { code?: unknown } }).cause;
  return typeof c?.code === 'string' ? c.code : undefined;
}

/** A group's last outcomes as recorded: instants as numbers, formatted only when read. */
interface HealthMarks {
  lastSuccess: number | null;
  lastError: { at: number; code: string } | null;
  lastLatencyMs: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class PlatformClient {
  readonly #health = new Map<string, HealthMarks>();
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #random: () => number;
  readonly #observer: GatewayObserver;
  readonly #reach: Reachability;

  constructor(private readonly o: PlatformClientOptions) {
    this.#sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.#random = o.random ?? Math.random;
    this.#observer = o.observer ?? NO_OBSERVER;
    this.#reach = new Reachability(o.apiBase, o.now);
  }

  /** Why the platform's calls fail, as the last attempt found; undefined while it answers. */
  trouble(): PlatformTrouble | undefined {
    return this.#reach.trouble();
  }

  /** How many times the platform has gone out of reach or come back (Reachability.changes). */
  reachabilityChanges(): number {
    return this.#reach.changes();
  }

  /** When the platform last answered anything (ISO 8601), null before its first answer. */
  lastAnswerAt(): string | null {
    return this.#reach.lastAnswerAt();
  }

  /** Notes an attempt's outcome for trouble(): an answer, a server error, or no answer at all. */
  #reached(outcome: { status: number } | { error: unknown; timeoutMs: number }): void {
    if ('status' in outcome) {
      if (outcome.status >= 500) this.#reach.failed(outcome);
      else this.#reach.answered();
    } else if (errorCode(outcome.error) === 'EBODYTOOLARGE') this.#reach.answered();
    else this.#reach.failed(outcome);
  }

  /** Which outcome an answered attempt counts as. */
  static outcomeOf(status: number): UpstreamOutcome {
    if (status < 400) return 'ok';
    if (status === 401) return 'unauthorized';
    if (status === 429) return 'rate_limited';
    return status >= 500 ? 'server_error' : 'client_error';
  }

  #breaker(group: string): CircuitBreaker {
    let b = this.#breakers.get(group);
    if (!b) {
      b = new CircuitBreaker(5, 10_000, this.o.now);
      this.#breakers.set(group, b);
    }
    return b;
  }

  #record(group: string, ok: boolean, latency: number, code?: string): void {
    let h = this.#health.get(group);
    if (!h) this.#health.set(group, (h = { lastSuccess: null, lastError: null, lastLatencyMs: null }));
    const at = this.o.now();
    if (ok) h.lastSuccess = at;
    else h.lastError = { at, code: code ?? 'upstream_error' };
    h.lastLatencyMs = latency;
  }

  /** A capability group's last outcomes and its breaker now; undefined before its first call. */
  health(group: string): GroupHealth | undefined {
    const h = this.#health.get(group);
    if (!h) return undefined;
    return {
      lastSuccess: h.lastSuccess === null ? null : iso(h.lastSuccess),
      lastError: h.lastError && { at: iso(h.lastError.at), code: h.lastError.code },
      lastLatencyMs: h.lastLatencyMs,
      breaker: this.#breaker(group).state,
    };
  }

  /** The call's URL, its query encoded as URLSearchParams would (a URL object per call costs more). */
  #url(path: string, query: CallOptions['query']): string {
    let url = `${this.o.apiBase}${path}`;
    let sep = '?';
    for (const k in query) {
      const v = query[k];
      if (v === undefined) continue;
      url += `${sep}${formEncode(k)}=${formEncode(String(v))}`;
      sep = '&';
    }
    return url;
  }

  call<T = unknown>(opts: CallOptions): Promise<CallResult<T>> {
    // Traced, the call is a client span with its attempts on it; untraced, this check is all.
    const traced = tracing();
    return traced
      ? traced.platformCall(this.o.apiBase, opts, () => this.#call<T>(opts))
      : this.#call<T>(opts);
  }

  async #call<T>(opts: CallOptions): Promise<CallResult<T>> {
    // URL resolution would climb out of the API path on a dot segment (`/meetings/..` is `/v2/`);
    // identifiers are encoded by seg(), and this is the last line should one slip through.
    if (/\/(\.|%2e){1,2}(?=\/|$)/i.test(opts.path)) {
      throw new AppError(
        400,
        'validation_failed',
        'An identifier in the request is not a valid path segment.',
      );
    }
    const breaker = this.#breaker(opts.group);
    const circuitOpen = () => {
      this.#observer.upstream(opts.label, opts.group, 'circuit_open');
      return new AppError(
        503,
        'upstream_unavailable',
        `The platform is failing for ${opts.group}; calls are paused briefly.`,
        { group: opts.group },
        { 'retry-after': String(Math.ceil(breaker.retryAfterMs() / 1000) || 1) },
      );
    };
    if (!breaker.allow()) throw circuitOpen();
    const isRead = opts.method === 'GET';
    const host = this.o.quotas ? await this.#meetingHost(opts) : undefined;
    let token = await this.o.tokens.current();
    let refreshed = false;
    let lastError: AppError | undefined;
    for (let attempt = 1; attempt <= this.o.maxAttempts; attempt++) {
      const wait = await this.o.budgets.reserve(opts.label);
      if (wait > this.o.maxWaitMs) {
        this.#observer.upstream(opts.label, opts.group, 'budget_exhausted');
        throw new AppError(
          503,
          'upstream_rate_limited',
          `The ${opts.label} budget for the platform is spent; try again shortly.`,
          { label: opts.label },
          { 'retry-after': String(Math.ceil(wait / 1000)) },
        );
      }
      if (wait > 0) await this.#sleep(wait);
      // Refused here, a call that would exceed a daily quota is never sent (and counts nothing).
      if (this.o.quotas) {
        try {
          await this.o.quotas.take(opts.label, host);
        } catch (err) {
          this.#observer.upstream(opts.label, opts.group, 'budget_exhausted');
          throw err;
        }
      }
      const started = this.o.now();
      const timeoutMs = opts.timeoutMs ?? this.o.timeoutMs;
      let res: TransportResponse;
      let text: string;
      try {
        // The deadline covers the answer's body too (a stalled body is a timeout, not a hang).
        res = await this.o.transport(this.#url(opts.path, opts.query), {
          method: opts.method,
          headers: {
            authorization: `Bearer ${token.value}`,
            accept: 'application/json',
            'user-agent': USER_AGENT,
            ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
          timeoutMs,
        });
        text = res.status === 204 ? '' : await res.text();
      } catch (err) {
        this.#reached({ error: err, timeoutMs });
        const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
        const neverSent = causeCode(err) === 'ECONNREFUSED';
        lastError = timedOut
          ? new AppError(504, 'upstream_timeout', 'The platform did not answer in time.', {
              group: opts.group,
            })
          : new AppError(502, 'upstream_error', 'The platform could not be reached.', {
              group: opts.group,
              cause: causeCode(err) ?? (err as Error).name,
            });
        this.#observer.upstream(opts.label, opts.group, timedOut ? 'timeout' : 'network_error');
        this.#record(opts.group, false, this.o.now() - started, lastError.code);
        if ((isRead || neverSent) && attempt < this.o.maxAttempts) {
          await this.#sleep(this.#backoff(attempt));
          // Another call found the platform down meanwhile: stop adding to the pile.
          if (breaker.state === 'open') throw circuitOpen();
          continue;
        }
        breaker.failure();
        throw lastError;
      }
      const latency = this.o.now() - started;
      this.#reached({ status: res.status });
      this.#observer.upstream(opts.label, opts.group, PlatformClient.outcomeOf(res.status));
      if (res.ok) {
        breaker.success();
        this.#record(opts.group, true, latency);
        return { status: res.status, data: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
      }
      const body = parseBody(text);
      const platform = {
        platformStatus: res.status,
        platformCode: body.code ?? null,
        platformMessage: typeof body.message === 'string' ? body.message : null,
      };
      if (res.status === 401 && !refreshed) {
        // 401 code 124: the token is dead or expired; refresh once and replay (the call was not executed).
        refreshed = true;
        token = await this.o.tokens.refresh(token.version);
        attempt -= 1;
        continue;
      }
      const daily =
        res.status === 429
          ? dailyLimitHit(res.headers.get('x-ratelimit-type'), platform.platformMessage)
          : undefined;
      if (daily) {
        // Never retried: nothing changes before 00:00 UTC. Adopted, so no instance asks again today.
        const quota: QuotaName = daily === 'user' ? 'meeting_writes_per_user' : QUOTA_OF_LABEL[opts.label];
        const subject = daily === 'user' ? (host ?? (await this.#meetingHost(opts)) ?? '') : '';
        await this.o.quotas?.adopt(quota, subject);
        const e = dailyQuotaError(
          quota,
          subject,
          opts.label,
          this.o.now(),
          this.o.quotas?.limits[quota] ?? null,
          {
            group: opts.group,
            ...platform,
          },
        );
        this.#record(opts.group, false, latency, e.code);
        throw e;
      }
      if (RETRYABLE_STATUS.has(res.status)) {
        const after = retryAfterMs(res.headers.get('retry-after'), this.o.now());
        lastError =
          res.status === 429
            ? new AppError(
                503,
                'upstream_rate_limited',
                'The platform rate limit was reached; try again later.',
                { group: opts.group, ...platform },
                { 'retry-after': String(Math.max(1, Math.ceil((after ?? 1000) / 1000))) },
              )
            : new AppError(502, 'upstream_error', 'The platform failed to answer.', {
                group: opts.group,
                ...platform,
              });
        this.#record(opts.group, false, latency, lastError.code);
        if (isRead && attempt < this.o.maxAttempts && (after ?? 0) <= this.o.maxWaitMs) {
          // Without Retry-After (the platform often omits it), back off, never under a window.
          await this.#sleep(
            after ??
              (res.status === 429
                ? Math.max(MIN_429_WAIT_MS, this.#backoff(attempt))
                : this.#backoff(attempt)),
          );
          if (breaker.state === 'open') throw circuitOpen();
          continue;
        }
        // A 429 is the platform pacing us, not failing: only 5xx count against the circuit.
        if (res.status >= 500) breaker.failure();
        throw lastError;
      }
      breaker.success();
      const mapped = this.#map(res.status, platform, opts.group);
      this.#record(opts.group, mapped.status < 500 && mapped.code !== 'missing_scope', latency, mapped.code);
      throw mapped;
    }
    throw lastError ?? new AppError(502, 'upstream_error', 'The platform failed to answer.');
  }

  /**
   * Downloads a file the platform links to (recording files, transcripts) with the bearer
   * token. Only URLs on the platform API's own origin are fetched: a link in a response is
   * never allowed to send our token elsewhere.
   */
  async download(
    url: string,
    group: string,
    maxBytes = 5 * 1024 * 1024,
  ): Promise<{ contentType: string; body: Buffer }> {
    const target = new URL(url, this.o.apiBase);
    if (target.origin !== new URL(this.o.apiBase).origin) {
      throw new AppError(
        502,
        'upstream_error',
        'The platform linked a file on another host; it was not fetched.',
        { group },
      );
    }
    const token = await this.o.tokens.current();
    const started = this.o.now();
    let res: TransportResponse;
    let file: Buffer;
    try {
      res = await this.o.transport(target.href, {
        headers: { authorization: `Bearer ${token.value}`, 'user-agent': USER_AGENT },
        timeoutMs: this.o.timeoutMs,
      });
      file = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      this.#reached({ error: err, timeoutMs: this.o.timeoutMs });
      this.#record(group, false, this.o.now() - started, 'upstream_error');
      throw new AppError(502, 'upstream_error', 'The platform file could not be fetched.', {
        group,
        cause: (err as Error).name,
      });
    }
    this.#reached({ status: res.status });
    if (!res.ok) {
      this.#record(group, false, this.o.now() - started, 'upstream_error');
      throw new AppError(
        res.status === 404 ? 404 : 502,
        res.status === 404 ? 'not_found' : 'upstream_error',
        `The platform answered ${res.status} for the file.`,
        { group, platformStatus: res.status },
      );
    }
    const body = file;
    if (body.length > maxBytes)
      throw new AppError(502, 'upstream_error', 'The platform file is larger than the gateway reads.', {
        group,
        bytes: body.length,
      });
    this.#record(group, true, this.o.now() - started);
    return { contentType: res.headers.get('content-type') ?? 'application/octet-stream', body };
  }

  /**
   * The host user a meeting create, update or delete is counted for: the path's user, or the
   * linked user for `me` and `/meetings/{id}` (every meeting the gateway writes is its user's).
   */
  async #meetingHost(opts: CallOptions): Promise<string | undefined> {
    if (opts.method === 'POST') {
      const m = /^\/users\/([^/]+)\/meetings$/.exec(opts.path);
      if (!m?.[1]) return undefined;
      const user = decodeURIComponent(m[1]);
      return user === 'me' ? ((await this.o.meetingHost?.()) ?? user) : user;
    }
    if ((opts.method === 'PATCH' || opts.method === 'DELETE') && /^\/meetings\/[^/]+$/.test(opts.path))
      return (await this.o.meetingHost?.()) ?? 'me';
    return undefined;
  }

  #backoff(attempt: number): number {
    const cap = Math.min(this.o.retryMaxMs, this.o.retryBaseMs * 2 ** (attempt - 1));
    return Math.floor(this.#random() * cap);
  }

  #map(
    status: number,
    platform: { platformStatus: number; platformCode: unknown; platformMessage: string | null },
    group: string,
  ): AppError {
    const msg = platform.platformMessage ?? '';
    if (platform.platformCode === 4711 || platform.platformCode === 4700) {
      const scope =
        /scopes:\[([^\]]*)\]/
          .exec(msg)?.[1]
          ?.split(',')
          .map((s) => s.trim())
          .filter(Boolean) ?? [];
      return new AppError(
        403,
        'missing_scope',
        `The linked app lacks the scope${scope.length > 1 ? 's' : ''} ${scope.join(', ') || 'this call needs'}; add ${scope.length > 1 ? 'them' : 'it'} to the app and link again.`,
        { group, scopes: scope, ...platform },
      );
    }
    if (status === 401)
      return new AppError(
        409,
        'needs_relink',
        'The platform no longer accepts our token; link the account again.',
        { group, ...platform },
      );
    if (status === 404)
      return new AppError(404, 'not_found', msg || 'The platform has no such resource.', {
        group,
        ...platform,
      });
    if (status === 403)
      return new AppError(403, 'upstream_forbidden', msg || 'The platform refused access.', {
        group,
        ...platform,
      });
    if (status === 409)
      return new AppError(409, 'conflict', msg || 'The platform reported a conflict.', {
        group,
        ...platform,
      });
    if (status === 400 && platform.platformCode === 200)
      return new AppError(402, 'no_license', msg || 'The account lacks the licence for this.', {
        group,
        ...platform,
      });
    if (status === 400)
      return new AppError(400, 'upstream_rejected', msg || 'The platform rejected the request.', {
        group,
        ...platform,
      });
    return new AppError(502, 'upstream_error', 'The platform failed to answer.', { group, ...platform });
  }
}
