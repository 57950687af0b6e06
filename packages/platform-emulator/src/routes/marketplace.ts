/**
 * Marketplace: the emulator's own OAuth app (its id is the sandbox client id, its scopes the ones
 * the emulator grants), the demo user's monetization entitlements, colleagues' requests to use
 * the app, and the demo user's own requests for other apps.
 */
import { defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { EmulatorContext, EmulatorRequest, SeedContext } from '../context.js';
import type { UsersSlice } from './users.js';

type AppType = 'ZoomApp' | 'ChatBotApp' | 'OAuthApp';
type RequestStatus = 'pending' | 'approved' | 'rejected';

export interface OtherAppRec {
  app_id: string;
  app_name: string;
  app_description: string;
  app_type: AppType;
  app_usage: 1 | 2;
  scopes: string[];
  /** The demo user's request to use it. */
  request_id: string;
  request_date_time: string;
  request_status: RequestStatus;
}

export interface AppRequestRec {
  /** Which colleague (index into the users slice's colleagues) asked. */
  colleague: number;
  request_date_time: string;
  reason: string;
  status: RequestStatus;
}

export interface MarketplaceSlice {
  app: { app_name: string; app_description: string; created_at: string };
  entitlements: { entitlement_id: number; plan_name: string; plan_id: string }[];
  requests: AppRequestRec[];
  otherApps: OtherAppRec[];
}

const SCOPES = {
  app: [
    'marketplace:read:app',
    'marketplace:read:app:admin',
    'marketplace_app:read:admin',
    'marketplace_app:read',
  ],
  monetization: [
    'marketplace:read:list_user_entitlements',
    'marketplace:read:list_user_entitlements:admin',
    'marketplace_entitlement:read:admin',
    'marketplace_entitlement:read',
  ],
  userEntitlements: [
    'marketplace:read:list_user_entitlements',
    'marketplace:read:list_user_entitlements:admin',
    'marketplace_entitlement:read',
    'marketplace_entitlement:read:admin',
  ],
  requests: ['marketplace:read:app_request:admin', 'marketplace_app:read:admin'],
  userApps: [
    'marketplace:read:list_user_app_requests:admin',
    'marketplace:read:list_user_app_requests',
    'marketplace_app:read:admin',
    'marketplace_app:read',
  ],
};

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const uuid = (s: SeedContext) => {
  const h = s.rng.id(32, '0123456789abcdef');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

function seedMarketplace(s: SeedContext): MarketplaceSlice {
  const reasons = [
    'I need to pull meeting summaries into our dispatch board.',
    'Our loan team wants Zoom Docs playbooks linked from the CRM.',
    'Event registrations should land in the GrowthOS funnel automatically.',
    'The learning team needs recordings for instructor reviews.',
    'To post call outcomes from Zoom Phone into the pipeline.',
  ];
  // Colleague order in the users slice: Jordan, Priya, Marcus, Elena, Sam.
  const statuses: RequestStatus[] = ['pending', 'approved', 'pending', 'pending', 'rejected'];
  const requests: AppRequestRec[] = statuses.map((status, i) => ({
    colleague: i,
    request_date_time: s.at(-(3 + i * 4), 14 + i, 10),
    reason: reasons[i] ?? '',
    status,
  }));
  const other = (
    name: string,
    description: string,
    type: AppType,
    usage: 1 | 2,
    scopes: string[],
    day: number,
    status: RequestStatus,
  ): OtherAppRec => ({
    app_id: s.rng.id(22, ID_ALPHABET),
    app_name: name,
    app_description: description,
    app_type: type,
    app_usage: usage,
    scopes,
    request_id: s.rng.id(22, ID_ALPHABET),
    request_date_time: s.at(day, 15, 0),
    request_status: status,
  });
  return {
    app: {
      app_name: 'Meridian Fleet Gateway',
      app_description:
        'Connects the Meridian Fleet companies to Zoom: meetings, summaries, docs, events and phone in one place.',
      created_at: s.at(-240, 16, 0),
    },
    entitlements: [
      {
        entitlement_id: Number(s.rng.digits(9)),
        plan_name: 'Meridian Fleet Gateway Business',
        plan_id: uuid(s),
      },
    ],
    requests,
    otherApps: [
      other(
        'LoadBoard Sync',
        'Posts Zoom meeting outcomes to freight load boards.',
        'OAuthApp',
        2,
        ['meeting:read:meeting', 'meeting:read:list_meetings'],
        -2,
        'pending',
      ),
      other(
        'Lakeshore Logistics Portal',
        'Shared shipment tracking inside Zoom meetings.',
        'ZoomApp',
        2,
        ['zoomapp:inmeeting'],
        -6,
        'pending',
      ),
      other(
        'Brightline CRM for Zoom',
        'Logs calls and meetings to Brightline CRM.',
        'OAuthApp',
        1,
        ['meeting:read:meeting', 'user:read:user'],
        -40,
        'approved',
      ),
      other(
        'QuickQuote Bot',
        'Answers freight quote requests in Team Chat.',
        'ChatBotApp',
        2,
        ['imchat:bot'],
        -65,
        'rejected',
      ),
    ],
  };
}

const title = (product: string) =>
  product
    .split('_')
    .map((w) => (w ? `${w[0]?.toUpperCase() ?? ''}${w.slice(1)}` : w))
    .join(' ');

export const marketplaceModule = defineModule<MarketplaceSlice>({
  name: 'marketplace',
  seed: seedMarketplace,
  register(ctx: EmulatorContext) {
    const slice = () => ctx.slice<MarketplaceSlice>('marketplace');
    const ownId = () => ctx.options.clientId;

    /** Permissions grouped by product, as the app's listing shows them. */
    const permissions = (scopes: string[]) => {
      const groups = new Map<string, string[]>();
      for (const sc of scopes) {
        const product = sc.split(':')[0] ?? sc;
        groups.set(product, [...(groups.get(product) ?? []), sc]);
      }
      return [...groups.entries()].map(([product, list]) => ({
        group: product,
        group_message: `The app can access your ${title(product)} data as the scopes below allow.`,
        title: title(product),
        permissions: list.map((name) => ({ name })),
      }));
    };
    const links = {
      documentation_url: 'https://meridianfleet.example/gateway/docs',
      privacy_policy_url: 'https://meridianfleet.example/privacy',
      support_url: 'https://meridianfleet.example/support',
      terms_of_use_url: 'https://meridianfleet.example/terms',
    };

    ctx.route({
      method: 'GET',
      url: '/marketplace/apps/:appId',
      scopes: SCOPES.app,
      label: 'MEDIUM',
      handler: (req: EmulatorRequest) => {
        const appId = p(req, 'appId');
        const s = slice();
        if (appId === ownId()) {
          // The app's scopes are what the emulator grants its tokens.
          const scopes = [...(ctx.options.scopes ?? req.auth.scopes)].sort();
          return {
            app_id: appId,
            app_name: s.app.app_name,
            app_description: s.app.app_description,
            app_type: 'OAuthApp',
            app_usage: 2,
            app_status: 'PUBLISHED',
            app_links: links,
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

    ctx.route({
      method: 'GET',
      url: '/marketplace/monetization/entitlements',
      scopes: SCOPES.monetization,
      label: 'HEAVY',
      handler: (req: EmulatorRequest) => {
        const userId = q(req, 'user_id') ?? 'me';
        let isDemo = false;
        try {
          isDemo = ctx.user(req, userId).id === ctx.demo.id;
        } catch {
          isDemo = false;
        }
        const list = isDemo ? slice().entitlements : [];
        if (!list.length) throw new ZoomError(404, 1002, 'No entitlements assigned to the user for the app.');
        // A top-level array, as documented.
        return list.map((e) => ({
          id: String(e.entitlement_id),
          plan_name: e.plan_name,
          plan_id: e.plan_id,
        }));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/marketplace/users/:userId/entitlements',
      scopes: SCOPES.userEntitlements,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        return { entitlements: slice().entitlements.map((e) => ({ entitlement_id: e.entitlement_id })) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/marketplace/apps/:appId/requests',
      scopes: SCOPES.requests,
      label: 'MEDIUM',
      handler: (req) => {
        const appId = p(req, 'appId');
        if (appId !== ownId()) throw new ZoomError(404, 1401, `App ID does not exist: ${appId}`);
        const status = q(req, 'status') ?? 'pending';
        if (status !== 'pending' && status !== 'approved' && status !== 'rejected')
          throw zerr.badParam('status');
        const colleagues = ctx.slice<UsersSlice | undefined>('users')?.colleagues ?? [];
        const items = slice()
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
        const items = slice()
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
  },
});
