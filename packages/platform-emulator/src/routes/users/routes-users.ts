/** User routes: a user (only the demo user is one), their settings, the account's user list. */
import { p, q } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { USER_SCOPES, type UsersSlice } from './records.js';
import { userObject, userSettings } from './shapes.js';

const slice = (ctx: EmulatorContext) => ctx.slice<UsersSlice>('users');

export function registerUserRoutes(ctx: EmulatorContext): void {
  getUser(ctx);
  getUserSettings(ctx);
  getUsers(ctx);
}

function getUser(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users/:userId',
    scopes: USER_SCOPES,
    label: 'LIGHT',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      return userObject(ctx.demo, slice(ctx), ctx.baseUrl);
    },
  });
}

function getUserSettings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users/:userId/settings',
    scopes: [
      'user:read:settings',
      'user:read:settings:admin',
      'user:read',
      'user:write',
      'user:read:admin',
      'user:write:admin',
    ],
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const f = slice(ctx).settingsFeature;
      return userSettings(f);
    },
  });
}

function getUsers(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users',
    scopes: ['user:read:list_users:admin', 'user:read', 'user:write', 'user:read:admin', 'user:write:admin'],
    label: 'MEDIUM',
    handler: (req) => {
      const status = q(req, 'status') ?? 'active';
      const me = userObject(ctx.demo, slice(ctx), ctx.baseUrl);
      const all = [
        {
          id: me.id,
          email: me.email,
          first_name: me.first_name,
          last_name: me.last_name,
          display_name: me.display_name,
          type: 2,
          pmi: me.pmi,
          timezone: me.timezone,
          verified: 1,
          dept: me.dept,
          created_at: me.created_at,
          last_login_time: me.last_login_time,
          status: 'active',
          role_id: '0',
          user_created_at: me.created_at,
        },
        ...slice(ctx).colleagues.map((c) => ({
          ...c,
          display_name: `${c.first_name} ${c.last_name}`,
          verified: 1,
          status: 'active',
          timezone: ctx.demo.timezone,
          created_at: slice(ctx).createdAt,
          user_created_at: slice(ctx).createdAt,
          role_id: '2',
        })),
      ].filter((u) => u.status === status);
      const page = ctx.paginate(req, all, { defaultSize: 30, maxSize: 2000 });
      return {
        next_page_token: page.nextPageToken,
        page_count: Math.ceil(page.totalRecords / page.pageSize),
        page_number: 1,
        page_size: page.pageSize,
        total_records: page.totalRecords,
        users: page.items,
      };
    },
  });
}
