/**
 * Security headers: one static set computed once by helmet at load, and the one rule every answer
 * follows (withSecurityHeaders): the static set and a deny-all Content-Security-Policy, under the
 * answer's own headers, so a page, doc or SVG that set its own policy keeps it (JSON needs no
 * sub-resources). Every site that writes headers applies it: the onSend hook
 * (http/security-headers.ts), precomputed answers (precomputed.ts, whose bytes the edge sends),
 * the router's errors (http/errors.ts) and the refusals written before Fastify (http/client-errors.ts).
 */
import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Responses that render nothing (JSON, text, errors) need no source of any kind. */
export const DENY_ALL_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function helmetHeaders(): Record<string, string> {
  const out: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => {
      out[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete out[name.toLowerCase()];
    },
  } as unknown as ServerResponse;
  helmet({
    // The CSP differs per response (pages bring their own), so it is not part of the static set.
    contentSecurityPolicy: false,
    // The brand API is meant to be embedded from other sites (images, fonts, CSS with CORS *).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // We do not own the policy of sibling subdomains, so HSTS covers this host only.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
    xFrameOptions: { action: 'deny' },
  })({} as IncomingMessage, res, () => undefined);
  return out;
}

/** The static header set every response carries (helmet's defaults, tuned above). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(helmetHeaders());

/**
 * The rule: an answer's own headers, and every security header it does not set itself, the
 * deny-all CSP included unless it has its own policy.
 */
export function withSecurityHeaders(headers: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { ...SECURITY_HEADERS, 'content-security-policy': DENY_ALL_CSP, ...headers };
}
