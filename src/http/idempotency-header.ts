/**
 * The REST side of idempotency: the `Idempotency-Key` request header (IETF
 * draft-ietf-httpapi-idempotency-key-header) read for the shared invoke, which holds the rules
 * (gateway/capabilities/idempotent-invoke.ts), and the `Idempotent-Replayed: true` header that
 * marks an answer replayed from an earlier request with the same key.
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../core/errors.js';
import { keyUnsupported } from '../gateway/capabilities/idempotent-invoke.js';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The request's key, if it sent one; one header only, since two keys cannot both be honoured. */
export function idempotencyKey(req: Pick<FastifyRequest, 'headers'>): string | undefined {
  const v = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (Array.isArray(v)) {
    throw new AppError(400, 'validation_failed', 'Send one Idempotency-Key header, not several.');
  }
  return v;
}

/** Marks a replayed answer, so a client can tell its retry did nothing new. */
export function markReplay(reply: FastifyReply, replayed: boolean): FastifyReply {
  return replayed ? reply.header(REPLAYED_HEADER, 'true') : reply;
}

/**
 * An onRequest hook for hand-written routes that create nothing: a key there is refused, as the
 * shared invoke refuses it for operations that create nothing, so no client thinks it is covered.
 */
export function refuseIdempotencyKey(
  req: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const sent = req.headers[IDEMPOTENCY_KEY_HEADER] !== undefined;
  done(sent ? keyUnsupported(`${req.method} ${req.routeOptions.url}`) : undefined);
}
