/**
 * The context the product modules are written against: a platform route (token, scopes, rate
 * limits and the contract check before the handler), the state's slices, the demo user, the
 * platform's pagination, webhooks out and ids in the platform's style.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DemoUser, EmulatorContext, EmulatorRequest, Page, RouteDef } from './context.js';
import { checkRequest } from './contract/check.js';
import type { ContractLog } from './contract/log.js';
import { meWithoutUser, platformRequest, refusalOf } from './contract/request.js';
import { committedRules } from './contract/rules.js';
import type { EmulatorOptions } from './options.js';
import type { RateLimiter } from './rate-limit.js';
import type { EmulatorState } from './state.js';
import type { WebhookSender } from './webhooks.js';
import { zerr } from './zoom-error.js';

const PAGE_TOKEN_TTL_MS = 15 * 60_000;

export type PageTokens = Map<string, { sig: string; offset: number; expiresAt: number }>;

export interface ContextDeps {
  app: FastifyInstance;
  options: EmulatorOptions;
  demo: DemoUser;
  /** The current state; a reset replaces it. */
  state: () => EmulatorState;
  limiter: RateLimiter;
  contract: ContractLog;
  webhooks: WebhookSender;
  pageTokens: PageTokens;
  /** Every scope a route names, for the OAuth server's grants. */
  knownScopes: Set<string>;
  authenticate: (req: FastifyRequest) => EmulatorRequest;
}

/** The bearer token's grant on the request, or the platform's 401. */
export function authenticator(
  options: EmulatorOptions,
  state: () => EmulatorState,
): (req: FastifyRequest) => EmulatorRequest {
  return (req) => {
    const h = req.headers.authorization;
    if (!h?.startsWith('Bearer ')) throw zerr.noToken();
    const tok = state().file.access[h.slice(7).trim()];
    if (!tok) throw zerr.invalidToken();
    if (tok.expiresAt <= options.now().getTime()) throw zerr.expiredToken();
    (req as EmulatorRequest).auth = tok;
    return req as EmulatorRequest;
  };
}

export function createContext(deps: ContextDeps): EmulatorContext {
  const { options, demo, limiter } = deps;
  return {
    options,
    demo,
    baseUrl: options.baseUrl,
    route: (def) => addPlatformRoute(deps, def),
    slice: <T>(name: string) => deps.state().slice<T>(name),
    changed: () => deps.state().changed(),
    now: options.now,
    meetingWrite(hostId) {
      if (options.rateLimits) limiter.meetingWrite(hostId);
    },
    user: (req, userId) => demoUserOf(demo, req, userId),
    paginate: (req, items, opts) => paginate(deps.pageTokens, options.now, req, items, opts),
    webhooks: {
      emit(event, object, extra = {}, topLevel = {}) {
        const envelope = {
          event,
          event_ts: options.now().getTime(),
          payload: { account_id: demo.accountId, object, ...extra },
          ...topLevel,
        };
        void deps.webhooks
          .send(envelope)
          .catch((err: unknown) => options.logger.warn({ err }, 'sandbox webhook failed'));
      },
    },
    newId,
  };
}

function addPlatformRoute(deps: ContextDeps, def: RouteDef): void {
  const { options, limiter, contract } = deps;
  const rules = committedRules().operations;
  for (const s of def.scopes) deps.knownScopes.add(s);
  deps.app.route({
    method: def.method,
    url: `/v2${def.url}`,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const r = deps.authenticate(req);
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
}

function demoUserOf(demo: DemoUser, req: EmulatorRequest, userId: string): DemoUser {
  if (userId === 'me') {
    if (req.auth.userId === demo.id) return demo;
    throw zerr.userNotFound('me');
  }
  if (userId === demo.id || userId.toLowerCase() === demo.email) return demo;
  throw zerr.userNotFound(userId);
}

function paginate<T>(
  pageTokens: PageTokens,
  now: () => Date,
  req: FastifyRequest,
  items: T[],
  opts: { defaultSize: number; maxSize: number; tokenParam?: string; sizeParam?: string },
): Page<T> {
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
    if (!t || t.sig !== sig || t.expiresAt < now().getTime()) throw zerr.badPageToken();
    offset = t.offset;
  }
  const page = items.slice(offset, offset + size);
  let next = '';
  if (offset + size < items.length) {
    next = randomBytes(18).toString('base64url');
    pageTokens.set(next, { sig, offset: offset + size, expiresAt: now().getTime() + PAGE_TOKEN_TTL_MS });
  }
  return { items: page, nextPageToken: next, pageSize: size, totalRecords: items.length };
}

function newId(kind: 'meeting' | 'uuid' | 'alnum', length = 22): string | number {
  if (kind === 'meeting')
    return Number(`8${Array.from({ length: 10 }, () => Math.floor(Math.random() * 10)).join('')}`);
  if (kind === 'uuid') {
    // Real instance UUIDs are base64 and sometimes hold '/', which callers must double-encode.
    const raw = randomBytes(16).toString('base64').slice(0, 22);
    return raw.includes('/') ? raw : `${raw.slice(0, 10)}/${raw.slice(11)}`;
  }
  return randomBytes(length).toString('base64url').slice(0, length);
}
