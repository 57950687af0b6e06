/**
 * marketplace: the gateway's own app on the platform's marketplace (its listing and scopes), the
 * linked user's paid-plan entitlements for it, and colleagues' requests to use it.
 *
 * The app id is the gateway's OAuth client id, which OpContext does not carry: `app_id` is an
 * input here.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, id, pageOf, pageSchema, paging, seg } from '../operation.js';
import { granular } from '../scopes.js';

const GROUP = 'marketplace';

const appId = id('app_id')
  .optional()
  .describe("the app's id; default: this gateway's own app (its OAuth client id)");

interface PlatformApp {
  app_id?: string;
  app_name?: string;
  app_description?: string;
  app_type?: string;
  app_usage?: number;
  app_status?: string;
  app_links?: Record<string, unknown>;
  app_scopes?: string[];
  app_requirements?: { user_role?: string; account_eligibility?: { account_types?: string[] } };
}

interface PlatformRequest {
  request_user_id?: string;
  request_user_name?: string;
  request_user_email?: string;
  request_user_department?: string;
  request_date_time?: string;
  reason?: string;
  status?: string;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const appView = z.object({
  app_id: z.string(),
  app_name: z.string().nullable(),
  app_description: z.string().nullable(),
  app_type: z.string().nullable().describe('ZoomApp, ChatBotApp or OAuthApp'),
  app_usage: z
    .enum(['admin_managed', 'user_managed'])
    .nullable()
    .describe("managed by the account's admins, or available to users"),
  app_status: z.string().nullable().describe('PUBLISHED or UNPUBLISHED'),
  app_links: z
    .record(z.string(), z.string())
    .describe("the listing's links by kind (e.g. support_url, privacy_policy_url); empty ones left out"),
  app_scopes: z.array(z.string()).describe('the OAuth scopes granted to the app'),
  user_role: z.string().nullable().describe('the role a user needs to add the app'),
  account_types: z.array(z.string()).describe('the account types that may use the app'),
});

const entitlementView = z.object({
  entitlement_id: z.string().nullable(),
  plan_id: z.string().nullable(),
  plan_name: z.string().nullable(),
});

const requestView = z.object({
  request_user_id: z.string().nullable(),
  request_user_name: z.string().nullable(),
  request_user_email: z.string().nullable(),
  request_user_department: z.string().nullable(),
  request_date_time: z.string().nullable(),
  reason: z.string().nullable().describe('why the user asked for the app'),
  status: z.string().nullable().describe('pending, approved or rejected'),
});

export const marketplaceOps = [
  defineOp({
    group: GROUP,
    name: 'app',
    scopes: granular('marketplace:read:app'),
    summary: "The linked marketplace app's listing: name, type, status, links and granted scopes.",
    kind: 'read',
    input: z.object({ app_id: appId }),
    output: appView,
    async run(ctx, i): Promise<z.output<typeof appView>> {
      const r = await ctx.platform.call<PlatformApp>({
        method: 'GET',
        path: `/marketplace/apps/${seg(i.app_id ?? ctx.appId)}`,
        label: 'MEDIUM',
        group: GROUP,
      });
      const a = r.data;
      const links = Object.fromEntries(
        Object.entries(a.app_links ?? {}).filter(([, v]) => typeof v === 'string' && v !== ''),
      ) as Record<string, string>;
      return {
        app_id: a.app_id ?? i.app_id ?? ctx.appId,
        app_name: a.app_name ?? null,
        app_description: str(a.app_description),
        app_type: a.app_type ?? null,
        // The platform's 1 / 2: managed by the account's admins, or available to users.
        app_usage: a.app_usage === 1 ? 'admin_managed' : a.app_usage === 2 ? 'user_managed' : null,
        app_status: a.app_status ?? null,
        app_links: links,
        app_scopes: a.app_scopes ?? [],
        user_role: str(a.app_requirements?.user_role),
        account_types: a.app_requirements?.account_eligibility?.account_types ?? [],
      };
    },
  }),

  defineOp({
    group: GROUP,
    name: 'entitlements',
    scopes: granular('marketplace:read:list_user_entitlements'),
    summary: "The linked user's paid-plan entitlements for the app (empty when none is assigned).",
    kind: 'read',
    input: z.object({}),
    output: pageSchema(entitlementView),
    async run(ctx) {
      try {
        const r = await ctx.platform.call<{ id?: string | number; plan_name?: string; plan_id?: string }[]>({
          method: 'GET',
          path: '/marketplace/monetization/entitlements',
          query: { user_id: ctx.uid === 'me' ? undefined : ctx.uid },
          label: 'HEAVY',
          group: GROUP,
        });
        const list = Array.isArray(r.data) ? r.data : [];
        return pageOf(
          list.map((e): z.output<typeof entitlementView> => ({
            entitlement_id: e.id !== undefined && e.id !== null ? String(e.id) : null,
            plan_id: str(e.plan_id),
            plan_name: str(e.plan_name),
          })),
          null,
        );
      } catch (err) {
        // 404 code 1002 is the platform's "No entitlements assigned to the user for the app."
        if (err instanceof AppError && err.code === 'not_found' && err.details?.['platformCode'] === 1002) {
          return pageOf([], null);
        }
        throw err;
      }
    },
  }),

  defineOp({
    group: GROUP,
    name: 'app_requests',
    scopes: ['marketplace:read:app_request:admin', 'marketplace:read:admin', 'marketplace:read'],
    summary: "Lists users' requests to use the app, by status (pending by default), newest first.",
    kind: 'read',
    input: z.object({
      app_id: appId,
      status: z.enum(['pending', 'approved', 'rejected']).default('pending'),
      ...paging(300, 30),
    }),
    output: pageSchema(requestView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ requests?: PlatformRequest[]; next_page_token?: string }>({
        method: 'GET',
        path: `/marketplace/apps/${seg(i.app_id ?? ctx.appId)}/requests`,
        query: { status: i.status, page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf(
        (r.data.requests ?? []).map((x): z.output<typeof requestView> => ({
          request_user_id: str(x.request_user_id),
          request_user_name: str(x.request_user_name),
          request_user_email: str(x.request_user_email),
          request_user_department: str(x.request_user_department),
          request_date_time: str(x.request_date_time),
          reason: str(x.reason),
          status: x.status ?? null,
        })),
        r.data.next_page_token,
      );
    },
  }),
];
