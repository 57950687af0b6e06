/**
 * GET /api/video/search?q=: ranked results across stored events, meetings, recordings and contacts.
 */
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../../gateway/capabilities/registry.js';
import { search, searchInput } from '../../../gateway/search.js';
import { documentRoute } from '../../openapi.js';
import type { ViewDeps } from '../capability-routes.js';

export function registerSearchRoutes(app: FastifyInstance, deps: ViewDeps): void {
  documentRoute({
    method: 'GET',
    url: '/api/video/search',
    summary: 'Ranked results across stored events, meetings, recordings and contacts, grouped by source.',
    tag: 'capabilities',
    auth: 'api_key',
    input: searchInput,
  });
  app.get('/api/video/search', { onRequest: deps.auth }, async (req) =>
    search(await deps.gateway.opContext(), parseInput(searchInput, req.query)),
  );
}
