/**
 * Precomputed responses (web/precomputed.ts) sent through Fastify: conditional GET, content-coding
 * negotiation and HEAD picked per request, nothing hashed or compressed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerFor, type Answer, type Precomputed } from '../core/precomputed.js';
import { requestId } from './request-id.js';

export {
  answerFor,
  pickEncoding,
  precompute,
  PUBLIC_CORS,
  type Answer,
  type CompressionCache,
  type Precomputed,
  type PrecomputeOptions,
} from '../core/precomputed.js';

export function sendPrecomputed(req: FastifyRequest, reply: FastifyReply, res: Precomputed): FastifyReply {
  const a = answerFor(req.method, req.headers['if-none-match'], req.headers['accept-encoding'], res);
  if (a.status === 304) return reply.code(304).headers(a.head.headers).send();
  if (!a.body) {
    // HEAD: Fastify would recompute Content-Length from an empty body; write the head ourselves.
    reply.hijack();
    sendAnswer(req.raw, reply.raw, a, req.id);
    return reply;
  }
  return reply.headers(a.head.headers).send(a.body);
}

/**
 * Writes a precomputed answer on the raw response (the edge, and HEAD above): every header in
 * one writeHead with the request id (a setHeader before it would send each precomputed header
 * through Node's slower path), then the body, if any.
 */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, a: Answer, id = requestId(req)): void {
  res.writeHead(a.status, [...a.head.flat, 'x-request-id', id]);
  res.end(a.body);
}
