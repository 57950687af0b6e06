/**
 * Outgoing webhooks as the platform sends them: compact JSON, `x-zm-request-timestamp` and
 * `x-zm-signature: v0=HMAC-SHA256(secret, "v0:{ts}:{body}")`, retried only on >= 500 or a
 * network error, on a compressed version of the platform's 5/20/60-minute schedule.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';

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
  #pending = new Set<NodeJS.Timeout>();

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

  close(): void {
    for (const t of this.#pending) clearTimeout(t);
    this.#pending.clear();
  }
}
