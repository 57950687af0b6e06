/**
 * The request id: the caller's `x-request-id` when it is a sane token, else a fresh UUID. One
 * rule for Fastify's genReqId and the edge (edge.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SANE = /^[\w.-]{1,64}$/;

export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE.test(given) ? given : randomUUID();
}
