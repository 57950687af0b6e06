/**
 * Rate limits on our own API (@fastify/rate-limit, IETF draft RateLimit-* headers, Retry-After on
 * 429): the private gateway paths per operator (API key or dashboard session) or else per IP,
 * POST /mcp per IP, and wrong dashboard sign-ins per IP (MCP endpoints refuse in JSON-RPC). The public precomputed brand reads are exempt:
 * they are static, cacheable and answered from memory. With REDIS_URL the counters live in Redis,
 * so N instances share one budget; if Redis fails, requests pass (availability over strictness).
 * The fast paths (mcp-fast-path.ts, gateway-fast-path.ts) spend a request's budget before Fastify
 * sees it, through the same limiter; the outcome rides on the request so it is spent once.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { apiKeyMatches } from '../gateway/secrets.js';
import { rpcError } from '../mcp/mcp-endpoint.js';
import { SESSION_COOKIE, verifySession } from '../pages/dashboard/session.js';
import { AppError, errorBody } from './errors.js';

type Kind = 'api' | 'mcp' | 'login';

/** Which limit a route falls under, if any. */
function kindOf(method: string, url: string): Kind | undefined {
  // The gateway's own MCP endpoint is private: the operator's budget, answered in JSON-RPC.
  if (url.startsWith('/api/video/')) return 'api';
  if (url === '/mcp' && method === 'POST') return 'mcp';
  if (url === '/dashboard/login' && method === 'POST') return 'login';
  return undefined;
}

export interface RateLimitDeps {
  limits: Config['rateLimits'];
  /** The API key's hash: requests that prove it share the operator's bucket. */
  secrets?: { apiKeyHash: Buffer };
  redis?: Redis;
  redisPrefix: string;
}

/** What spending one request of a budget came to: the RateLimit-* headers, and the refusal if over. */
export interface RateLimitOutcome {
  headers: Record<string, string>;
  refused?: AppError;
}

export interface OwnRateLimits {
  /**
   * Spends one POST /mcp of the caller's budget for a request Fastify has not seen (the MCP fast
   * path); Fastify's hook later reuses the outcome instead of spending again. Undefined when the
   * MCP limit is off.
   */
  spendMcp?: (raw: IncomingMessage) => Promise<RateLimitOutcome>;
  /**
   * The same for a private /api/video request the gateway fast path takes (its caller proved the
   * API key, so it spends the operator's budget). Undefined when the API limit is off.
   */
  spendApi?: (raw: IncomingMessage) => Promise<RateLimitOutcome>;
}

/** What the limiter reads of a request: the key generators use the address, headers, cookies and form. */
interface LimitedRequest {
  ip: string;
  headers: IncomingHttpHeaders;
  routeOptions: { config: object };
  cookies?: FastifyRequest['cookies'];
  body?: unknown;
}

export function installRateLimits(app: FastifyInstance, d: RateLimitDeps): OwnRateLimits {
  if (d.limits.api === 0 && d.limits.mcp === 0 && d.limits.login === 0) return {};
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
  // keys does not buy an attacker fresh budgets.
  const operator = (req: LimitedRequest): boolean => {
    if (!d.secrets) return false;
    const h = req.headers.authorization;
    if (h !== undefined) return h.startsWith('Bearer ') && apiKeyMatches(d.secrets, h.slice(7).trim());
    return verifySession(d.secrets.apiKeyHash, req.cookies?.[SESSION_COOKIE], Date.now()) !== undefined;
  };
  const keyOf: Record<Kind, (req: LimitedRequest) => string> = {
    api: (req) => (operator(req) ? 'api:operator' : `api:ip:${req.ip}`),
    mcp: (req) => `mcp:ip:${req.ip}`,
    login: (req) => `login:ip:${req.ip}`,
  };

  // A sign-in with the right key is not a guess: only wrong keys spend the login budget.
  const rightKey = (req: LimitedRequest): boolean => {
    const key = req.body instanceof URLSearchParams ? req.body.get('key') : null;
    return d.secrets !== undefined && key !== null && apiKeyMatches(d.secrets, key);
  };

  // Limiters exist once the plugin has loaded; they are made on first use and kept.
  const limiters = new Map<Kind, onRequestAsyncHookHandler>();
  const limiter = (kind: Kind) => {
    let l = limiters.get(kind);
    if (!l) {
      l = app.rateLimit({
        max: d.limits[kind],
        timeWindow: d.limits.windowMs,
        keyGenerator: (req) => keyOf[kind](req),
        ...(kind === 'login' ? { allowList: (req: FastifyRequest) => rightKey(req) } : {}),
      });
      limiters.set(kind, l);
    }
    return l;
  };

  // The limiter only reads the request and sets headers on the reply: a reply that collects
  // them lets one code path serve Fastify's requests and the fast path's raw ones.
  const spend = async (kind: Kind, req: LimitedRequest): Promise<RateLimitOutcome> => {
    const headers: Record<string, string> = {};
    const reply = {
      header(name: string, value: unknown) {
        headers[name.toLowerCase()] = String(value);
        return reply;
      },
    };
    try {
      await limiter(kind).call(app, req as FastifyRequest, reply as unknown as FastifyReply);
      return { headers };
    } catch (err) {
      if (err instanceof AppError && err.status === 429) return { headers, refused: err };
      throw err;
    }
  };
  const spentBefore = new WeakMap<IncomingMessage, RateLimitOutcome>();

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const kind = methods.map((m) => kindOf(m.toUpperCase(), route.url)).find(Boolean);
    if (!kind || d.limits[kind] === 0) return;
    const hook = async (req: FastifyRequest, reply: FastifyReply) => {
      const outcome = spentBefore.get(req.raw) ?? (await spend(kind, req));
      void reply.headers(outcome.headers);
      const err = outcome.refused;
      if (!err) return undefined;
      // Answered here so every scope (MCP speaks JSON-RPC) gets its own error format.
      if (route.url.endsWith('/mcp')) {
        const r = rpcError(429, -32000, err.message);
        return reply.code(r.status).headers(r.headers).send(r.body);
      }
      return reply
        .code(429)
        .type('application/json; charset=utf-8')
        .send(errorBody(err.code, err.message, err.details));
    };
    if (kind === 'login') {
      // After the form is parsed, so the right key can be told from a guess.
      const existing = route.preHandler;
      route.preHandler = [hook, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
      return;
    }
    // First of the route's own hooks: a refused caller costs nothing else (not even the auth check).
    const existing = route.onRequest;
    route.onRequest = [hook, ...(Array.isArray(existing) ? existing : existing ? [existing] : [])];
  });

  // Spends a request's budget before Fastify sees it; Fastify's hook then reuses the outcome.
  const spendEarly = (kind: Kind) => async (raw: IncomingMessage) => {
    const outcome = await spend(kind, {
      ip: raw.socket.remoteAddress ?? '',
      headers: raw.headers,
      routeOptions: { config: {} },
    });
    spentBefore.set(raw, outcome);
    return outcome;
  };
  return {
    ...(d.limits.mcp !== 0 ? { spendMcp: spendEarly('mcp') } : {}),
    ...(d.limits.api !== 0 ? { spendApi: spendEarly('api') } : {}),
  };
}
