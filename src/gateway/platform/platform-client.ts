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
 * A call reads as its steps (#call, then the methods after it, in order); their pure parts are
 * call-request.ts (guard, URL, request), call-errors.ts (error shapes) and call-retry.ts (waits).
 */
import type { Logger } from 'pino';
import { AppError } from '../../core/errors.js';
import { tracing } from '../../tracing/current.js';
import { USER_AGENT } from '../../version.js';
import type { Token, TokenManager } from '../oauth/token-manager.js';
import { NO_OBSERVER, type GatewayObserver, type UpstreamOutcome } from '../observer.js';
import type { BudgetKeeper } from './budget.js';
import type { Transport, TransportResponse } from './http-transport.js';
import { CircuitBreaker } from './budget.js';
import {
  budgetSpentError,
  causeCode,
  circuitOpenError,
  dailyLimitHit,
  isTimeout,
  mappedError,
  platformFacts,
  retryableError,
  unansweredError,
  type PlatformFacts,
} from './call-errors.js';
import { callRequest, callUrl, guardPath, type CallOptions } from './call-request.js';
import { backoffMs, pacedBackoffMs, RETRYABLE_STATUS, retryAfterMs } from './call-retry.js';
import { dailyQuotaError, QUOTA_OF_LABEL, type DailyQuotas, type QuotaName } from './daily-quotas.js';
import { errorCode, Reachability, type PlatformTrouble } from './reachability.js';

export type { CallOptions } from './call-request.js';
export { formEncode } from './call-request.js';
export { dailyLimitHit } from './call-errors.js';
export { retryAfterMs } from './call-retry.js';

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

/** One call's state across its attempts: its breaker, quota subject and token (refreshed once). */
interface CallState {
  readonly breaker: CircuitBreaker;
  readonly host: string | undefined;
  token: Token;
  refreshed: boolean;
}

/** An attempt that answered 401 with a token now refreshed: the same attempt is made again. */
const REPLAY = Symbol('replay');

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

  call<T = unknown>(opts: CallOptions): Promise<CallResult<T>> {
    // Traced, the call is a client span with its attempts on it; untraced, this check is all.
    const traced = tracing();
    return traced
      ? traced.platformCall(this.o.apiBase, opts, () => this.#call<T>(opts))
      : this.#call<T>(opts);
  }

  /**
   * One call as its steps, in order: guard the path, ask the breaker, then for each attempt
   * wait for the budget, take the daily quota, and send with the token; the answer is mapped to
   * the result, a replay with a refreshed token, a retry after a wait, or our error (thrown).
   */
  async #call<T>(opts: CallOptions): Promise<CallResult<T>> {
    guardPath(opts.path);
    const breaker = this.#breaker(opts.group);
    if (!breaker.allow()) throw this.#circuitOpen(opts, breaker);
    const call: CallState = {
      breaker,
      host: this.o.quotas ? await this.#meetingHost(opts) : undefined,
      token: await this.o.tokens.current(),
      refreshed: false,
    };
    for (let attempt = 1; attempt <= this.o.maxAttempts; attempt++) {
      const wait = await this.o.budgets.reserve(opts.label);
      if (wait > 0) await this.#awaitBudget(opts, wait);
      if (this.o.quotas) await this.#takeQuota(opts, this.o.quotas, call.host);
      const next = await this.#attempt<T>(opts, call, attempt);
      if (next === REPLAY) attempt -= 1;
      else if (typeof next === 'number') await this.#retry(opts, breaker, next);
      else return next;
    }
    throw new AppError(502, 'upstream_error', 'The platform failed to answer.');
  }

  /** The breaker step's refusal, counted as circuit_open. */
  #circuitOpen(opts: CallOptions, breaker: CircuitBreaker): AppError {
    this.#observer.upstream(opts.label, opts.group, 'circuit_open');
    return circuitOpenError(opts.group, breaker.retryAfterMs());
  }

  /** The budget step: waits for the label's slot, or answers 503 when that is too long. */
  async #awaitBudget(opts: CallOptions, wait: number): Promise<void> {
    if (wait > this.o.maxWaitMs) {
      this.#observer.upstream(opts.label, opts.group, 'budget_exhausted');
      throw budgetSpentError(opts.label, wait);
    }
    await this.#sleep(wait);
  }

  /** The quota step: refused here, a call that would exceed a daily quota is never sent (and counts nothing). */
  async #takeQuota(opts: CallOptions, quotas: DailyQuotas, host: string | undefined): Promise<void> {
    try {
      await quotas.take(opts.label, host);
    } catch (err) {
      this.#observer.upstream(opts.label, opts.group, 'budget_exhausted');
      throw err;
    }
  }

  /** The retry step: waits, unless another call found the platform down meanwhile (stop adding to the pile). */
  async #retry(opts: CallOptions, breaker: CircuitBreaker, waitMs: number): Promise<void> {
    await this.#sleep(waitMs);
    if (breaker.state === 'open') throw this.#circuitOpen(opts, breaker);
  }

  /**
   * The send step, then the map step: one request out with the call's token. An answer that is
   * ok is the result; any other outcome is noted (reachability, metric, health) and mapped.
   */
  async #attempt<T>(
    opts: CallOptions,
    call: CallState,
    attempt: number,
  ): Promise<CallResult<T> | number | typeof REPLAY> {
    const started = this.o.now();
    const timeoutMs = opts.timeoutMs ?? this.o.timeoutMs;
    let res: TransportResponse;
    let text: string;
    try {
      // The deadline covers the answer's body too (a stalled body is a timeout, not a hang).
      res = await this.o.transport(
        callUrl(this.o.apiBase, opts.path, opts.query),
        callRequest(opts, call.token.value, timeoutMs),
      );
      text = res.status === 204 ? '' : await res.text();
    } catch (err) {
      return this.#unanswered(opts, call.breaker, err, attempt, started, timeoutMs);
    }
    const latency = this.o.now() - started;
    this.#reached({ status: res.status });
    this.#observer.upstream(opts.label, opts.group, PlatformClient.outcomeOf(res.status));
    if (!res.ok) return this.#refused(opts, call, res, platformFacts(res.status, text), attempt, latency);
    call.breaker.success();
    this.#record(opts.group, true, latency);
    return { status: res.status, data: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
  }

  /**
   * Mapping no answer: a read (or a write the platform provably never got, the connection
   * refused) is tried again after a backoff (its wait returned); otherwise the error is thrown.
   */
  #unanswered(
    opts: CallOptions,
    breaker: CircuitBreaker,
    err: unknown,
    attempt: number,
    started: number,
    timeoutMs: number,
  ): number {
    this.#reached({ error: err, timeoutMs });
    const timedOut = isTimeout(err);
    const neverSent = causeCode(err) === 'ECONNREFUSED';
    const failure = unansweredError(err, timedOut, opts.group);
    this.#observer.upstream(opts.label, opts.group, timedOut ? 'timeout' : 'network_error');
    this.#record(opts.group, false, this.o.now() - started, failure.code);
    if ((opts.method === 'GET' || neverSent) && attempt < this.o.maxAttempts) return this.#backoff(attempt);
    breaker.failure();
    throw failure;
  }

  /** Mapping an answer that was not ok: a token refresh, a daily limit, a retry, or our error. */
  async #refused(
    opts: CallOptions,
    call: CallState,
    res: TransportResponse,
    platform: PlatformFacts,
    attempt: number,
    latency: number,
  ): Promise<number | typeof REPLAY> {
    if (res.status === 401 && !call.refreshed) {
      // 401 code 124: the token is dead or expired; refresh once and replay (the call was not executed).
      call.refreshed = true;
      call.token = await this.o.tokens.refresh(call.token.version);
      return REPLAY;
    }
    const daily =
      res.status === 429
        ? dailyLimitHit(res.headers.get('x-ratelimit-type'), platform.platformMessage)
        : undefined;
    if (daily) throw await this.#dailyLimit(opts, daily, call.host, platform, latency);
    if (RETRYABLE_STATUS.has(res.status))
      return this.#retryable(opts, call.breaker, res, platform, attempt, latency);
    call.breaker.success();
    const mapped = mappedError(res.status, platform, opts.group);
    this.#record(opts.group, mapped.status < 500 && mapped.code !== 'missing_scope', latency, mapped.code);
    throw mapped;
  }

  /** A daily limit hit: never retried (nothing changes before 00:00 UTC), and adopted so no instance asks again today. */
  async #dailyLimit(
    opts: CallOptions,
    daily: 'user' | 'account',
    host: string | undefined,
    platform: PlatformFacts,
    latency: number,
  ): Promise<AppError> {
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
    return e;
  }

  /** A 429 or 5xx: a read is tried again (its wait returned) if the platform's Retry-After is not too long. */
  #retryable(
    opts: CallOptions,
    breaker: CircuitBreaker,
    res: TransportResponse,
    platform: PlatformFacts,
    attempt: number,
    latency: number,
  ): number {
    const after = retryAfterMs(res.headers.get('retry-after'), this.o.now());
    const failure = retryableError(res.status, platform, opts.group, after);
    this.#record(opts.group, false, latency, failure.code);
    if (opts.method === 'GET' && attempt < this.o.maxAttempts && (after ?? 0) <= this.o.maxWaitMs)
      return after ?? pacedBackoffMs(res.status, this.#backoff(attempt));
    // A 429 is the platform pacing us, not failing: only 5xx count against the circuit.
    if (res.status >= 500) breaker.failure();
    throw failure;
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
    return backoffMs(attempt, this.o.retryBaseMs, this.o.retryMaxMs, this.#random);
  }
}
