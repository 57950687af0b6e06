/**
 * A server span for each request Fastify serves, named by its route template and continuing an
 * incoming W3C `traceparent`; the handler runs in the request's context. Only a 5xx (or the
 * client going away) marks the span an error: a 4xx is the caller's doing.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type RequestSpans = WeakMap<FastifyRequest, { span: Span; ctx: Context }>;

const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** The request's server span, started in the context its `traceparent` names. */
function startRequest(tracer: Tracer, req: FastifyRequest, parent: Context): Span {
  const route = req.routeOptions.url;
  const ua = req.headers['user-agent'];
  return tracer.startSpan(
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
}

/** Ends the request's span with its status, or as aborted (`status` undefined). */
function endRequest(requests: RequestSpans, req: FastifyRequest, status: number | undefined): void {
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
}

/** Hooks on an app that give each request its server span (one map of open spans for every app). */
export function requestSpans(tracer: Tracer): (app: FastifyInstance) => void {
  /** The span of each request Fastify is serving, and the context its handler runs in. */
  const requests: RequestSpans = new WeakMap();
  return (app) => {
    app.addHook('onRequest', (req, _reply, done) => {
      const parent = propagation.extract(ROOT_CONTEXT, req.headers);
      const span = startRequest(tracer, req, parent);
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
      endRequest(requests, req, reply.statusCode);
      done();
    });
    app.addHook('onRequestAbort', (req, done) => {
      endRequest(requests, req, undefined);
      done();
    });
  };
}
