/**
 * The two pages: the brand portal at / and the operator dashboard at /dashboard.
 */
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.js';
import { registerDashboard } from './dashboard/routes.js';
import type { DashboardSessions } from '../auth/sessions.js';
import { registerPortal } from './portal/routes.js';

export function registerPages(app: FastifyInstance, deps: AppDeps, sessions?: DashboardSessions): void {
  registerPortal(app, deps);
  registerDashboard(app, deps, sessions);
}
