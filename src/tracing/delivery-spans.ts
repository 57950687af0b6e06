/**
 * A span for each attempt of an outgoing webhook delivery: its own trace (a delivery outlives the
 * request, and is retried long after it), linked to the span whose change wrote the message (the
 * outbox keeps that span's `traceparent`). Anything but a 2xx marks it an error.
 */
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Link,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
} from '@opentelemetry/semantic-conventions';
import type { DeliveryFacts } from './current.js';
import { bareUrl, ended, urlAttributes } from './spans.js';

export function deliverySpan<T extends { result: { status: number | null; error: string | null } }>(
  tracer: Tracer,
  facts: DeliveryFacts,
  run: () => Promise<T>,
): Promise<T> {
  const cause =
    facts.traceparent === undefined
      ? undefined
      : trace.getSpanContext(propagation.extract(ROOT_CONTEXT, { traceparent: facts.traceparent }));
  const links: Link[] = cause ? [{ context: cause }] : [];
  const span = tracer.startSpan(
    'webhook delivery',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: 'POST',
        ...urlAttributes(bareUrl(facts.url)),
        ...(facts.attempt > 1 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: facts.attempt - 1 } : {}),
        'fleetgate.webhook.delivery_id': facts.deliveryId,
        'fleetgate.webhook.message_id': facts.messageId,
        'fleetgate.webhook.subscription_id': facts.subscriptionId,
        'fleetgate.webhook.type': facts.type,
        ...(cause ? { 'fleetgate.webhook.cause_trace_id': cause.traceId } : {}),
      },
      links,
    },
    ROOT_CONTEXT,
  );
  return ended(span, run, ({ result }) => {
    if (result.status !== null) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result.status);
    if (result.status === null || result.status < 200 || result.status >= 300) {
      span.setAttribute(ATTR_ERROR_TYPE, result.error ?? String(result.status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  });
}
