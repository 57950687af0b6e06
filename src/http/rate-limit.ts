/**
 * Rate limits on our own API (@fastify/rate-limit, IETF draft RateLimit-* headers, Retry-After on
 * 429): the private gateway paths per operator (API key or dashboard session) or else per IP,
 * and POST /mcp per IP (MCP endpoints refuse in JSON-RPC). The public precomputed brand reads are
 * exempt: they are static, cacheable and answered from memory. With REDIS_URL the counters live
 * in Redis, so N instances share one budget; if Redis fails, requests pass (availability over
 * strictness).
 *
 * Key guessing: every route that checks the API key (/api/video/*, /metrics, the dashboard
 * sign-in) counts its failed checks per IP (auth-failures.ts; the `login` limit). Past the limit
 * the IP is locked out for the rest of the window: every request it makes to those routes gets
 * the same 429 with Retry-After before its key is looked at, the right key included, so a guess
 * learns nothing. A failure is counted before its 401 goes out and a failure past the limit is
 * answered that 429 instead, so parallel guesses get no more verdicts than the limit. A
 * locked-out request spends no budget; one that proves the key spends the operator's.
 *
 * "Per IP" is per client as address-key.ts has it (an IPv6 client is its /64), and the address
 * is the request's: X-Forwarded-For's where FLEETGATE_TRUST_PROXY believes the proxy, else the
 * socket's peer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { apiKeyMatches } from '../gateway/secrets.js';
import { rpcError } from '../mcp/mcp-endpoint.js';
import { SESSION_COOKIE } from './auth/session.js';
import { addressKey } from './address-key.js';
import { memoryFailures, redisFailures, type AuthFailures, type Lockout } from './auth-failures.js';
import { requestKeyValid, type Credentials } from './auth/api-key.js';
import { AppError, errorBody } from './errors.js';

type Kind = 'api' | 'mcp' | 'login' | 'metrics';
/** The kinds with a request budget of their own; the others are only guarded. */
type Budget = 'api' | 'mcp';

/** Which limit a route falls under, if any. */
function kindOf(method: string, url: string): Kind | undefined {
  // The gateway's own MCP endpoint is private: the operator's budget, answered in JSON-RPC.
  if (url.startsWith('/api/video/')) return 'api';
  if (url === '/mcp' && method === 'POST') return 'mcp';
  if (url === '/dashboard/login' && method === 'POST') return 'login';
  if (url === '/metrics') return 'metrics';
  return undefined;
}

/** Routes that check the API key: their failures count, and a locked-out IP is refused there. */
const GUARDED: ReadonlySet<Kind> = new Set<Kind>(['api', 'login', 'metrics']);
const budgetOf = (kind: Kind): Budget | undefined => (kind === 'api' || kind === 'mcp' ? kind : undefined);

/** /api/video paths that authenticate otherwise (OAuth state, the webhook signature): no key is checked. */
const KEYLESS: ReadonlySet<string> = new Set(['/api/video/oauth/callback', '/api/video/webhooks']);

const lockedOut = (l: Lockout, max: number): RateLimitOutcome => {
  const seconds = Math.ceil(l.retryAfterMs / 1000);
  return {
    headers: { 'retry-after': String(seconds) },
    refused: new AppError(
      429,
      'rate_limited',
      `Too many failed authentications from this address; try again in ${seconds} seconds.`,
      { limit: max, retryAfterSeconds: seconds },
    ),
  };
};

export interface RateLimitDeps {
  limits: Config['rateLimits'];
  /** The API key's hash and the dashboard's sessions: requests that prove either share the operator's bucket. */
  secrets?: Credentials;
  redis?: Redis;
  redisPrefix: string;
}

/** What spending one request of a budget came to: the RateLimit-* headers, and the refusal if over. */
export interface RateLimitOutcome {
  headers: Record<string, string>;
  refused?: AppError;
}

/** What the limiter reads of a request: the key generators use the address, headers, cookies and form. */
interface LimitedRequest {
  ip: string;
  /** Fastify's requests only: the session check keeps its answer on it. */
  raw?: object;
  headers: IncomingHttpHeaders;
  routeOptions: { config: object };
  cookies?: FastifyRequest['cookies'];
  body?: unknown;
}

/** What the limits give a private scope (see limitScope). */
export interface OwnRateLimits {
  /**
   * Limits every route of a private /api/video scope with one onRequest hook of the scope's own
   * (the lockout, then the operator's budget), instead of one per route. Add it before the
   * scope's auth hook: a refused caller costs nothing else, not even the key check.
   */
  limitScope(scope: FastifyInstance): void;
}

export function installRateLimits(app: FastifyInstance, d: RateLimitDeps): OwnRateLimits {
  if (d.limits.api === 0 && d.limits.mcp === 0 && d.limits.login === 0)
    return { limitScope: () => undefined };
  const failures: AuthFailures | undefined =
    d.limits.login === 0
      ? undefined
      : d.redis
        ? redisFailures(d.redis, d.redisPrefix, d.limits.login, d.limits.windowMs)
        : memoryFailures(d.limits.login, d.limits.windowMs);
  void app.register(fastifyRateLimit, {
    global: false,
    enableDraftSpec: true,
    skipOnError: true,
    timeWindow: d.limits.windowMs,
    ...(d.redis ? { redis: d.redis, nameSpace: `${d.redisPrefix}:ratelimit:` } : {}),
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, 'rate_limited', `Too many requests; try again in ${ctx.after}.`, {
        limit: ctx.max,
        retryAfterSeconds: Math.ceil(ctx.ttl / 1000),
      }),
  });

  // The key decides whose budget a request spends. A wrong key spends the IP's, so inventing
  // keys does not buy an attacker fresh budgets. (A session is looked up once per request: the
  // auth check that follows gets the same answer.)
  const operator = async (req: LimitedRequest): Promise<boolean> => {
    if (!d.secrets) return false;
    const valid = requestKeyValid(d.secrets, req);
    if (valid !== undefined) return valid;
    if (!req.raw || !req.cookies?.[SESSION_COOKIE] || !d.secrets.sessions) return false;
    return (await d.secrets.sessions.of({ raw: req.raw, cookies: req.cookies })) !== undefined;
  };

  /**
   * What a request's presented key is worth: right, wrong, or nothing to judge (no key; a
   * session cookie is unguessable, and counting it would let a signed-out tab lock its operator
   * out). Judged before any route looks at the key, so that every guess is counted (or refused)
   * in the order the counter sees them: parallel guesses get no more verdicts than the limit.
   */
  const verdictOf = (kind: Kind, req: LimitedRequest): 'right' | 'wrong' | undefined => {
    if (!d.secrets) return undefined;
    if (kind === 'login') {
      const key = req.body instanceof URLSearchParams ? req.body.get('key') : null;
      return key && apiKeyMatches(d.secrets, key) ? 'right' : 'wrong';
    }
    const valid = requestKeyValid(d.secrets, req);
    return valid === undefined ? undefined : valid ? 'right' : 'wrong';
  };
  const keyOf: Record<Budget, (req: LimitedRequest) => Promise<string>> = {
    api: async (req) => ((await operator(req)) ? 'api:operator' : `api:ip:${addressKey(req.ip)}`),
    mcp: (req) => Promise.resolve(`mcp:ip:${addressKey(req.ip)}`),
  };

  // Limiters exist once the plugin has loaded; they are made on first use and kept.
  const limiters = new Map<Budget, onRequestAsyncHookHandler>();
  const limiter = (budget: Budget) => {
    let l = limiters.get(budget);
    if (!l) {
      l = app.rateLimit({
        max: d.limits[budget],
        timeWindow: d.limits.windowMs,
        keyGenerator: (req) => keyOf[budget](req),
      });
      limiters.set(budget, l);
    }
    return l;
  };

  // The lockout first (a wrong key counted on the way), then the budget if the kind has one.
  const spend = async (kind: Kind, req: LimitedRequest, keyless = false): Promise<RateLimitOutcome> => {
    if (failures && GUARDED.has(kind)) {
      const wrong = !keyless && verdictOf(kind, req) === 'wrong';
      const client = addressKey(req.ip);
      const lockout = await (wrong ? failures.fail(client) : failures.check(client));
      if (lockout) return lockedOut(lockout, failures.max);
    }
    const budget = budgetOf(kind);
    return budget && d.limits[budget] !== 0 ? spendBudget(budget, req) : { headers: {} };
  };

  // The limiter only reads the request and sets headers on the reply: a reply that collects
  // them lets one code path serve every hook (a route's, a scope's).
  const spendBudget = async (budget: Budget, req: LimitedRequest): Promise<RateLimitOutcome> => {
    const headers: Record<string, string> = {};
    const reply = {
      header(name: string, value: unknown) {
        headers[name.toLowerCase()] = String(value);
        return reply;
      },
    };
    try {
      await limiter(budget).call(app, req as FastifyRequest, reply as unknown as FastifyReply);
      return { headers };
    } catch (err) {
      if (err instanceof AppError && err.status === 429) return { headers, refused: err };
      throw err;
    }
  };

  const active = (kind: Kind) => {
    const budget = budgetOf(kind);
    return (budget !== undefined && d.limits[budget] !== 0) || (failures !== undefined && GUARDED.has(kind));
  };
  const prepend = <H>(existing: H | H[] | undefined, hook: H): H[] => [
    hook,
    ...(Array.isArray(existing) ? existing : existing ? [existing] : []),
  ];

  // Answered here so every scope (MCP speaks JSON-RPC) gets its own error format.
  const refuse = (reply: FastifyReply, outcome: RateLimitOutcome, jsonRpc = false) => {
    void reply.headers(outcome.headers);
    const err = outcome.refused;
    if (!err) return undefined;
    if (jsonRpc) {
      const r = rpcError(429, -32000, err.message);
      return reply.code(r.status).headers(r.headers).send(r.body);
    }
    return reply
      .code(429)
      .type('application/json; charset=utf-8')
      .send(errorBody(err.code, err.message, err.details));
  };
  // Scopes limited by a hook of their own (limitScope): their routes get none each.
  const limitedScopes = new WeakSet<FastifyInstance>();

  app.addHook('onRoute', function (this: FastifyInstance, route) {
    if (limitedScopes.has(this)) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const kind = methods.map((m) => kindOf(m.toUpperCase(), route.url)).find(Boolean);
    if (!kind || !active(kind)) return;
    const keyless = KEYLESS.has(route.url);
    const jsonRpc = route.url.endsWith('/mcp');
    const hook = async (req: FastifyRequest, reply: FastifyReply) =>
      refuse(reply, await spend(kind, req, keyless), jsonRpc);
    if (kind === 'login') {
      // The key is in the form: judged once it is parsed. A locked-out address is refused
      // before its form is read.
      if (failures) {
        const early = async (req: FastifyRequest, reply: FastifyReply) => {
          const lockout = await failures.check(addressKey(req.ip));
          return lockout ? refuse(reply, lockedOut(lockout, failures.max)) : undefined;
        };
        route.onRequest = prepend(route.onRequest, early);
      }
      route.preHandler = prepend(route.preHandler, hook);
      return;
    }
    // First of the route's own hooks: a refused caller costs nothing else (not even the auth check).
    route.onRequest = prepend(route.onRequest, hook);
  });
  return {
    limitScope(scope) {
      if (!active('api')) return;
      limitedScopes.add(scope);
      scope.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) =>
        refuse(reply, await spend('api', req)),
      );
    },
  };
}
