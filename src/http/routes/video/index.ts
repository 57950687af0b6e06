/**
 * Every named /api/video capability path, one file per group.
 */
import type { FastifyInstance } from 'fastify';
import type { ViewDeps } from '../capability-routes.js';
import { registerAiRoutes } from './ai-routes.js';
import { registerCalendarRoutes } from './calendar-routes.js';
import { registerClipsRoutes } from './clips-routes.js';
import { registerContactsRoutes } from './contacts-routes.js';
import { registerVideoEventsRoutes } from './events-hub-routes.js';
import { registerMeetingsRoutes } from './meetings-routes.js';
import { registerPhoneRoutes } from './phone-routes.js';
import { registerRaRoutes } from './ra-routes.js';
import { registerRecordingsRoutes } from './recordings-routes.js';
import { registerSearchRoutes } from './search-routes.js';
import { registerSubscriptionRoutes } from './subscriptions-routes.js';

export function registerCapabilityPaths(app: FastifyInstance, deps: ViewDeps): void {
  registerMeetingsRoutes(app, deps);
  registerCalendarRoutes(app, deps);
  registerRecordingsRoutes(app, deps);
  registerContactsRoutes(app, deps);
  registerSearchRoutes(app, deps);
  registerAiRoutes(app, deps);
  registerPhoneRoutes(app, deps);
  registerClipsRoutes(app, deps);
  registerRaRoutes(app, deps);
  registerVideoEventsRoutes(app, deps);
  registerSubscriptionRoutes(app, deps);
}
