/**
 * Rate limits on our own API (@fastify/rate-limit, IETF draft RateLimit-* headers, Retry-After on
 * 429), attached to each route by the limit class its declaration names (`config.limit`; a route
 * the API key admits is in `api` unless it says otherwise): `api` per operator (API key or
 * dashboard session) or else per IP, `mcp` (POST /mcp) per IP, `login` and `metrics` only
 * guarded against key guessing. Routes that speak JSON-RPC (`jsonRpc`) refuse in JSON-RPC. The public precomputed brand reads are
 * exempt: they are static, cacheable and answered from memory. With REDIS_URL the counters live
 * in Redis, so N instances share one budget; if Redis fails, requests pass (availability over
 * strictness).
 *
 * Key guessing: every route of the api, login and metrics classes (/api/video/*, /metrics, the
 * dashboard sign-in) counts its failed key checks per IP (not those whose declaration says they
 * are admitted otherwise: the OAuth callback, the webhook signature) (auth-failures.ts; the `login` limit). Past the limit
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
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { apiKeyMatches } from '../gateway/secrets.js';
import { rpcError } from '../mcp/mcp-endpoint.js';
import { SESSION_COOKIE } from './auth/session.js';
import { addressKey } from './address-key.js';
import { memoryFailures, redisFailures, type AuthFailures, type Lockout } from './auth-failures.js';
import { requestKeyValid, type Credentials } from './auth/api-key.js';
import { AppError, errorBody } from './errors.js';
import { routeAuth, type LimitClass } from './openapi.js';
import { prependHook } from './route-hooks.js';

/** The classes with a request budget of their own; the others are only guarded. */
type Budget = 'api' | 'mcp';
const budgetOf = (c: LimitClass): Budget | undefined => (c === 'api' || c === 'mcp' ? c : undefined);
/** Classes whose routes check the API key: their failures count, and a locked-out IP is refused there. */
const GUARDED: ReadonlySet<LimitClass> = new Set<LimitClass>(['api', 'login', 'metrics']);

/** A route's limit class, as its declaration says: the one it names, else `api` if the key admits it. */
function limitClassOf(route: RouteOptions): LimitClass | undefined {
  return route.config?.limit ?? (routeAuth(route.config) === 'api_key' ? 'api' : undefined);
}

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

/** Spends one request of a class: the lockout first (a wrong key counted on the way), then its budget. */
type Spend = (c: LimitClass, req: LimitedRequest, keyless: boolean) => Promise<RateLimitOutcome>;

export function installRateLimits(app: FastifyInstance, d: RateLimitDeps): void {
  if (d.limits.api === 0 && d.limits.mcp === 0 && d.limits.login === 0) return;
  const failures = failureCounter(d);
  registerLimiterPlugin(app, d);
  const spendBudget = budgetSpender(app, d);
  const verdictOf = keyVerdict(d);
  const spend: Spend = async (c, req, keyless) => {
    if (failures && GUARDED.has(c)) {
      const wrong = !keyless && verdictOf(c, req) === 'wrong';
      const client = addressKey(req.ip);
      const lockout = await (wrong ? failures.fail(client) : failures.check(client));
      if (lockout) return lockedOut(lockout, failures.max);
    }
    const budget = budgetOf(c);
    return budget && d.limits[budget] !== 0 ? spendBudget(budget, req) : { headers: {} };
  };
  const active = (c: LimitClass) => {
    const budget = budgetOf(c);
    return (budget !== undefined && d.limits[budget] !== 0) || (failures !== undefined && GUARDED.has(c));
  };
  app.addHook('onRoute', (route) => {
    const c = limitClassOf(route);
    if (c && active(c)) limitRoute(route, c, spend, failures);
  });
}

/** The key-guessing counter, unless the login limit is off. */
function failureCounter(d: RateLimitDeps): AuthFailures | undefined {
  if (d.limits.login === 0) return undefined;
  return d.redis
    ? redisFailures(d.redis, d.redisPrefix, d.limits.login, d.limits.windowMs)
    : memoryFailures(d.limits.login, d.limits.windowMs);
}

function registerLimiterPlugin(app: FastifyInstance, d: RateLimitDeps): void {
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
}

/**
 * What a request's presented key is worth: right, wrong, or nothing to judge (no key; a session
 * cookie is unguessable, and counting it would let a signed-out tab lock its operator out).
 * Judged before any route looks at the key, so that every guess is counted (or refused) in the
 * order the counter sees them: parallel guesses get no more verdicts than the limit.
 */
function keyVerdict(d: RateLimitDeps) {
  return (c: LimitClass, req: LimitedRequest): 'right' | 'wrong' | undefined => {
    if (!d.secrets) return undefined;
    if (c === 'login') {
      const key = req.body instanceof URLSearchParams ? req.body.get('key') : null;
      return key && apiKeyMatches(d.secrets, key) ? 'right' : 'wrong';
    }
    const valid = requestKeyValid(d.secrets, req);
    return valid === undefined ? undefined : valid ? 'right' : 'wrong';
  };
}

/**
 * Spends one request of a budget. The key decides whose budget: a wrong key spends the IP's, so
 * inventing keys does not buy an attacker fresh budgets. (A session is looked up once per
 * request: the auth check that follows gets the same answer.) The limiter only reads the request
 * and sets headers on the reply: a reply that collects them lets one code path serve every route.
 */
function budgetSpender(app: FastifyInstance, d: RateLimitDeps) {
  const operator = async (req: LimitedRequest): Promise<boolean> => {
    if (!d.secrets) return false;
    const valid = requestKeyValid(d.secrets, req);
    if (valid !== undefined) return valid;
    if (!req.raw || !req.cookies?.[SESSION_COOKIE] || !d.secrets.sessions) return false;
    return (await d.secrets.sessions.of({ raw: req.raw, cookies: req.cookies })) !== undefined;
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
  return async (budget: Budget, req: LimitedRequest): Promise<RateLimitOutcome> => {
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
}

/**
 * Puts the limit in front of the route's own hooks (and of the identity hook's key check): a
 * refused caller costs nothing else. The sign-in's key is in its form, so it is judged once the
 * form is parsed; a locked-out address is refused before its form is read.
 */
function limitRoute(route: RouteOptions, c: LimitClass, spend: Spend, failures: AuthFailures | undefined) {
  // A route admitted otherwise (the OAuth state, a webhook signature) presents no key to count.
  const keyless = c === 'api' && routeAuth(route.config) !== 'api_key';
  const jsonRpc = route.config?.jsonRpc === true;
  const hook = async (req: FastifyRequest, reply: FastifyReply) =>
    refuse(reply, await spend(c, req, keyless), jsonRpc);
  if (c !== 'login') {
    route.onRequest = prependHook(route.onRequest, hook);
    return;
  }
  if (failures) {
    const early = async (req: FastifyRequest, reply: FastifyReply) => {
      const lockout = await failures.check(addressKey(req.ip));
      return lockout ? refuse(reply, lockedOut(lockout, failures.max), jsonRpc) : undefined;
    };
    route.onRequest = prependHook(route.onRequest, early);
  }
  route.preHandler = prependHook(route.preHandler, hook);
}

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

/** Sends the outcome's headers, and its refusal in the route's own format (MCP speaks JSON-RPC). */
function refuse(reply: FastifyReply, outcome: RateLimitOutcome, jsonRpc: boolean) {
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
}
