/**
 * A client span for each platform call, with each attempt an event on it (so retries show), and
 * a transport wrapper that records those attempts; a request made outside a call (a file
 * download) is a client span of its own. URLs are recorded without their query.
 */
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
} from '@opentelemetry/semantic-conventions';
import type { TracedTransport, Tracing } from './current.js';
import { bareUrl, ended, errorType, urlAttributes, type BareUrl } from './spans.js';

/** Tracing's platformCall and platformTransport (current.ts), over one map of open call spans. */
export type PlatformSpans = Pick<Tracing, 'platformCall' | 'platformTransport'>;

export function platformSpans(tracer: Tracer): PlatformSpans {
  /** Platform-call spans, with the attempts made so far. */
  const calls = new WeakMap<Span, { attempts: number }>();
  const endpoints = new Map<string, BareUrl | undefined>();
  return {
    platformCall(apiBase, call, run) {
      let base = endpoints.get(apiBase);
      if (!endpoints.has(apiBase)) endpoints.set(apiBase, (base = bareUrl(apiBase)));
      const span = tracer.startSpan(call.method, {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: call.method,
          ...urlAttributes(base, base && `${base.full.replace(/\/+$/, '')}${call.path}`),
          'fleetgate.platform.group': call.group,
          'fleetgate.platform.label': call.label,
        },
      });
      calls.set(span, { attempts: 0 });
      return ended(span, run);
    },

    platformTransport<I extends { method?: string }, R extends { readonly status: number }>(
      inner: TracedTransport<I, R>,
    ): TracedTransport<I, R> {
      return async (url, init) => {
        const span = trace.getSpan(context.active());
        const call = span && calls.get(span);
        if (!span || !call) return ownSpan(tracer, inner, url, init);
        const attempt = ++call.attempts;
        if (attempt > 1) span.setAttribute(ATTR_HTTP_REQUEST_RESEND_COUNT, attempt - 1);
        try {
          const res = await inner(url, init);
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.status);
          span.addEvent('platform.attempt', { attempt, [ATTR_HTTP_RESPONSE_STATUS_CODE]: res.status });
          return res;
        } catch (err) {
          span.addEvent('platform.attempt', { attempt, [ATTR_ERROR_TYPE]: errorType(err) });
          throw err;
        }
      };
    },
  };
}

/** Outside a platform call (a file download): the request is its own client span. */
function ownSpan<I extends { method?: string }, R extends { readonly status: number }>(
  tracer: Tracer,
  inner: TracedTransport<I, R>,
  url: string,
  init: I,
): Promise<R> {
  const method = init.method ?? 'GET';
  const own = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: method,
      ...urlAttributes(bareUrl(url)),
    },
  });
  return ended(
    own,
    () => inner(url, init),
    (res) => {
      own.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.status);
      if (res.status >= 400) own.setStatus({ code: SpanStatusCode.ERROR });
    },
  );
}
