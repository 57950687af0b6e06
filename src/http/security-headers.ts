/**
 * Security headers on every response Fastify sends, by the one rule (core/security-headers.ts):
 * each header the response did not set itself (a page, doc or SVG keeps its own CSP).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withSecurityHeaders } from '../core/security-headers.js';

export { DENY_ALL_CSP, SECURITY_HEADERS, withSecurityHeaders } from '../core/security-headers.js';

export function installSecurityHeaders(app: FastifyInstance): void {
  const entries = Object.entries(withSecurityHeaders());
  app.addHook('onSend', (_req: FastifyRequest, reply: FastifyReply, payload, done) => {
    // Precomputed answers (brand, pages, docs) already carry every one; errors on their paths do not.
    for (const [name, value] of entries) if (!reply.hasHeader(name)) void reply.header(name, value);
    done(null, payload);
  });
}
