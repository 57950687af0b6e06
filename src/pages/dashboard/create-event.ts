/**
 * The "new event" form's POST, run at most once per rendered form: every render carries a fresh
 * idempotency key (the REST Idempotency-Key's key space), and the creation goes through the shared
 * invoke with it, so a resubmission (a double click, a browser's retry) replays the first event
 * instead of booking a second meeting.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../core/errors.js';
import { invokeOnce } from '../../gateway/capabilities/idempotent-invoke.js';
import type { OpContext } from '../../gateway/capabilities/operation.js';
import type { WireEvent } from '../../gateway/events-service.js';
import { eventInput } from './event-form.js';
import type { Notice } from './flash.js';

export const IDEMPOTENCY_FIELD = 'idempotency_key';

/** A key for one render of the form; the prefix tells an operator where a stored key came from. */
export const newFormKey = (): string => `dashboard:${randomUUID()}`;

/**
 * A double click sends the second request while the first still runs, and the browser shows the
 * second's answer: it waits for the first (polling the claim) to show that event, not an error.
 */
const POLL_MS = 250;
const WAIT_MS = 15_000;

const codeOf = (err: unknown) => (err instanceof AppError ? err.code : undefined);

export async function createEventOnce(ctx: OpContext, form: URLSearchParams): Promise<Notice> {
  // A page rendered before forms carried a key still creates, as it did, without one.
  const key = form.get(IDEMPOTENCY_FIELD) || undefined;
  const input = eventInput(form);
  for (let waited = 0; ; waited += POLL_MS) {
    try {
      const { result, replayed } = await invokeOnce(ctx, 'meetings', 'create_meeting', input, key);
      const e = result as WireEvent;
      const text = `Created “${e.topic}” (id ${e.video_id})${e.funnel ? ` in the ${e.funnel} funnel` : ''}.`;
      return {
        kind: 'ok',
        text: replayed ? `${text} This form was sent again; nothing new was created.` : text,
      };
    } catch (err) {
      const code = codeOf(err);
      if (code === 'idempotency_key_reused')
        return {
          kind: 'error',
          text: 'This form was already sent with other values; nothing new was created. Use the form below for a new event.',
        };
      if (code !== 'idempotency_in_progress') throw err;
      if (waited >= WAIT_MS)
        return {
          kind: 'error',
          text: 'This form is still being sent; reload the dashboard in a moment to see the event.',
        };
    }
    await sleep(POLL_MS);
  }
}
