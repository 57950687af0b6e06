/**
 * GET /dashboard: the operator dashboard. Sign in with the API key for a session (sessions.ts);
 * then the status report, monitor, stored events (create, change funnel, delete after a
 * confirmation page, registrations), recordings and webhook deliveries, with forms that post
 * and redirect back (post/redirect/get).
 * Served only with the gateway; brand-only builds answer 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageDeps } from '../page-deps.js';
import { invoke, parseInput } from '../../gateway/capabilities/registry.js';
import { eventPatchInput, getStoredEvent, updateEvent } from '../../gateway/events-service.js';
import { apiKeyMatches } from '../../gateway/secrets.js';
import { precompute, sendPrecomputed, type Precomputed } from '../../http/precomputed.js';
import { CSRF_FIELD, csrfToken, csrfValid } from '../../http/auth/csrf.js';
import { createEventOnce, newFormKey } from './create-event.js';
import { explain, loadDashboard } from './data.js';
import { renderDeleteConfirm, renderEventMissing } from './delete-view.js';
import { DASHBOARD_DOCS as DOCS } from './route-docs.js';
import { FLASH_COOKIE, FLASH_PATH, openNotice, sealNotice, type Notice } from './flash.js';
import type { BrandView } from './html.js';
import { renderLogin, renderRefused, renderRelay } from './login-view.js';
import { renderDashboard } from './render.js';
import { DASHBOARD_JS } from './script.js';
import { SESSION_COOKIE, SESSION_TTL_MS, type Session } from '../../http/auth/session.js';
import type { DashboardSessions } from '../../http/auth/sessions.js';
import { DASHBOARD_CSS } from './styles.js';

const TIMEZONES = Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC');
const ASSET_CACHE = 'public, max-age=300';

type GatewayPart = NonNullable<PageDeps['gateway']>;

const formOf = (req: FastifyRequest) =>
  req.body instanceof URLSearchParams ? req.body : new URLSearchParams();

export function registerDashboard(
  app: FastifyInstance,
  deps: PageDeps,
  sessions: DashboardSessions | undefined,
): void {
  if (!deps.gateway || !sessions) return;
  const dash = dashboardContext(deps, deps.gateway, sessions);
  endOtherKeysOnReady(app, sessions);
  registerAssets(app);
  registerViews(app, dash);
  void app.register(function dashboardForms(scope, _opts, done) {
    // Forms only: these routes take nothing but application/x-www-form-urlencoded.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_req, body, next) => next(null, new URLSearchParams(String(body))),
    );

    registerSessionForms(scope, dash);
    registerEventForms(scope, dash);
    done();
  });
}

/** What the dashboard's routes share: the gateway, the session checks, cookies and the page frame. */
function dashboardContext(deps: PageDeps, { gateway, secrets }: GatewayPart, sessions: DashboardSessions) {
  const keyHash = secrets.apiKeyHash;
  const secure = deps.config.publicUrl.startsWith('https://');
  const origin = new URL(deps.config.publicUrl).origin;
  const htmlHeaders = {
    'content-type': 'text/html; charset=utf-8',
    // Private data and a CSRF token: never stored by a cache.
    'cache-control': 'no-store',
    'content-security-policy': `default-src 'none'; style-src 'self' ${origin}; img-src 'self' ${origin} data:; font-src 'self' ${origin}; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
  };
  const sessionCookie = { httpOnly: true, sameSite: 'strict' as const, secure, path: '/' };
  const flashCookie = { httpOnly: true, sameSite: 'strict' as const, secure, path: FLASH_PATH };
  const brandView = (): BrandView => {
    const c = deps.brand.current;
    // Same-origin paths, so the page works whichever host name the operator reached it by.
    const local = (url: string | undefined) =>
      url?.startsWith(c.baseUrl + '/') ? url.slice(c.baseUrl.length) : (url ?? '');
    return {
      name: c.source.info.name,
      copyright: c.source.info.legal.copyright,
      logo: local(c.assets.logo['dark']),
      icon: local(c.assets.icons['svg']),
      funnels: c.themes.keys.map((key) => {
        const f = c.themes.funnels.find((t) => t.key === key);
        return { key, name: f?.name ?? key, filled: (f?.contrast.color.textRatio ?? 0) >= 4.5 };
      }),
    };
  };
  const send = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).headers(htmlHeaders).send(body);
  const sessionOf = (req: FastifyRequest) => sessions.of(req);
  return { gateway, secrets, sessions, keyHash, sessionCookie, flashCookie, brandView, send, sessionOf };
}

type Dashboard = ReturnType<typeof dashboardContext>;

function endOtherKeysOnReady(app: FastifyInstance, sessions: DashboardSessions): void {
  // A new API key ends the old one's sessions for good: its cookies already fail their
  // signature here, and without their rows they stay dead if the old key comes back.
  app.addHook('onReady', async () => {
    try {
      const ended = await sessions.endOtherKeys();
      if (ended > 0) app.log.info({ ended }, 'dashboard sessions of another API key (or expired) ended');
    } catch (err) {
      app.log.warn({ err }, 'could not end the dashboard sessions of another API key');
    }
  });
}

/**
 * Made on first request: brotli at quality 11 for both was ~19 ms of every start here, for
 * files only an operator's browser asks for.
 */
function onFirstRequest(body: string, contentType: string) {
  let made: Precomputed | undefined;
  return () => (made ??= precompute(body, { contentType, cacheControl: ASSET_CACHE }));
}

function registerAssets(app: FastifyInstance): void {
  const cssAsset = onFirstRequest(DASHBOARD_CSS, 'text/css; charset=utf-8');
  const jsAsset = onFirstRequest(DASHBOARD_JS, 'text/javascript; charset=utf-8');
  app.get('/dashboard.css', { config: { doc: DOCS.css } }, (req, reply) =>
    sendPrecomputed(req, reply, cssAsset()),
  );
  app.get('/dashboard.js', { config: { doc: DOCS.js } }, (req, reply) =>
    sendPrecomputed(req, reply, jsAsset()),
  );
}

/** The pages a signed-in operator (or the sign-in form) sees. */
function registerViews(app: FastifyInstance, dash: Dashboard): void {
  const { gateway, keyHash, sessionCookie, flashCookie, brandView, send, sessionOf } = dash;
  app.get<{ Querystring: Record<string, unknown> }>(
    '/dashboard',
    { config: { doc: DOCS.page } },
    async (req, reply) => {
      const q = req.query;
      const notices: Notice[] = [];
      if (req.cookies[FLASH_COOKIE] !== undefined) {
        const flash = openNotice(keyHash, req.cookies[FLASH_COOKIE]);
        if (flash) notices.push(flash);
        void reply.clearCookie(FLASH_COOKIE, flashCookie);
      }
      const linked = q['linked'] === '1';
      const session = await sessionOf(req);
      if (!session) {
        // The OAuth flow returns through the platform's site, and a browser withholds a Strict
        // cookie on a navigation another site started. One same-site hop brings it back.
        if (linked && q['resumed'] !== '1')
          return send(reply, 200, renderRelay(brandView(), '/dashboard?linked=1&resumed=1'));
        if (linked) notices.push({ kind: 'ok', text: 'The platform account is linked. Sign in to see it.' });
        if (req.cookies[SESSION_COOKIE] !== undefined) {
          void reply.clearCookie(SESSION_COOKIE, sessionCookie);
          notices.push({ kind: 'ok', text: 'Your session has ended; sign in again.' });
        }
        return send(reply, 200, renderLogin(brandView(), notices));
      }
      if (linked) notices.unshift({ kind: 'ok', text: 'The platform account is linked.' });
      const data = await loadDashboard(gateway, q['fresh'] === '1', req.log);
      return send(
        reply,
        200,
        renderDashboard({
          brand: brandView(),
          csrf: csrfToken(keyHash, session),
          notices,
          data,
          timezones: TIMEZONES,
          createKey: newFormKey(),
        }),
      );
    },
  );

  // The confirmation step of deleting an event: a page, so it needs no script.
  const confirm = { config: { doc: DOCS.confirmDelete } };
  app.get<{ Params: { videoId: string } }>(
    '/dashboard/events/:videoId/delete',
    confirm,
    async (req, reply) => {
      const session = await sessionOf(req);
      if (!session) return reply.redirect('/dashboard', 303);
      const { videoId } = req.params;
      const found = await gateway.events.withRegistrationCount(videoId);
      if (!found)
        return send(
          reply,
          404,
          renderEventMissing(brandView(), {
            kind: 'error',
            text: `No stored event ${videoId.slice(0, 40)}.`,
          }),
        );
      return send(
        reply,
        200,
        renderDeleteConfirm({ brand: brandView(), csrf: csrfToken(keyHash, session), ...found }),
      );
    },
  );
}

function formAction(dash: Dashboard) {
  const { keyHash, flashCookie, brandView, send, sessionOf } = dash;
  /**
   * A signed-in form action: session and CSRF token checked first; the outcome (or the gateway's
   * error) travels to the next GET as a notice.
   */
  const action =
    <P>(
      run: (
        form: URLSearchParams,
        req: FastifyRequest<{ Params: P }>,
        reply: FastifyReply,
        session: Session,
      ) => Promise<Notice>,
    ) =>
    async (req: FastifyRequest<{ Params: P }>, reply: FastifyReply) => {
      const session = await sessionOf(req);
      if (!session) return reply.redirect('/dashboard', 303);
      const form = formOf(req);
      if (!csrfValid(keyHash, session, form.get(CSRF_FIELD)))
        return send(reply, 403, renderRefused(brandView()));
      let notice: Notice;
      try {
        notice = await run(form, req, reply, session);
      } catch (err) {
        notice = { kind: 'error', text: explain(err, req.log) };
      }
      void reply.setCookie(FLASH_COOKIE, sealNotice(keyHash, notice), { ...flashCookie, maxAge: 60 });
      return reply.redirect('/dashboard', 303);
    };
  return action;
}

/** Sign in with the API key, sign out. */
function registerSessionForms(scope: FastifyInstance, dash: Dashboard): void {
  const { secrets, sessions, sessionCookie, brandView, send } = dash;
  const action = formAction(dash);
  // The key is checked here, from the form: its own guard against key guessing (rate-limit.ts).
  scope.post('/dashboard/login', { config: { doc: DOCS.login, limit: 'login' } }, async (req, reply) => {
    const key = formOf(req).get('key') ?? '';
    if (!key || !apiKeyMatches(secrets, key)) {
      req.log.info('dashboard sign-in refused');
      return send(
        reply,
        401,
        renderLogin(brandView(), [{ kind: 'error', text: 'That is not the gateway API key.' }]),
      );
    }
    const { token, session } = await sessions.open();
    void reply.setCookie(SESSION_COOKIE, token, {
      ...sessionCookie,
      maxAge: SESSION_TTL_MS / 1000,
      expires: new Date(session.expiresAt),
    });
    return reply.redirect('/dashboard', 303);
  });

  // Ends the session in the store, for every instance: a copy of the cookie is refused too.
  scope.post(
    '/dashboard/logout',
    { config: { doc: DOCS.logout } },
    action(async (_form, _req, reply, session) => {
      await sessions.end(session);
      void reply.clearCookie(SESSION_COOKIE, sessionCookie);
      return { kind: 'ok', text: 'Signed out.' };
    }),
  );
}

/** The link and the stored events: disconnect, create, change funnel, delete. */
function registerEventForms(scope: FastifyInstance, dash: Dashboard): void {
  const { gateway } = dash;
  const action = formAction(dash);
  scope.post(
    '/dashboard/disconnect',
    { config: { doc: DOCS.disconnect } },
    action(async () => {
      const r = await gateway.link.disconnect();
      gateway.status.invalidate();
      return {
        kind: 'ok',
        text: r.revoked
          ? 'Disconnected: the platform revoked the tokens and the link is forgotten.'
          : 'Disconnected: the link is forgotten (the platform did not confirm revoking the tokens).',
      };
    }),
  );

  scope.post(
    '/dashboard/events',
    { config: { doc: DOCS.createEvent } },
    action(async (form) => createEventOnce(await gateway.opContext(), form)),
  );

  scope.post<{ Params: { videoId: string } }>(
    '/dashboard/events/:videoId/funnel',
    { config: { doc: DOCS.funnel } },
    action<{ videoId: string }>(async (form, req) => {
      const patch = parseInput(eventPatchInput, { funnel: form.get('funnel') || null });
      const e = await updateEvent(await gateway.opContext(), req.params.videoId, patch);
      return {
        kind: 'ok',
        text: `“${e.topic}” is now ${e.funnel ? `in the ${e.funnel} funnel` : 'in no funnel'}.`,
      };
    }),
  );

  // What DELETE /api/video/events/:videoId does: the stored event must exist, then delete_meeting
  // removes the meeting on the platform and the stored event with its registrations.
  scope.post<{ Params: { videoId: string } }>(
    '/dashboard/events/:videoId/delete',
    { config: { doc: DOCS.delete } },
    action<{ videoId: string }>(async (_form, req) => {
      const ctx = await gateway.opContext();
      const event = await getStoredEvent(ctx, req.params.videoId);
      const r = (await invoke(ctx, 'meetings', 'delete_meeting', { video_id: event.videoId })) as {
        platform: 'deleted' | 'already_gone';
      };
      return {
        kind: 'ok',
        text:
          r.platform === 'deleted'
            ? `Deleted “${event.topic}” (id ${event.videoId}) on the platform and here.`
            : `Deleted “${event.topic}” (id ${event.videoId}) here; the platform no longer had the meeting.`,
      };
    }),
  );
}
