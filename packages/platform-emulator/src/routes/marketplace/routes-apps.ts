/** Marketplace app routes: an app (the emulator's own or another), the requests to use the emulator's app, the demo user's requests for other apps. */
import { p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import type { UsersSlice } from '../users.js';
import { SCOPES } from './records.js';
import { LINKS, ownId, permissions, slice } from './lookups.js';

export function getApp(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/marketplace/apps/:appId',
    scopes: SCOPES.app,
    label: 'MEDIUM',
    handler: (req: EmulatorRequest) => {
      const appId = p(req, 'appId');
      const s = slice(ctx);
      if (appId === ownId(ctx)) {
        // The app's scopes are what the emulator grants its tokens.
        const scopes = [...(ctx.options.scopes ?? req.auth.scopes)].sort();
        return {
          app_id: appId,
          app_name: s.app.app_name,
          app_description: s.app.app_description,
          app_type: 'OAuthApp',
          app_usage: 2,
          app_status: 'PUBLISHED',
          app_links: LINKS,
          app_permissions: permissions(scopes),
          app_requirements: {
            user_role: 'user',
            min_client_version: '',
            account_eligibility: { account_types: ['Pro', 'Business', 'Enterprise'], premium_events: [] },
          },
          app_scopes: scopes,
        };
      }
      const other = s.otherApps.find((a) => a.app_id === appId);
      if (!other) throw new ZoomError(404, 1401, `APP ID does not exist: ${appId}`);
      return {
        app_id: other.app_id,
        app_name: other.app_name,
        app_description: other.app_description,
        app_type: other.app_type,
        app_usage: other.app_usage,
        app_status: 'PUBLISHED',
        app_links: {},
        app_permissions: permissions(other.scopes),
        app_requirements: {
          user_role: other.app_usage === 1 ? 'admin' : 'user',
          min_client_version: '',
          account_eligibility: { account_types: [], premium_events: [] },
        },
        app_scopes: other.scopes,
      };
    },
  });
}

export function getAppRequests(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/marketplace/apps/:appId/requests',
    scopes: SCOPES.requests,
    label: 'MEDIUM',
    handler: (req) => {
      const appId = p(req, 'appId');
      if (appId !== ownId(ctx)) throw new ZoomError(404, 1401, `App ID does not exist: ${appId}`);
      const status = q(req, 'status') ?? 'pending';
      if (status !== 'pending' && status !== 'approved' && status !== 'rejected')
        throw zerr.badParam('status');
      const colleagues = ctx.slice<UsersSlice | undefined>('users')?.colleagues ?? [];
      const items = slice(ctx)
        .requests.filter((r) => r.status === status)
        .flatMap((r) => {
          const c = colleagues[r.colleague];
          return c ? [{ r, c }] : [];
        })
        .sort((a, b) => b.r.request_date_time.localeCompare(a.r.request_date_time));
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        requests: page.items.map(({ r, c }) => ({
          request_user_id: c.id,
          request_user_name: `${c.first_name} ${c.last_name}`,
          request_user_email: c.email,
          request_user_department: c.dept,
          request_date_time: r.request_date_time,
          reason: r.reason,
          status: r.status,
        })),
      };
    },
  });
}

export function getUserApps(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/marketplace/users/:userId/apps',
    scopes: SCOPES.userApps,
    label: 'MEDIUM',
    handler: (req) => {
      try {
        ctx.user(req, p(req, 'userId'));
      } catch (err) {
        if (err instanceof ZoomError && err.code === 1001)
          throw new ZoomError(404, 1001, 'User does not exist or does not belong to this account.');
        throw err;
      }
      const type = q(req, 'type') ?? 'active_requests';
      if (type !== 'active_requests' && type !== 'past_requests') throw zerr.badParam('type');
      const active = type === 'active_requests';
      const items = slice(ctx)
        .otherApps.filter((a) => (a.request_status === 'pending') === active)
        .sort((a, b) => b.request_date_time.localeCompare(a.request_date_time));
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        next_page_token: page.nextPageToken,
        page_size: page.pageSize,
        apps: page.items.map((a) => ({
          app_id: a.app_id,
          app_name: a.app_name,
          app_type: a.app_type,
          app_usage: a.app_usage,
          app_status: 'PUBLISHED',
          request_id: a.request_id,
          // "This field only returns when the type value is active."
          ...(active ? { request_date_time: a.request_date_time } : {}),
          request_status: a.request_status,
        })),
      };
    },
  });
}
