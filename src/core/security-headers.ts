/**
 * Security headers: one static set computed once by helmet at load, a plain record so precomputed
 * responses (web/precomputed.ts) fold the same bytes into their headers; http/security-headers.ts
 * stamps it on every other response. A response that set its own Content-Security-Policy (pages,
 * docs, SVGs) keeps it; the rest get a deny-all policy, since JSON needs no sub-resources.
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
 * A header record with the rule the hook below applies: every security header it does not set
 * itself, and the deny-all CSP unless it has its own. For answers written outside Fastify.
 */
export function withSecurityHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return { ...SECURITY_HEADERS, 'content-security-policy': DENY_ALL_CSP, ...headers };
}
