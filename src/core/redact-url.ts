/**
 * A request URL as the log may hold it: the path, and the query with the value of every
 * parameter whose name looks secret replaced by [redacted], and of every one the caller's test
 * says is a secret (the API key, under any name or none). OAuth codes and states, API keys,
 * tokens and signatures arrive in query strings (by design or by a client's mistake), and a log
 * is read by more people, and kept longer, than the service's data.
 */

/** Names containing one of these, in any case, are secret: x_token, Access_Token, api-key. */
const SECRET_PARTS =
  /code|state|key|token|secret|signature|passw|pwd|auth|credential|session|nonce|verifier|assertion|jwt|otp|ticket/i;
/** Short names that would match too much as parts. */
const SECRET_NAMES = new Set(['sig', 'sign', 'pass', 'pin', 'sas']);

export const REDACTED = '[redacted]';

/** A query part as the form decoding reads it; a malformed escape is taken as written. */
function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function secretName(raw: string): boolean {
  const name = decoded(raw);
  return SECRET_PARTS.test(name) || SECRET_NAMES.has(name.toLowerCase());
}

/** Whether a (decoded) query value is a secret whatever its name; it should compare in constant time. */
export type SecretValue = (value: string) => boolean;

export function redactUrl(url: string, secretValue?: SecretValue): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const params = url.slice(q + 1).split('&');
  let changed = false;
  const secret = (raw: string) => secretValue !== undefined && raw !== '' && secretValue(decoded(raw));
  for (let i = 0; i < params.length; i++) {
    const p = params[i] as string;
    const eq = p.indexOf('=');
    // A bare part (no `=`) is a value with no name.
    if (eq === -1) {
      if (!secret(p)) continue;
      params[i] = REDACTED;
    } else {
      if (!secretName(p.slice(0, eq)) && !secret(p.slice(eq + 1))) continue;
      params[i] = `${p.slice(0, eq)}=${REDACTED}`;
    }
    changed = true;
  }
  return changed ? `${url.slice(0, q)}?${params.join('&')}` : url;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  /** The client's address: X-Forwarded-For's where FLEETGATE_TRUST_PROXY believes the proxy. */
  ip?: string;
  socket?: { remotePort?: number | undefined } | null;
}

/** pino's `req` serializer for Fastify's requests, redacting also the values `secretValue` names. */
export function requestSerializer(secretValue?: SecretValue) {
  return (req: LoggedRequest) => ({
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url, secretValue),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  });
}

/** A request as the log shows it, by name alone (the logger's default; the app adds the API key). */
export const serializeRequest = requestSerializer();
