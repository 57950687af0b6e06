/**
 * Tracing with the OpenTelemetry SDK, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (start.ts): spans batched to an OTLP/HTTP receiver as JSON or protobuf, context carried through
 * async work by AsyncLocalStorage, W3C `traceparent` read from requests. What is traced: each
 * request Fastify serves (a server span named by its route template, request-spans.ts), each
 * platform call (a client span; each attempt an event on it, so retries show, platform-spans.ts),
 * the intake of platform webhooks, and each attempt of an outgoing webhook delivery, linked to
 * the span that wrote its message (delivery-spans.ts). No span carries a token, a header value or
 * a query string: platform and subscriber URLs are recorded without their query (spans.ts).
 */
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../config.js';
import { VERSION } from '../version.js';
import type { Tracing } from './current.js';
import { deliverySpan } from './delivery-spans.js';
import { exporterFor } from './otlp-exporter.js';
import { platformSpans } from './platform-spans.js';
import { requestSpans } from './request-spans.js';
import { ended } from './spans.js';

/** How long shutdown waits for the last spans to be exported. */
const FLUSH_MS = 5000;

/** The SDK set up as this process's tracing: a batching provider, the global context and propagator. */
async function startProvider(config: TracingConfig): Promise<TracerProvider> {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      [ATTR_SERVICE_VERSION]: VERSION,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter: await exporterFor(config) })],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return provider;
}

export async function createTracing(config: TracingConfig): Promise<Tracing> {
  const provider = await startProvider(config);
  const tracer = provider.getTracer('fleetgate', VERSION);
  return {
    instrumentFastify: requestSpans(tracer),
    ...platformSpans(tracer),

    webhookIntake(run) {
      return ended(tracer.startSpan('webhook intake', { kind: SpanKind.INTERNAL }), run);
    },

    annotate(attributes) {
      trace.getSpan(context.active())?.setAttributes(attributes);
    },

    traceparent() {
      const carrier: Record<string, string> = {};
      propagation.inject(context.active(), carrier);
      return carrier['traceparent'];
    },

    delivery: (facts, run) => deliverySpan(tracer, facts, run),

    // A fresh object each time: pino merges the line's own fields into it.
    logFields: () => {
      const span = trace.getSpan(context.active());
      if (!span) return {};
      const c = span.spanContext();
      return { trace_id: c.traceId, span_id: c.spanId };
    },

    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown(),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_MS))),
      ]).finally(() => clearTimeout(timer));
    },
  };
}
