/**
 * The emulator's Fastify app and what every platform request passes through: the body parsers,
 * injected faults, the request counts, the suite's strict-check observer, the tracking header and
 * the platform's error shapes. Routes are added by the caller.
 */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { guardControl } from './control-guard.js';
import { platformRequest } from './contract/request.js';
import type { Faults } from './faults.js';
import type { EmulatorStats } from './oauth.js';
import type { EmulatorOptions } from './options.js';
import { dropRateLimitHeaders, type Quirks } from './quirks.js';
import { lazySchemaCompilers } from './schema-compilers.js';
import { zerr, ZoomError } from './zoom-error.js';

export function createPlatformApp(
  options: EmulatorOptions,
  deps: { stats: EmulatorStats; faults: Faults; quirks: Quirks },
): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger.child({ component: 'sandbox' }),
    bodyLimit: 1024 * 1024,
    schemaController: lazySchemaCompilers(),
  }) as unknown as FastifyInstance;
  addBodyParsers(app);
  guardControl(app, options.baseUrl);
  addFaultHook(app, deps.stats, deps.faults);
  // Requests whose JSON body could not be parsed: the strict check judges those as sent.
  const unparsable = new WeakSet<FastifyRequest>();
  if (options.onPlatformRequest) observeRequests(app, options.onPlatformRequest, unparsable);
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (deps.quirks.omitRateLimitHeaders && reply.statusCode === 429) dropRateLimitHeaders(reply);
    reply.header('x-zm-trackingid', `v=2.0;clid=us06;rid=${randomBytes(8).toString('hex')}`);
    done(null, payload);
  });
  setErrorHandlers(app, unparsable);
  return app;
}

function addBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  // A JSON content type with an empty body is no body, as on the platform: its own SDK sends
  // `Content-Type: application/json` on every call, a bodiless DELETE included.
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    void json(req, text, done);
  });
}

/** Counts each platform request and answers one a fault was injected for as the fault says. */
function addFaultHook(app: FastifyInstance, stats: EmulatorStats, faults: Faults): void {
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    if (path.startsWith('/_sandbox')) return;
    const key = `${req.method} ${path}`;
    stats.requests[key] = (stats.requests[key] ?? 0) + 1;
    const fault = faults.take(req.method, path);
    if (!fault) return;
    if (fault.delayMs > 0) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault.status === undefined) return;
    if (fault.status === 0) {
      req.raw.socket.destroy();
      return reply.hijack();
    }
    const headers: Record<string, string> = {};
    if (fault.retryAfter !== undefined) headers['Retry-After'] = fault.retryAfter;
    if (fault.status === 429) {
      headers['X-RateLimit-Category'] = 'Light';
      headers['X-RateLimit-Type'] = 'QPS';
    }
    const message =
      fault.status === 429
        ? 'You have reached the maximum per-second rate limit for this API. Try again later.'
        : fault.status >= 500
          ? 'Internal Server Error'
          : 'Injected fault.';
    return reply.code(fault.status).headers(headers).send({ code: fault.status, message });
  });
}

/**
 * The suite's strict check sees each request once: when its body has been read, or, for one
 * answered before that (a fault, a refused token, a body that is not JSON), when it is answered.
 */
function observeRequests(
  app: FastifyInstance,
  observe: NonNullable<EmulatorOptions['onPlatformRequest']>,
  unparsable: WeakSet<FastifyRequest>,
): void {
  const seen = new WeakSet<FastifyRequest>();
  const tell = (bodyRead: boolean) => (req: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    // By the route matched, so a percent-encoded control path (/%5Fsandbox/…) is one too.
    if (!seen.has(req) && !/^\/_sandbox(\/|\?|$)/.test(req.routeOptions.url ?? req.url)) {
      seen.add(req);
      observe(platformRequest(req, bodyRead || unparsable.has(req)));
    }
    done();
  };
  app.addHook('preHandler', tell(true));
  app.addHook('onResponse', tell(false));
}

function setErrorHandlers(app: FastifyInstance, unparsable: WeakSet<FastifyRequest>): void {
  app.setErrorHandler((err: Error & { code?: string; statusCode?: number }, req, reply) => {
    if (err instanceof ZoomError) return reply.code(err.status).headers(err.headers).send(err.body());
    if (
      err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
      err instanceof SyntaxError
    ) {
      unparsable.add(req);
      const e = zerr.invalidJson();
      return reply.code(e.status).send(e.body());
    }
    if (typeof err.statusCode === 'number' && err.statusCode < 500) {
      return reply
        .code(err.statusCode)
        .send({ code: err.statusCode === 400 ? 300 : err.statusCode, message: err.message });
    }
    req.log.error({ err }, 'sandbox handler failed');
    return reply.code(500).send({ code: 500, message: 'Internal Server Error' });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ code: 404, message: 'Not Found' }));
}
