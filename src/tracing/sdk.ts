/**
 * Tracing with the OpenTelemetry SDK, loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (start.ts): spans batched to an OTLP/HTTP receiver as JSON or protobuf, context carried through
 * async work by AsyncLocalStorage, W3C `traceparent` read from requests. What is traced: each
 * request Fastify serves (a server span named by its route template), each platform call (a
 * client span; each attempt an event on it, so retries show), the intake of platform webhooks,
 * and each attempt of an outgoing webhook delivery, linked to the span that wrote its message
 * (the outbox keeps that span's `traceparent`). No span carries a token, a header value or a
 * query string: platform and subscriber URLs are recorded without their query.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_FULL,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { cjsExport } from '../cjs-export.js';
import type { TracingConfig } from '../config.js';
import { VERSION } from '../version.js';
import type { Tracing, TracedTransport } from './current.js';

/** How long shutdown waits for the last spans to be exported. */
const FLUSH_MS = 5000;

/** OTEL_EXPORTER_OTLP_ENDPOINT is the receiver's base URL; traces go to its /v1/traces. */
export const tracesUrl = (endpoint: string) => `${endpoint.replace(/\/+$/, '')}/v1/traces`;

/** scheme://host/path: no credentials, query or fragment (a query may carry a token). */
function bareUrl(url: string): { full: string; address: string; port: number } | undefined {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { full: `${u.protocol}//${u.host}${u.pathname}`, address: u.hostname, port };
}

/** The URL attributes of a client span, from bareUrl's parts (none when the URL did not parse). */
const urlAttributes = (bare: ReturnType<typeof bareUrl>, full = bare?.full) =>
  bare
    ? {
        [ATTR_URL_FULL]: full ?? bare.full,
        [ATTR_SERVER_ADDRESS]: bare.address,
        [ATTR_SERVER_PORT]: bare.port,
      }
    : {};

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** An error's kind for `error.type`: our error code, a socket error code, or its name. */
function errorType(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; name?: unknown };
  if (typeof e.code === 'string') return e.code;
  if (typeof e.cause?.code === 'string') return e.cause.code;
  return typeof e.name === 'string' ? e.name : 'Error';
}

async function exporterFor(config: TracingConfig): Promise<SpanExporter> {
  const options = { url: tracesUrl(config.endpoint) };
  // CommonJS packages: a destructured import() comes out undefined in the bundle (cjs-export.ts).
  const Exporter =
    config.protocol === 'http/json'
      ? cjsExport(await import('@opentelemetry/exporter-trace-otlp-http'), 'OTLPTraceExporter')
      : cjsExport(await import('@opentelemetry/exporter-trace-otlp-proto'), 'OTLPTraceExporter');
  return new Exporter(options);
}

export async function createTracing(config: TracingConfig): Promise<Tracing> {
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
  const tracer = provider.getTracer('fleetgate', VERSION);

  /** The span of each request Fastify is serving, and the context its handler runs in. */
  const requests = new WeakMap<FastifyRequest, { span: Span; ctx: Context }>();
  /** Platform-call spans, with the attempts made so far. */
  const calls = new WeakMap<Span, { attempts: number }>();
  const endpoints = new Map<string, ReturnType<typeof bareUrl>>();

  const endRequest = (req: FastifyRequest, status: number | undefined) => {
    const s = requests.get(req);
    if (!s) return;
    requests.delete(req);
    if (status === undefined) {
      s.span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
      s.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the client went away' });
    } else {
      s.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      // Server spans: a 4xx is the caller's doing, only a 5xx is ours.
      if (status >= 500) {
        s.span.setAttribute(ATTR_ERROR_TYPE, String(status));
        s.span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    s.span.end();
  };

  const ended = <T>(span: Span, run: () => Promise<T>, after?: (result: T) => void): Promise<T> =>
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

  return {
    instrumentFastify(app: FastifyInstance) {
      app.addHook('onRequest', (req, _reply, done) => {
        const parent = propagation.extract(ROOT_CONTEXT, req.headers);
        const route = req.routeOptions.url;
        const ua = req.headers['user-agent'];
        const span = tracer.startSpan(
          route ? `${req.method} ${route}` : req.method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              [ATTR_HTTP_REQUEST_METHOD]: req.method,
              [ATTR_URL_PATH]: pathOf(req.url),
              [ATTR_URL_SCHEME]: req.protocol,
              [ATTR_NETWORK_PROTOCOL_VERSION]: req.raw.httpVersion,
              ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
              ...(ua ? { [ATTR_USER_AGENT_ORIGINAL]: ua } : {}),
            },
          },
          parent,
        );
        const ctx = trace.setSpan(parent, span);
        requests.set(req, { span, ctx });
        context.with(ctx, done);
      });
      // A body is read in the socket's own async context; the handler gets the request's back.
      app.addHook('preHandler', (req, _reply, done) => {
        const s = requests.get(req);
        if (s) context.with(s.ctx, done);
        else done();
      });
      app.addHook('onResponse', (req, reply, done) => {
        endRequest(req, reply.statusCode);
        done();
      });
      app.addHook('onRequestAbort', (req, done) => {
        endRequest(req, undefined);
        done();
      });
    },

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
        if (!span || !call) {
          // Outside a platform call (a file download): the request is its own client span.
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

    delivery(facts, run) {
      // Its own trace (a delivery outlives the request, and is retried long after it), linked
      // to the span whose change wrote the message.
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
    },

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
