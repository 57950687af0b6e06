/**
 * Every named /api/video capability path: the capability views in one loop over the
 * declarations (capability-routes.ts), around the paths that are no capability's (stored events,
 * search, subscriptions).
 */
import type { FastifyInstance } from 'fastify';
import { registerCapabilityViews, type ViewDeps } from '../capability-routes.js';
import { registerMeetingsRoutes } from './meetings-routes.js';
import { registerSearchRoutes } from './search-routes.js';
import { registerSubscriptionRoutes } from './subscriptions-routes.js';

export function registerCapabilityPaths(app: FastifyInstance, deps: ViewDeps): void {
  registerMeetingsRoutes(app, deps);
  registerSearchRoutes(app, deps);
  registerCapabilityViews(app, deps);
  registerSubscriptionRoutes(app, deps);
}
