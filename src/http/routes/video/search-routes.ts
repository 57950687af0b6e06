/**
 * GET /api/video/search?q=: ranked results across stored events, meetings, recordings and contacts.
 */
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../../gateway/capabilities/registry.js';
import { search, searchInput } from '../../../gateway/search.js';
import type { ViewDeps } from '../capability-routes.js';

export function registerSearchRoutes(app: FastifyInstance, deps: ViewDeps): void {
  app.get('/api/video/search', { preHandler: deps.auth }, async (req) =>
    search(await deps.gateway.opContext(), parseInput(searchInput, req.query)),
  );
}
