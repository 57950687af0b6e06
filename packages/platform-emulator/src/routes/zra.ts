/**
 * Zoom Revenue Accelerator (ZRA) under `/zra/*` (the deprecated `/iq/*` twins are not served):
 * analysed sales conversations (meetings and phone calls) with their content analysis and
 * comments, and the CRM deals they belong to, across the fleet's selling businesses (GrowthOS,
 * Meridian Capital, Meridian Mortgage, Meridian Freight). Posting a comment emits
 * `revenue_accelerator.post_comment_completed`. This file registers the module; the records,
 * seed, lookups, content analysis and the routes of each resource are in zra/.
 */
import { defineModule } from '../context.js';
import type { ZraSlice } from './zra/records.js';
import { seedZra } from './zra/seed.js';
import { registerConversationRoutes } from './zra/routes-conversations.js';
import { registerCommentRoutes } from './zra/routes-comments.js';
import { registerDealRoutes } from './zra/routes-deals.js';

export const zraModule = defineModule<ZraSlice>({
  name: 'zra',
  seed: seedZra,
  register(ctx) {
    registerConversationRoutes(ctx);
    registerCommentRoutes(ctx);
    registerDealRoutes(ctx);
  },
});
