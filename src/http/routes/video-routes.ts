/**
 * The gateway's core paths: linking (start, callback, disconnect), the status report and the
 * monitor. Thin: read the request, call the gateway, shape the answer (a browser gets a redirect
 * or a small page, an API client gets JSON).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../gateway/gateway.js';
import { registerCapabilityRoutes } from './capability-routes.js';
import { registerCapabilityPaths } from './video/index.js';
import { registerWebhookRoutes } from './webhook-routes.js';
import * as z from 'zod';
import { parseInput } from '../../gateway/capabilities/registry.js';
import { AppError } from '../errors.js';
import { routeAuth, type RouteDocBody } from '../openapi.js';
import { linkSchemas, monitorReport, statusReport } from './gateway-schemas.js';

export const LINK_COOKIE = 'fg_link';

const statusQuery = z.object({
  fresh: z
    .enum(['1', 'true', '0', 'false'])
    .optional()
    .describe('1 (or true): probe the platform now instead of answering the report kept for a minute'),
});

const startDoc: RouteDocBody = {
  summary:
    "Starts linking: 302 to the platform's consent page (PKCE, browser-bound state cookie); JSON {authorizeUrl} when the Accept header asks for JSON only.",
  tag: 'gateway',
  auth: 'api_key',
  output: linkSchemas.started,
  responseDescription: 'With Accept: application/json: the consent page URL (the state cookie is set).',
  responses: {
    302: { description: "To the platform's consent page.", headers: { Location: 'the consent page' } },
  },
  // 400 not_applicable: a server-to-server link has no browser flow.
  errors: [400],
};

const callbackDoc: RouteDocBody = {
  summary: 'OAuth redirect target: checks state and cookie, exchanges the code, stores the link.',
  tag: 'gateway',
  auth: 'none',
  input: z.object({
    code: z.string().optional().describe('the authorization code'),
    state: z.string().optional().describe('the state /oauth/start sent'),
    error: z.string().optional().describe("the platform's refusal, instead of a code"),
  }),
  output: linkSchemas.linked,
  responseDescription: 'With Accept: application/json: the linked account.',
  responses: {
    302: { description: 'Linked: to /dashboard?linked=1.', headers: { Location: '/dashboard?linked=1' } },
  },
  errors: [400, 502],
  // The platform sends the operator's browser here: it gets a failure as a small page.
  errorPage: {
    type: 'text/html; charset=utf-8',
    when: 'An HTML page instead, unless the Accept header names application/json and not text/html (a browser back from the consent page gets the page).',
  },
};

const disconnectDoc: RouteDocBody = {
  summary: 'Revokes upstream and forgets the link.',
  tag: 'gateway',
  auth: 'api_key',
  output: linkSchemas.disconnected,
  errors: [409],
};

const statusDoc: RouteDocBody = {
  summary: 'The status report: configured, linked account, stored events, capability map and paths.',
  tag: 'gateway',
  auth: 'api_key',
  input: statusQuery,
  output: statusReport,
  errors: [400],
};

const monitorDoc: RouteDocBody = {
  summary:
    'Every group and capability with its state, scopes, latency; token expiry, budgets, daily quotas, last webhook, outgoing deliveries.',
  tag: 'gateway',
  auth: 'api_key',
  output: monitorReport,
};

const wantsJson = (req: FastifyRequest) =>
  /application\/json/.test(req.headers.accept ?? '') && !/text\/html/.test(req.headers.accept ?? '');

const escapeHtml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function page(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{font:16px system-ui;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="/dashboard">Back to the dashboard</a></p></body></html>`,
    );
}

type VideoDeps = {
  gateway: Gateway;
  secureCookies: boolean;
};

/** The gateway's /api/video routes as one encapsulated plugin, the private ones a scope inside it. */
export function registerVideoRoutes(app: FastifyInstance, deps: VideoDeps): void {
  void app.register(function videoRoutes(scope, _opts, done) {
    addVideoRoutes(scope, deps);
    done();
  });
}

function addVideoRoutes(app: FastifyInstance, deps: VideoDeps): void {
  const { gateway } = deps;
  const cookieOpts = {
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: deps.secureCookies,
    path: '/api/video/oauth',
  };

  // Public: the OAuth callback proves itself by its state and cookie, the webhook intake by its
  // signature.
  app.get(
    '/api/video/oauth/callback',
    { config: { doc: callbackDoc, limit: 'api' } },
    async (req: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply) => {
      const q = req.query;
      const pick = (k: string) => (typeof q[k] === 'string' ? q[k] : undefined);
      void reply.clearCookie(LINK_COOKIE, cookieOpts);
      try {
        const link = await gateway.link.callback({
          code: pick('code'),
          state: pick('state'),
          error: pick('error'),
          browserNonce: req.cookies[LINK_COOKIE],
        });
        const account = { id: link.accountId, email: link.email, name: link.name };
        if (wantsJson(req)) return reply.send({ linked: true, account });
        return reply.redirect('/dashboard?linked=1', 302);
      } catch (err) {
        if (err instanceof AppError && !wantsJson(req))
          return page(reply, err.status, 'The account was not linked', err.message);
        throw err;
      }
    },
  );

  registerWebhookRoutes(app, gateway.webhooks, gateway.observer);

  // Private: every other /api/video route. Each declares the API key (auth 'api_key' in its
  // description), which puts the limit and the key check in front of its own hooks (identity.ts,
  // rate-limit.ts); this scope only makes sure none of them is declared otherwise.
  void app.register(function privateVideoRoutes(scope, _opts, done) {
    scope.addHook('onRoute', (route) => {
      if (routeAuth(route.config) !== 'api_key')
        throw new Error(`${route.method.toString()} ${route.url} is private: declare auth 'api_key'.`);
    });

    scope.get('/api/video/oauth/start', { config: { doc: startDoc } }, async (req, reply) => {
      const started = await gateway.link.start();
      // Lax, not Strict: the cookie must ride along on the platform's top-level redirect back to us.
      void reply.setCookie(LINK_COOKIE, started.browserNonce, { ...cookieOpts, maxAge: 600 });
      if (wantsJson(req)) return reply.send({ authorizeUrl: started.authorizeUrl });
      return reply.redirect(started.authorizeUrl, 302);
    });

    scope.post('/api/video/oauth/disconnect', { config: { doc: disconnectDoc } }, async (_req, reply) => {
      const r = await gateway.link.disconnect();
      gateway.status.invalidate();
      return reply.send({ linked: false, revoked: r.revoked });
    });

    scope.get('/api/video/status', { config: { doc: statusDoc } }, async (req, reply) => {
      const { fresh } = parseInput(statusQuery, req.query ?? {});
      const report = await gateway.status.report({ fresh: fresh === '1' || fresh === 'true' });
      return reply.header('cache-control', 'no-store').send(report);
    });

    scope.get('/api/video/monitor', { config: { doc: monitorDoc } }, async (_req, reply) =>
      reply.header('cache-control', 'no-store').send(await gateway.monitor()),
    );

    registerCapabilityRoutes(scope, { gateway });
    registerCapabilityPaths(scope, { gateway });
    done();
  });
}
