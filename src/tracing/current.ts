/**
 * Whether tracing is on, for the code that would trace: one module variable, read once where
 * an app or a client is built and once per traced operation, so with tracing off (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) the hot path pays a check and no OpenTelemetry module is loaded.
 * start.ts sets it before the logger, the app and the gateway are built; sdk.ts implements it.
 */
import type { FastifyInstance } from 'fastify';

/** A platform REST call as the client makes it (path without the query). */
export interface PlatformCallFacts {
  method: string;
  path: string;
  group: string;
  label: string;
}

/** One attempt of an outgoing webhook delivery. */
export interface DeliveryFacts {
  url: string;
  deliveryId: string;
  messageId: string;
  subscriptionId: string;
  type: string;
  attempt: number;
  /** The `traceparent` stored with the message (the span that wrote it), for a span link. */
  traceparent?: string | undefined;
}

export type Attributes = Record<string, string | number | boolean>;

/**
 * A platform transport as tracing sees it: the method it sends and the status it gets back. The
 * gateway's Transport (gateway/platform/http-transport.ts) is one; tracing needs no more of it.
 */
export type TracedTransport<I extends { method?: string }, R extends { readonly status: number }> = (
  url: string,
  init: I,
) => Promise<R>;

export interface Tracing {
  /** A server span per request: hooks on the app, continuing an incoming `traceparent`. */
  instrumentFastify(app: FastifyInstance): void;
  /** A client span around one platform call (its retries become events on it). */
  platformCall<T>(apiBase: string, call: PlatformCallFacts, run: () => Promise<T>): Promise<T>;
  /** Records each attempt on the platform call's span (or its own span outside a call). */
  platformTransport<I extends { method?: string }, R extends { readonly status: number }>(
    transport: TracedTransport<I, R>,
  ): TracedTransport<I, R>;
  /** A span around the intake of one platform webhook delivery. */
  webhookIntake<T>(run: () => Promise<T>): Promise<T>;
  /** Sets attributes on the current span, if any. */
  annotate(attributes: Attributes): void;
  /** A span for one attempt of an outgoing webhook delivery. */
  delivery<T extends { result: { status: number | null; error: string | null } }>(
    facts: DeliveryFacts,
    run: () => Promise<T>,
  ): Promise<T>;
  /** The W3C `traceparent` of the current span, if any (stored with outbox messages). */
  traceparent(): string | undefined;
  /** The current trace and span ids for a log line (pino's mixin). */
  readonly logFields: () => Record<string, string>;
  /** Ends tracing: the spans still buffered are exported first. */
  shutdown(): Promise<void>;
}

let current: Tracing | undefined;

/** The tracing in effect, undefined when it is off. */
export const tracing = (): Tracing | undefined => current;

export function setTracing(t: Tracing | undefined): void {
  current = t;
}
