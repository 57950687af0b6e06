/**
 * buildEmulator: the platform emulator as its own Fastify app — OAuth server, REST under /v2
 * from the group modules, the hosted-MCP stand-in, webhooks out, and the /_sandbox control API.
 * It keeps its state in the data dir (state.ts) and never reads the environment.
 */
import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { lazySchemaCompilers } from './schema-compilers.js';
import type {
  DemoUser,
  RouteDef,
  EmulatorContext,
  EmulatorModule,
  EmulatorRequest,
  SeedContext,
} from './context.js';
import { registerControl } from './control.js';
import { controlBodyParser, guardControl } from './control-guard.js';
import { checkRequest, formatViolation } from './contract/check.js';
import { ContractLog } from './contract/log.js';
import { meWithoutUser, platformRequest, refusalOf } from './contract/request.js';
import { committedRules } from './contract/rules.js';
import { Faults } from './faults.js';
import { registerOAuth, revokeAllTokens, type EmulatorStats } from './oauth.js';
import type { EmulatorOptions } from './options.js';
import { createRng } from './prng.js';
import { dropRateLimitHeaders, registerQuirks } from './quirks.js';
import { RateLimiter } from './rate-limit.js';
import { EmulatorState } from './state.js';
import { registerHostedMcp } from './routes/hosted-mcp.js';
import { appDeauthorizedEvent, VALIDATION_INTERVAL_MS, WebhookSender } from './webhooks.js';
import { zerr, ZoomError } from './zoom-error.js';

export interface Emulator {
  app: FastifyInstance;
  context: EmulatorContext;
  stats: () => EmulatorStats;
  webhooks: WebhookSender;
  faults: Faults;
  /** The contract violations seen (contract/log.ts). */
  contract: ContractLog;
  reset: () => void;
  /** Saves the state now, once; false when that failed (logged). */
  save: () => boolean;
  close: () => Promise<void>;
}

const PAGE_TOKEN_TTL_MS = 15 * 60_000;
/** Seeded dates follow the calendar; older than this, the demo data is generated again. */
const REANCHOR_AFTER_DAYS = 7;

export function demoUserFor(seed: number): DemoUser {
  const rng = createRng(seed);
  return {
    id: rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    accountId: rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
    email: 'avery.quinn@meridianfleet.example',
    firstName: 'Avery',
    lastName: 'Quinn',
    pmi: Number(rng.digits(10)),
    timezone: 'America/Chicago',
  };
}

const dayOf = (d: Date) => d.toISOString().slice(0, 10);

export function seedAll(modules: EmulatorModule[], seed: number, anchorDay: string): Record<string, unknown> {
  const demo = demoUserFor(seed);
  const anchor = new Date(`${anchorDay}T00:00:00Z`);
  const slices: Record<string, unknown> = {};
  for (const m of modules) {
    // Each module gets its own stream, so adding a module never changes another's data.
    let h = seed;
    for (const ch of m.name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) >>> 0;
    const s: SeedContext = {
      rng: createRng(h),
      anchor,
      demo,
      at: (days, hh = 0, mm = 0) => {
        const d = new Date(anchor.getTime() + days * 86_400_000 + (hh * 60 + mm) * 60_000);
        return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
      },
    };
    slices[m.name] = m.seed(s);
  }
  return slices;
}

export function buildEmulator(options: EmulatorOptions, modules: EmulatorModule[]): Emulator {
  const demo = demoUserFor(options.seed);
  const today = dayOf(options.now());
  const stateLog = options.logger.child({ component: 'sandbox-state' });
  let state = EmulatorState.load(options.dataDir, stateLog);
  if (state) {
    const age = (Date.parse(today) - Date.parse(state.file.anchor)) / 86_400_000;
    if (age > REANCHOR_AFTER_DAYS || modules.some((m) => !(m.name in state!.file.slices))) {
      options.logger.info({ anchor: state.file.anchor }, 'sandbox demo data re-generated for today');
      state.file.anchor = today;
      state.file.slices = seedAll(modules, options.seed, today);
      state.changed();
    }
  } else {
    state = EmulatorState.fresh(options.dataDir, today, seedAll(modules, options.seed, today), stateLog);
    state.changed();
  }
  let st: EmulatorState = state;

  const stats: EmulatorStats = {
    tokenGrants: { authorization_code: 0, refresh_token: 0, account_credentials: 0, client_credentials: 0 },
    requests: {},
    rejectedRefreshTokens: 0,
    lastAccessToken: null,
    lastRefreshToken: null,
  };
  const limiter = new RateLimiter(options.now, options.dailyLimits);
  const quirks = { omitRateLimitHeaders: options.omitRateLimitHeaders ?? false };
  const faults = new Faults();
  const webhooks = new WebhookSender({
    url: () => options.webhookUrl,
    secret: options.webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs,
    now: options.now,
    logger: options.logger,
  });
  const pageTokens = new Map<string, { sig: string; offset: number; expiresAt: number }>();
  const knownScopes = new Set<string>();

  const contract = new ContractLog(options.now);
  const rules = committedRules().operations;
  const contractLog = options.logger.child({ component: 'sandbox-contract' });
  contract.listen((v) => contractLog.warn({ violation: v }, formatViolation(v)));

  const app = Fastify({
    loggerInstance: options.logger.child({ component: 'sandbox' }),
    bodyLimit: 1024 * 1024,
    schemaController: lazySchemaCompilers(),
  }) as unknown as FastifyInstance;
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

  guardControl(app, options.baseUrl);
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
  // Requests whose JSON body could not be parsed: the strict check judges those as sent.
  const unparsable = new WeakSet<FastifyRequest>();
  if (options.onPlatformRequest) {
    // The suite's strict check sees each request once: when its body has been read, or, for one
    // answered before that (a fault, a refused token, a body that is not JSON), when it is answered.
    const observe = options.onPlatformRequest;
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
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (quirks.omitRateLimitHeaders && reply.statusCode === 429) dropRateLimitHeaders(reply);
    reply.header('x-zm-trackingid', `v=2.0;clid=us06;rid=${randomBytes(8).toString('hex')}`);
    done(null, payload);
  });
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

  const authenticate = (req: FastifyRequest): EmulatorRequest => {
    const h = req.headers.authorization;
    if (!h?.startsWith('Bearer ')) throw zerr.noToken();
    const tok = st.file.access[h.slice(7).trim()];
    if (!tok) throw zerr.invalidToken();
    if (tok.expiresAt <= options.now().getTime()) throw zerr.expiredToken();
    (req as EmulatorRequest).auth = tok;
    return req as EmulatorRequest;
  };

  const context: EmulatorContext = {
    options,
    demo,
    baseUrl: options.baseUrl,
    route(def: RouteDef) {
      for (const s of def.scopes) knownScopes.add(s);
      app.route({
        method: def.method,
        url: `/v2${def.url}`,
        handler: async (req: FastifyRequest, reply: FastifyReply) => {
          const r = authenticate(req);
          if (!def.scopes.some((s) => r.auth.scopes.includes(s))) {
            // Name the endpoint's granular scope(s), as the platform does.
            const granular = def.scopes.filter(
              (s) => s.split(':').length >= 3 && !s.endsWith(':admin') && !s.endsWith(':master'),
            );
            throw zerr.missingScopes(granular.length ? granular : def.scopes.slice(0, 1));
          }
          if (options.rateLimits) limiter.hit(r.auth.accountId, def.label, def.product);
          const rule = rules[`${String(def.method)} /v2${def.url}`];
          if (r.auth.userId === null) {
            const me = meWithoutUser(rule, platformRequest(req));
            if (me) {
              contract.record('rest', [me], false);
              throw zerr.userNotFound('me');
            }
          }
          if (rule) {
            const broken = checkRequest(rule, platformRequest(req));
            if (broken.length > 0) {
              contract.record('rest', broken);
              const refusal = refusalOf(rule, broken);
              if (refusal) throw refusal;
            }
          }
          return def.handler(r, reply);
        },
      });
    },
    slice: <T>(name: string) => st.slice<T>(name),
    changed: () => st.changed(),
    now: options.now,
    meetingWrite(hostId) {
      if (options.rateLimits) limiter.meetingWrite(hostId);
    },
    user(req, userId) {
      if (userId === 'me') {
        if (req.auth.userId === demo.id) return demo;
        throw zerr.userNotFound('me');
      }
      if (userId === demo.id || userId.toLowerCase() === demo.email) return demo;
      throw zerr.userNotFound(userId);
    },
    paginate(req, items, opts) {
      const tokenParam = opts.tokenParam ?? 'next_page_token';
      const sizeParam = opts.sizeParam ?? 'page_size';
      const query = { ...(req.query as Record<string, unknown>) };
      const rawSize = query[sizeParam];
      delete query[tokenParam];
      delete query[sizeParam];
      let size = opts.defaultSize;
      if (rawSize !== undefined && rawSize !== '') {
        const n = Number(rawSize);
        if (!Number.isInteger(n) || n < 1) throw zerr.badParam(sizeParam);
        size = Math.min(n, opts.maxSize);
      }
      const sig = `${req.routeOptions.url ?? ''}|${JSON.stringify(req.params)}|${JSON.stringify(Object.entries(query).sort())}`;
      let offset = 0;
      const token = query && (req.query as Record<string, unknown>)[tokenParam];
      if (typeof token === 'string' && token !== '') {
        const t = pageTokens.get(token);
        if (!t || t.sig !== sig || t.expiresAt < options.now().getTime()) throw zerr.badPageToken();
        offset = t.offset;
      }
      const page = items.slice(offset, offset + size);
      let next = '';
      if (offset + size < items.length) {
        next = randomBytes(18).toString('base64url');
        pageTokens.set(next, {
          sig,
          offset: offset + size,
          expiresAt: options.now().getTime() + PAGE_TOKEN_TTL_MS,
        });
      }
      return { items: page, nextPageToken: next, pageSize: size, totalRecords: items.length };
    },
    webhooks: {
      emit(event, object, extra = {}, topLevel = {}) {
        const envelope = {
          event,
          event_ts: options.now().getTime(),
          payload: { account_id: demo.accountId, object, ...extra },
          ...topLevel,
        };
        void webhooks
          .send(envelope)
          .catch((err: unknown) => options.logger.warn({ err }, 'sandbox webhook failed'));
      },
    },
    newId(kind, length = 22) {
      if (kind === 'meeting')
        return Number(`8${Array.from({ length: 10 }, () => Math.floor(Math.random() * 10)).join('')}`);
      if (kind === 'uuid') {
        // Real instance UUIDs are base64 and sometimes hold '/', which callers must double-encode.
        const raw = randomBytes(16).toString('base64').slice(0, 22);
        return raw.includes('/') ? raw : `${raw.slice(0, 10)}/${raw.slice(11)}`;
      }
      return randomBytes(length).toString('base64url').slice(0, length);
    },
  };

  registerOAuth(app, {
    options,
    state: () => st,
    demo: () => demo,
    stats,
    allScopes: () => [...knownScopes],
    contract,
  });
  for (const m of modules) m.register(context);
  // The hosted-MCP stand-in needs the meetings (and recordings) data.
  if (modules.some((m) => m.name === 'meetings'))
    registerHostedMcp(app, { ctx: context, authenticate: (req) => authenticate(req).auth, contract });

  const reset = () => {
    const fresh = EmulatorState.fresh(
      options.dataDir,
      dayOf(options.now()),
      seedAll(modules, options.seed, dayOf(options.now())),
      stateLog,
    );
    // Issued tokens survive a data reset; the demo account is the same one.
    fresh.file.access = st.file.access;
    fresh.file.refresh = st.file.refresh;
    // A retry of the old state's save must not overwrite the new one.
    st.dispose();
    st = fresh;
    st.changed();
    faults.clear();
    limiter.reset();
    quirks.omitRateLimitHeaders = options.omitRateLimitHeaders ?? false;
    pageTokens.clear();
  };
  webhooks.scheduleValidation(options.webhookValidationIntervalMs ?? VALIDATION_INTERVAL_MS);
  const control = {
    faults,
    contract,
    webhooks,
    stats: () => stats,
    expireTokens: () => {
      const now = options.now().getTime();
      for (const t of Object.values(st.file.access)) t.expiresAt = Math.min(t.expiresAt, now);
      st.changed();
    },
    revokeTokens: () => revokeAllTokens(st),
    deauthorize: async () => {
      const revoked = revokeAllTokens(st);
      const event = appDeauthorizedEvent({
        accountId: demo.accountId,
        userId: demo.id,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        now: options.now(),
      });
      return { revoked, delivery: await webhooks.send(event) };
    },
    emit: (event: string, object: unknown) => {
      const obj = (object ?? {}) as Record<string, unknown>;
      if (!modules.some((m) => m.emit?.(context, event, obj))) context.webhooks.emit(event, obj);
    },
    reset,
  };
  // Its own scope: the control routes take JSON only (an empty body too), the platform's keep theirs.
  void app.register(function controlApi(scope, _opts, done) {
    controlBodyParser(scope);
    registerQuirks(scope, quirks);
    registerControl(scope, control);
    done();
  });

  return {
    app,
    context,
    stats: () => stats,
    webhooks,
    faults,
    contract,
    reset,
    save: () => st.flush(),
    close: async () => {
      webhooks.close();
      await app.close();
      st.flush();
    },
  };
}
