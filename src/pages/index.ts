/**
 * The two pages: the brand portal at / and the operator dashboard at /dashboard.
 */
import type { FastifyInstance } from 'fastify';
import type { PageDeps } from './page-deps.js';
import { registerDashboard } from './dashboard/routes.js';
import type { DashboardSessions } from '../http/auth/sessions.js';
import { registerPortal } from './portal/routes.js';

/** Each page its own encapsulated plugin: a page's parsers, hooks and handlers stay with it. */
export function registerPages(app: FastifyInstance, deps: PageDeps, sessions?: DashboardSessions): void {
  void app.register(function portalPage(scope, _opts, done) {
    registerPortal(scope, deps);
    done();
  });
  void app.register(function dashboardPage(scope, _opts, done) {
    registerDashboard(scope, deps, sessions);
    done();
  });
}
