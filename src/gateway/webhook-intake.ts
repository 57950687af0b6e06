/**
 * Webhook intake from the platform. Verification: the `x-zm-signature` HMAC over the raw body
 * bytes, compared in constant time, and a timestamp within ±5 minutes; then the platform's
 * envelope (platformDelivery), whose `event` every delivery has. Each delivery is
 * recorded once (by request id, else body hash) in the same transaction as what it changes, so
 * a delivery whose processing fails leaves no receipt and the platform's retry is processed:
 * meeting lifecycle events update stored events (a moved start kept in the form the event was
 * stored in), recording events refresh the status report, other events are acknowledged as
 * ignored. Changes to stored events, and `recording.completed`, are announced to subscribers
 * through the outbox, in that same transaction. With tracing on, each delivery is a span, with
 * the event's name on it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import * as z from 'zod';
import { AppError } from '../core/errors.js';
import type { Store, StoredEvent, WebhookEffects } from '../store/store.js';
import type { OutboxMessage } from '../store/webhooks.js';
import { tracing } from '../tracing/current.js';
import { parseInput } from './capabilities/registry.js';
import { announceChange, platformTimes } from './events-service.js';
import { deauthorization } from './oauth/deauthorization.js';
import { outboxMessage } from '../store/outbox-messages.js';

const WINDOW_MS = 5 * 60_000;

/**
 * The platform's envelope, which every delivery has (the url_validation challenge too): a signed
 * body without an event name is refused (400) rather than acknowledged as ignored, since the
 * platform does not retry a 4xx but treats a 2xx as delivered, and an acknowledged delivery must
 * not be dropped unseen. Also the body the OpenAPI document declares for the intake.
 */
export const platformDelivery = z.object({
  event: z.string().min(1).describe('e.g. meeting.updated, recording.completed, endpoint.url_validation'),
  payload: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("the event's data: object (what it is about), account_id; plainToken for url_validation"),
});
type PlatformDelivery = z.output<typeof platformDelivery>;

/** A Map, not an object literal: an event named `toString` or `__proto__` must find nothing. */
const STATUS_BY_EVENT = new Map<string, StoredEvent['status']>([
  ['meeting.started', 'started'],
  ['meeting.ended', 'ended'],
  ['meeting.deleted', 'cancelled'],
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export interface WebhookResult {
  status: number;
  body: unknown;
}

export function verifySignature(secret: string, timestamp: string, raw: Buffer, signature: string): boolean {
  const expected = Buffer.from(
    `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:`).update(raw).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export class WebhookIntake {
  constructor(
    private readonly o: {
      secret: string | undefined;
      store: Store;
      now: () => number;
      logger: Logger;
      onRecording: () => void;
      /** After an `app_deauthorized` delivery was recorded (forget cached tokens). */
      onDeauthorized?: () => void;
    },
  ) {}

  receive(headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<WebhookResult> {
    const traced = tracing();
    return traced ? traced.webhookIntake(() => this.#receive(headers, raw)) : this.#receive(headers, raw);
  }

  async #receive(
    headers: Record<string, string | string[] | undefined>,
    raw: Buffer,
  ): Promise<WebhookResult> {
    const { secret, sig } = this.#verify(headers, raw);
    const delivery = this.#parse(raw);
    const event = delivery.event;
    const payload = delivery.payload ?? {};
    tracing()?.annotate({ 'fleetgate.webhook.event': event.slice(0, 100) });
    if (event === 'endpoint.url_validation') return urlValidation(secret, payload);
    const object = isObject(payload['object']) ? payload['object'] : {};
    const rid = headers['x-zm-request-id'];
    const receivedAt = new Date(this.o.now()).toISOString();
    const bodyHash = createHash('sha256').update(raw).digest('hex');
    const id = typeof rid === 'string' && rid.length <= 128 ? `rid:${rid}` : `sha:${bodyHash}`;
    const rawId = object['id'];
    const videoId = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
    const change = videoId === undefined ? undefined : this.#change(event, videoId, object);
    const dropLink = event === 'app_deauthorized' ? deauthorization(payload, this.o.now()) : undefined;
    const handled = change !== undefined || dropLink !== undefined || event.startsWith('recording.');
    // One transaction: the spent signature, the receipt and what the delivery changes. If any
    // of it fails nothing is kept, we answer 500, and the platform's retry is processed.
    const fresh = await this.o.store.recordWebhook(id, event.slice(0, 100), receivedAt, {
      // The request id is not signed: a captured delivery replayed under a new one still carries
      // the same signature, and that signature is spent once. (The platform's own retries are
      // signed anew and keep their request id, which the receipt catches.)
      claim: {
        key: `webhook-signature:${createHash('sha256').update(sig).digest('hex')}`,
        requestHash: bodyHash,
        status: 200,
        body: '',
        createdAt: receivedAt,
      },
      ...(change ? { change } : {}),
      ...(dropLink ? { dropLink } : {}),
      ...(event === 'recording.completed' ? { outbox: await this.#recordingMessages(object) } : {}),
    });
    if (!fresh) return { status: 200, body: { received: true, duplicate: true } };
    if (!handled) return { status: 200, body: { received: true, ignored: true } };
    if (event.startsWith('recording.')) this.o.onRecording();
    if (dropLink) this.o.onDeauthorized?.();
    this.o.logger.info({ event, videoId }, 'webhook processed');
    return { status: 200, body: { received: true } };
  }

  /** The secret and the delivery's signature, once signed by it within the window; else a 401 (503 unset). */
  #verify(headers: Record<string, string | string[] | undefined>, raw: Buffer) {
    if (!this.o.secret)
      throw new AppError(
        503,
        'webhooks_not_configured',
        'VIDEO_WEBHOOK_SECRET is not set, so deliveries cannot be verified.',
      );
    const ts = headers['x-zm-request-timestamp'];
    const sig = headers['x-zm-signature'];
    if (typeof ts !== 'string' || typeof sig !== 'string')
      throw new AppError(401, 'invalid_signature', 'The delivery is not signed.');
    if (!verifySignature(this.o.secret, ts, raw, sig))
      throw new AppError(401, 'invalid_signature', 'The signature does not match the body.');
    const at = Number(ts) * 1000;
    if (!Number.isFinite(at) || Math.abs(this.o.now() - at) > WINDOW_MS) {
      throw new AppError(401, 'stale_webhook', 'The delivery timestamp is outside the 5-minute window.');
    }
    return { secret: this.o.secret, sig };
  }

  /** The body as the platform's envelope; else a 400. */
  #parse(raw: Buffer): PlatformDelivery {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new AppError(400, 'invalid_json', 'The delivery body is not JSON.');
    }
    if (!isObject(parsed))
      throw new AppError(400, 'validation_failed', 'The delivery body is not a JSON object.');
    try {
      return parseInput(platformDelivery, parsed);
    } catch (err) {
      // Signed, so the platform's own bytes: worth a line, since it sends no such body today.
      this.o.logger.warn({ err }, 'signed webhook delivery refused: not in the platform envelope');
      throw err;
    }
  }

  /** `recording.completed` for subscribers: the recording's facts, not its download token or passcode. */
  async #recordingMessages(object: Record<string, unknown>): Promise<OutboxMessage[]> {
    const pick = (k: string) => {
      const v = object[k];
      return typeof v === 'string' || typeof v === 'number' ? v : null;
    };
    const rawId = pick('id');
    const stored = rawId === null ? undefined : await this.o.store.getEvent(String(rawId));
    const data = {
      video_id: rawId === null ? null : String(rawId),
      uuid: pick('uuid'),
      topic: pick('topic'),
      start_time: pick('start_time'),
      duration: pick('duration'),
      recording_count: pick('recording_count'),
      total_size: pick('total_size'),
      stored_event: stored !== undefined,
      funnel: stored?.funnel ?? null,
    };
    return [outboxMessage('recording.completed', data, this.o.now())];
  }

  /** What a meeting event does to the stored event it names; undefined for any other event. */
  #change(event: string, videoId: string, object: Record<string, unknown>): WebhookEffects['change'] {
    const nowIso = new Date(this.o.now()).toISOString();
    const announce = announceChange(this.o.now());
    const status = STATUS_BY_EVENT.get(event);
    if (status !== undefined)
      return { videoId, patch: () => ({ status, updatedAt: nowIso }), outbox: announce };
    if (event !== 'meeting.updated') return undefined;
    // Only meetings the gateway stores are updated; others are not ours to track.
    return {
      videoId,
      patch: (stored) => {
        // The platform reports starts in UTC; the stored event keeps the form it was given in.
        const patch: Partial<StoredEvent> = {
          updatedAt: nowIso,
          ...platformTimes(stored, object['start_time'], object['timezone']),
        };
        if (typeof object['topic'] === 'string') patch.topic = object['topic'];
        if (typeof object['duration'] === 'number') patch.duration = object['duration'];
        return patch;
      },
      outbox: announce,
    };
  }
}

/** The platform checks an endpoint by having it sign a token it sends. */
function urlValidation(secret: string, payload: Record<string, unknown>): WebhookResult {
  const plain = payload['plainToken'];
  if (typeof plain !== 'string' || plain.length > 256)
    throw new AppError(400, 'validation_failed', 'plainToken is missing.');
  return {
    status: 200,
    body: {
      plainToken: plain,
      encryptedToken: createHmac('sha256', secret).update(plain).digest('hex'),
    },
  };
}
