/**
 * The request side of a platform call: what a call asks for (CallOptions), the guard on its
 * path, its URL and the request the transport sends (bearer token, User-Agent, JSON body,
 * timeout). Pure functions, so the client's steps stay short.
 */
import { AppError } from '../../core/errors.js';
import { USER_AGENT } from '../../version.js';
import type { RateLabel } from './budget.js';
import type { TransportRequest } from './http-transport.js';

export interface CallOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path below VIDEO_API_BASE, starting with '/'. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  label: RateLabel;
  /** Capability group, for the circuit breaker and the monitor. */
  group: string;
  /** Per-call timeout override. */
  timeoutMs?: number;
}

const DOT_SEGMENT = /\/(\.|%2e){1,2}(?=\/|$)/i;

/**
 * The guard step. URL resolution would climb out of the API path on a dot segment
 * (`/meetings/..` is `/v2/`); identifiers are encoded by seg(), and this is the last line
 * should one slip through.
 */
export function guardPath(path: string): void {
  if (DOT_SEGMENT.test(path)) {
    throw new AppError(400, 'validation_failed', 'An identifier in the request is not a valid path segment.');
  }
}

/** application/x-www-form-urlencoded, as URLSearchParams writes a query (space as +). */
export const formEncode = (s: string) =>
  encodeURIComponent(s).replace(/%20|[!'()~]/g, (c) =>
    c === '%20' ? '+' : `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** The call's URL, its query encoded as URLSearchParams would (a URL object per call costs more). */
export function callUrl(apiBase: string, path: string, query: CallOptions['query']): string {
  let url = `${apiBase}${path}`;
  let sep = '?';
  for (const k in query) {
    const v = query[k];
    if (v === undefined) continue;
    url += `${sep}${formEncode(k)}=${formEncode(String(v))}`;
    sep = '&';
  }
  return url;
}

/** The request one attempt sends: the bearer token, our User-Agent, the JSON body if any. */
export function callRequest(opts: CallOptions, token: string, timeoutMs: number): TransportRequest {
  return {
    method: opts.method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    timeoutMs,
  };
}
