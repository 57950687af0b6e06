/**
 * Writing an answer outside Fastify (the MCP and gateway fast paths) as its routes would: the
 * answer's own headers with the security headers folded in, the request id, any per-request
 * headers (CORS, rate limits, Retry-After), the length, one writeHead and one write, then the
 * metrics count and the "request completed" log line that Fastify's answers get (its URL with
 * secret query values redacted, as Fastify's are).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { redactUrl } from '../redact-url.js';
import { requestId } from './request-id.js';
import { withSecurityHeaders } from './security-headers.js';

/** Told of every answer (metrics): method, route pattern, status, seconds. */
export type OnAnswer = (method: string, route: string, status: number, seconds: number) => void;

/**
 * An answer's headers with the security headers folded in, flat as writeHead takes them, made
 * once per header record (keyed by the object) and copied for each answer.
 */
export function flatHeaders(): (headers: Readonly<Record<string, string>>) => string[] {
  const flat = new WeakMap<Readonly<Record<string, string>>, string[]>();
  return (headers) => {
    let f = flat.get(headers);
    if (!f) {
      f = Object.entries(withSecurityHeaders(headers)).flat();
      flat.set(headers, f);
    }
    return f.slice();
  };
}

export interface FastAnswer {
  method: string;
  /** The route pattern (the metrics label). */
  route: string;
  /** performance.now() when the request was taken. */
  started: number;
  status: number;
  /** flatHeaders()'s copy: appended to here. */
  headers: string[];
  /** Per-request headers, in order; later ones are appended after earlier ones. */
  extra: ReadonlyArray<Readonly<Record<string, string>> | undefined>;
  parts: ReadonlyArray<Buffer | string>;
  /** The request id, when it was needed before (a log line); made here otherwise. */
  id?: string;
}

export function writeFastAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  a: FastAnswer,
  o: { onAnswer?: OnAnswer | undefined; log: Logger },
): void {
  const id = a.id ?? requestId(req);
  const headers = a.headers;
  headers.push('x-request-id', id);
  for (const more of a.extra) if (more) for (const k in more) headers.push(k, more[k] as string);
  let length = 0;
  for (const p of a.parts) length += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  headers.push('content-length', String(length));
  res.writeHead(a.status, headers);
  // Corked, the head, the parts and the end go out in one writev (end() uncorks); uncorked,
  // the first write was a syscall of its own.
  res.cork();
  for (let i = 0; i < a.parts.length - 1; i++) res.write(a.parts[i]);
  res.end(a.parts[a.parts.length - 1]);
  const ms = performance.now() - a.started;
  o.onAnswer?.(a.method, a.route, a.status, ms / 1000);
  if (o.log.isLevelEnabled('info'))
    o.log.info(
      {
        reqId: id,
        req: { method: a.method, url: redactUrl(req.url ?? '/') },
        res: { statusCode: a.status },
        responseTime: ms,
      },
      'request completed',
    );
}
