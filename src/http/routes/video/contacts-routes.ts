/**
 * GET /api/video/contacts: the contacts capability as a REST path.
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps } from '../capability-routes.js';

export function registerContactsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/contacts',
    group: 'contacts',
    name: 'list_contacts',
  });
}
