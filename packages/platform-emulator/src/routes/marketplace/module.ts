/** The marketplace module: its seed and its routes (registered in this order: the scopes the OAuth server grants follow it). */
import { defineModule } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import type { MarketplaceSlice } from './records.js';
import { getApp, getAppRequests, getUserApps } from './routes-apps.js';
import { getEntitlements, getUserEntitlements } from './routes-entitlements.js';
import { seedMarketplace } from './seed.js';

export const marketplaceModule = defineModule<MarketplaceSlice>({
  name: 'marketplace',
  seed: seedMarketplace,
  register(ctx: EmulatorContext) {
    getApp(ctx);
    getEntitlements(ctx);
    getUserEntitlements(ctx);
    getAppRequests(ctx);
    getUserApps(ctx);
  },
});
