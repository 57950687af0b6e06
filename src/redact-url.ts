/**
 * A request URL as the log may hold it: the path, and the query with the value of every
 * parameter whose name looks secret replaced by [redacted]. OAuth codes and states, API keys,
 * tokens and signatures arrive in query strings (by design or by a client's mistake), and a log
 * is read by more people, and kept longer, than the service's data.
 */

/** Names containing one of these, in any case, are secret: x_token, Access_Token, api-key. */
const SECRET_PARTS =
  /code|state|key|token|secret|signature|passw|pwd|auth|credential|session|nonce|verifier|assertion|jwt|otp|ticket/i;
/** Short names that would match too much as parts. */
const SECRET_NAMES = new Set(['sig', 'sign', 'pass', 'pin', 'sas']);

export const REDACTED = '[redacted]';

function secretName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    // A malformed escape: the name is judged as written.
  }
  return SECRET_PARTS.test(name) || SECRET_NAMES.has(name.toLowerCase());
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url.slice(q + 1).split('&');
  let changed = false;
  for (let i = 0; i < params.length; i++) {
    const p = params[i] as string;
    const eq = p.indexOf('=');
    if (eq === -1 || !secretName(p.slice(0, eq))) continue;
    params[i] = `${p.slice(0, eq)}=${REDACTED}`;
    changed = true;
  }
  return changed ? `${url.slice(0, q)}?${params.join('&')}` : url;
}

/** A request as the log shows it: pino's `req` serializer for Fastify's requests. */
export function serializeRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number | undefined } | null;
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
