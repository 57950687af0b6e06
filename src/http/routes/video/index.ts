/**
 * Every named /api/video capability path, one file per group.
 */
import type { FastifyInstance } from 'fastify';
import type { ViewDeps } from '../capability-routes.js';
import { registerContactsRoutes } from './contacts-routes.js';
import { registerMeetingsRoutes } from './meetings-routes.js';
import { registerSearchRoutes } from './search-routes.js';

export function registerCapabilityPaths(app: FastifyInstance, deps: ViewDeps): void {
  registerMeetingsRoutes(app, deps);
  registerContactsRoutes(app, deps);
  registerSearchRoutes(app, deps);
}
