/**
 * Webhook intake from the platform. Verification: the `x-zm-signature` HMAC over the raw body
 * bytes, compared in constant time, and a timestamp within ±5 minutes. Each delivery is
 * recorded once (by request id, else body hash) before we answer, and only then processed:
 * meeting lifecycle events update stored events (a moved start kept in the form the event was
 * stored in), recording events refresh the status report.
 * Changes to stored events, and `recording.completed`, are announced to subscribers through
 * the outbox, in the same transaction as the change (or as the receipt).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../http/errors.js';
import type { Store, StoredEvent } from '../store/store.js';
import type { OutboxMessage } from '../store/webhooks.js';
import { announceChange, platformTimes } from './events-service.js';
import { outboxMessage } from './webhooks-out/messages.js';

const WINDOW_MS = 5 * 60_000;

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
    },
  ) {}

  async receive(headers: Record<string, string | string[] | undefined>, raw: Buffer): Promise<WebhookResult> {
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
    let msg: { event?: unknown; payload?: { plainToken?: unknown; object?: Record<string, unknown> } };
    try {
      msg = JSON.parse(raw.toString('utf8')) as typeof msg;
    } catch {
      throw new AppError(400, 'invalid_json', 'The delivery body is not JSON.');
    }
    const event = typeof msg.event === 'string' ? msg.event : '';
    if (event === 'endpoint.url_validation') {
      const plain = msg.payload?.plainToken;
      if (typeof plain !== 'string' || plain.length > 256)
        throw new AppError(400, 'validation_failed', 'plainToken is missing.');
      return {
        status: 200,
        body: {
          plainToken: plain,
          encryptedToken: createHmac('sha256', this.o.secret).update(plain).digest('hex'),
        },
      };
    }
    const rid = headers['x-zm-request-id'];
    const receivedAt = new Date(this.o.now()).toISOString();
    const bodyHash = createHash('sha256').update(raw).digest('hex');
    // The request id is not signed: a captured delivery replayed under a new one still carries
    // the same signature, and that signature is spent once. (The platform's own retries are
    // signed anew and keep their request id, which the receipt below catches.)
    const unspent = await this.o.store.putIdempotent({
      key: `webhook-signature:${createHash('sha256').update(sig).digest('hex')}`,
      requestHash: bodyHash,
      status: 200,
      body: '',
      createdAt: receivedAt,
    });
    const id = typeof rid === 'string' && rid.length <= 128 ? `rid:${rid}` : `sha:${bodyHash}`;
    const object = msg.payload?.object ?? {};
    // Durable first: a delivery we acknowledge is on disk before we act on it.
    const fresh =
      unspent &&
      (await this.o.store.recordWebhook(
        id,
        event.slice(0, 100),
        receivedAt,
        event === 'recording.completed' ? await this.#recordingMessages(object) : undefined,
      ));
    if (!fresh) return { status: 200, body: { received: true, duplicate: true } };
    await this.#process(event, object);
    return { status: 200, body: { received: true } };
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

  async #process(event: string, object: Record<string, unknown>): Promise<void> {
    const rawId = object['id'];
    const videoId = typeof rawId === 'string' || typeof rawId === 'number' ? String(rawId) : undefined;
    const nowIso = new Date(this.o.now()).toISOString();
    const status: Record<string, StoredEvent['status']> = {
      'meeting.started': 'started',
      'meeting.ended': 'ended',
      'meeting.deleted': 'cancelled',
    };
    if (videoId && event in status) {
      await this.o.store.updateEvent(
        videoId,
        { status: status[event] ?? 'scheduled', updatedAt: nowIso },
        announceChange(this.o.now()),
      );
    } else if (videoId && event === 'meeting.updated') {
      // Only update meetings the gateway stores; others are not ours to track.
      const stored = await this.o.store.getEvent(videoId);
      if (stored) {
        // The platform reports starts in UTC; the stored event keeps the form it was given in.
        const patch: Partial<StoredEvent> = {
          updatedAt: nowIso,
          ...platformTimes(stored, object['start_time'], object['timezone']),
        };
        if (typeof object['topic'] === 'string') patch.topic = object['topic'];
        if (typeof object['duration'] === 'number') patch.duration = object['duration'];
        await this.o.store.updateEvent(videoId, patch, announceChange(this.o.now()));
      }
    } else if (event.startsWith('recording.')) {
      this.o.onRecording();
    }
    this.o.logger.info({ event, videoId }, 'webhook processed');
  }
}
