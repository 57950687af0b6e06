/**
 * Precomputed responses (web/precomputed.ts) sent through Fastify: conditional GET, content-coding
 * negotiation and HEAD picked per request, nothing hashed or compressed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerFor, type Precomputed } from '../web/precomputed.js';

export {
  answerFor,
  pickEncoding,
  precompute,
  type Answer,
  type CompressionCache,
  type Precomputed,
  type PrecomputeOptions,
} from '../web/precomputed.js';

export function sendPrecomputed(req: FastifyRequest, reply: FastifyReply, res: Precomputed): FastifyReply {
  const a = answerFor(req.method, req.headers['if-none-match'], req.headers['accept-encoding'], res);
  if (a.status === 304) return reply.code(304).headers(a.head.headers).send();
  if (!a.body) {
    // HEAD: Fastify would recompute Content-Length from an empty body; write the head ourselves.
    reply.hijack();
    reply.raw.writeHead(200, { ...a.head.headers, 'x-request-id': String(req.id) });
    reply.raw.end();
    return reply;
  }
  return reply.headers(a.head.headers).send(a.body);
}
