/**
 * Outgoing webhooks as the platform sends them: compact JSON, `x-zm-request-timestamp` and
 * `x-zm-signature: v0=HMAC-SHA256(secret, "v0:{ts}:{body}")`, retried only on >= 500 or a
 * network error, on a compressed version of the platform's 5/20/60-minute schedule. The endpoint
 * is re-validated on a schedule (the platform's `endpoint.url_validation` challenge, every 72 h
 * by default); after 6 failed validations in a row events are no longer sent, as the platform
 * disables the subscription, until a validation succeeds again.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

/** The platform re-validates subscribed endpoints this often. */
export const VALIDATION_INTERVAL_MS = 72 * 3_600_000;
/** Failed validations in a row after which the platform disables the subscription. */
export const VALIDATION_FAILURES_TO_DISABLE = 6;

export interface Validation {
  at: string;
  url: string;
  ok: boolean;
  status: number | null;
  error?: string;
}

/**
 * The `app_deauthorized` envelope the platform sends when the app is removed. `signature` is the
 * platform's own value for the event (not the request signature); it is opaque to apps.
 */
export function appDeauthorizedEvent(o: {
  accountId: string;
  userId: string;
  clientId: string;
  clientSecret: string;
  now: Date;
}): Record<string, unknown> {
  const time = o.now.toISOString();
  return {
    event: 'app_deauthorized',
    event_ts: o.now.getTime(),
    payload: {
      account_id: o.accountId,
      user_id: o.userId,
      signature: createHmac('sha256', o.clientSecret)
        .update(`${o.accountId}:${o.userId}:${time}`)
        .digest('hex'),
      deauthorization_time: time,
      client_id: o.clientId,
      user_data_retention: 'false',
    },
  };
}

export interface Delivery {
  id: string;
  event: string;
  url: string;
  attempts: { at: string; status: number | null; error?: string }[];
  delivered: boolean;
}

export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export class WebhookSender {
  readonly log: Delivery[] = [];
  readonly validations: Validation[] = [];
  #pending = new Set<NodeJS.Timeout>();
  #validationTimer: NodeJS.Timeout | undefined;
  #failedValidations = 0;

  constructor(
    private readonly opts: {
      url: () => string | undefined;
      secret: string;
      retryDelaysMs: number[];
      now: () => Date;
      logger: Logger;
    },
  ) {}

  /** Queues one delivery (and its retries); resolves once the first attempt is done. */
  async send(envelope: Record<string, unknown>): Promise<Delivery | undefined> {
    const url = this.opts.url();
    if (!url) return undefined;
    if (this.disabled) {
      this.opts.logger.warn(
        { event: envelope['event'] },
        'sandbox webhook not sent: endpoint failed validation',
      );
      return undefined;
    }
    const body = JSON.stringify(envelope);
    const d: Delivery = {
      id: randomUUID(),
      event: String(envelope['event']),
      url,
      attempts: [],
      delivered: false,
    };
    this.log.push(d);
    if (this.log.length > 200) this.log.shift();
    await this.#attempt(d, body, 0);
    return d;
  }

  async #attempt(d: Delivery, body: string, n: number): Promise<void> {
    const ts = String(Math.floor(this.opts.now().getTime() / 1000));
    let status: number | null = null;
    let error: string | undefined;
    try {
      const res = await fetch(d.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Zoom Marketplace/1.0a',
          'x-zm-request-timestamp': ts,
          'x-zm-signature': signWebhook(this.opts.secret, ts, body),
          'x-zm-request-id': d.id,
        },
        body,
        signal: AbortSignal.timeout(3000),
      });
      status = res.status;
      await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      error = (err as Error).message;
    }
    d.attempts.push({ at: this.opts.now().toISOString(), status, ...(error ? { error } : {}) });
    if (status !== null && status < 500) {
      d.delivered = status >= 200 && status < 300;
      return;
    }
    const delay = this.opts.retryDelaysMs[n];
    if (delay === undefined) {
      this.opts.logger.warn({ event: d.event, attempts: d.attempts.length }, 'sandbox webhook gave up');
      return;
    }
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      void this.#attempt(d, body, n + 1);
    }, delay);
    timer.unref();
    this.#pending.add(timer);
  }

  /** True once the endpoint failed validation VALIDATION_FAILURES_TO_DISABLE times in a row. */
  get disabled(): boolean {
    return this.#failedValidations >= VALIDATION_FAILURES_TO_DISABLE;
  }

  /**
   * Sends the signed `endpoint.url_validation` challenge; the endpoint passes when it answers 200
   * or 204 with `encryptedToken` = hex HMAC-SHA256(secret, plainToken) within 3 s.
   */
  async validate(): Promise<Validation | undefined> {
    const url = this.opts.url();
    if (!url) return undefined;
    const plainToken = randomBytes(16).toString('base64url');
    const now = this.opts.now();
    const body = JSON.stringify({
      payload: { plainToken },
      event_ts: now.getTime(),
      event: 'endpoint.url_validation',
    });
    const ts = String(Math.floor(now.getTime() / 1000));
    const v: Validation = { at: now.toISOString(), url, ok: false, status: null };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Zoom Marketplace/1.0a',
          'x-zm-request-timestamp': ts,
          'x-zm-signature': signWebhook(this.opts.secret, ts, body),
          'x-zm-request-id': randomUUID(),
        },
        body,
        signal: AbortSignal.timeout(3000),
      });
      v.status = res.status;
      const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      const expected = createHmac('sha256', this.opts.secret).update(plainToken).digest('hex');
      v.ok =
        (res.status === 200 || res.status === 204) &&
        answer['plainToken'] === plainToken &&
        answer['encryptedToken'] === expected;
    } catch (err) {
      v.error = (err as Error).message;
    }
    this.#failedValidations = v.ok ? 0 : this.#failedValidations + 1;
    this.validations.push(v);
    if (this.validations.length > 50) this.validations.shift();
    if (!v.ok) this.opts.logger.warn({ url, status: v.status }, 'sandbox webhook endpoint failed validation');
    return v;
  }

  /** Re-validates the endpoint every `intervalMs` (0 or less: never). */
  scheduleValidation(intervalMs: number): void {
    if (this.#validationTimer) clearInterval(this.#validationTimer);
    this.#validationTimer = undefined;
    if (intervalMs <= 0) return;
    this.#validationTimer = setInterval(() => {
      void this.validate().catch((err: unknown) => this.opts.logger.warn({ err }, 'validation failed'));
    }, intervalMs);
    this.#validationTimer.unref();
  }

  close(): void {
    for (const t of this.#pending) clearTimeout(t);
    this.#pending.clear();
    if (this.#validationTimer) clearInterval(this.#validationTimer);
  }
}
