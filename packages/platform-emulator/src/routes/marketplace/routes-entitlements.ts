/** Marketplace entitlement routes: the app's monetization entitlements of a user, and a user's entitlements. */
import { p, q, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { SCOPES } from './records.js';
import { slice } from './lookups.js';

export function getEntitlements(ctx: EmulatorContext): void {
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
      const list = isDemo ? slice(ctx).entitlements : [];
      if (!list.length) throw new ZoomError(404, 1002, 'No entitlements assigned to the user for the app.');
      // A top-level array, as documented.
      return list.map((e) => ({
        id: String(e.entitlement_id),
        plan_name: e.plan_name,
        plan_id: e.plan_id,
      }));
    },
  });
}

export function getUserEntitlements(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/marketplace/users/:userId/entitlements',
    scopes: SCOPES.userEntitlements,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      return { entitlements: slice(ctx).entitlements.map((e) => ({ entitlement_id: e.entitlement_id })) };
    },
  });
}
