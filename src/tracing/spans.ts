/**
 * What the span builders share: running work inside a span that ends with it (an error marks
 * it), an error's `error.type`, and a URL's attributes without credentials, query or fragment
 * (a query may carry a token).
 */
import { context, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';

export interface BareUrl {
  full: string;
  address: string;
  port: number;
}

/** scheme://host/path: no credentials, query or fragment (a query may carry a token). */
export function bareUrl(url: string): BareUrl | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { full: `${u.protocol}//${u.host}${u.pathname}`, address: u.hostname, port };
}

/** The URL attributes of a client span, from bareUrl's parts (none when the URL did not parse). */
export const urlAttributes = (bare: BareUrl | undefined, full = bare?.full) =>
  bare
    ? {
        [ATTR_URL_FULL]: full ?? bare.full,
        [ATTR_SERVER_ADDRESS]: bare.address,
        [ATTR_SERVER_PORT]: bare.port,
      }
    : {};

/** An error's kind for `error.type`: our error code, a socket error code, or its name. */
export function errorType(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (typeof e.cause?.code === 'string') return e.cause.code;
  return typeof e.name === 'string' ? e.name : 'Error';
}

/** Runs `run` as the span's work (the active span inside it) and ends the span with it. */
export const ended = <T>(span: Span, run: () => Promise<T>, after?: (result: T) => void): Promise<T> =>
  context.with(trace.setSpan(context.active(), span), async () => {
    try {
      const result = await run();
      after?.(result);
      return result;
    } catch (err) {
      span.setAttribute(ATTR_ERROR_TYPE, errorType(err));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
