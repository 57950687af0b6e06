/**
 * Security headers on every response Fastify sends: the static set (web/security-headers.ts) and
 * the deny-all CSP, unless the response set its own (pages, docs, SVGs).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DENY_ALL_CSP, SECURITY_HEADERS } from '../core/security-headers.js';

export { DENY_ALL_CSP, SECURITY_HEADERS, withSecurityHeaders } from '../core/security-headers.js';

export function installSecurityHeaders(app: FastifyInstance): void {
  const entries = Object.entries(SECURITY_HEADERS);
  app.addHook('onSend', (_req: FastifyRequest, reply: FastifyReply, payload, done) => {
    // Precomputed answers (brand, pages, docs) already carry every one; errors on their paths do not.
    for (const [name, value] of entries) if (!reply.hasHeader(name)) void reply.header(name, value);
    if (!reply.hasHeader('content-security-policy'))
      void reply.header('content-security-policy', DENY_ALL_CSP);
    done(null, payload);
  });
}
