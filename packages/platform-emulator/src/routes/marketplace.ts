/**
 * Marketplace: the emulator's own OAuth app (its id is the sandbox client id, its scopes the ones
 * the emulator grants), the demo user's monetization entitlements, colleagues' requests to use
 * the app, and the demo user's own requests for other apps.
 */
export type { AppRequestRec, MarketplaceSlice, OtherAppRec } from './marketplace/records.js';
export { marketplaceModule } from './marketplace/module.js';
