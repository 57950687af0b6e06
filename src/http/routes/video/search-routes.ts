/**
 * GET /api/video/search?q=: ranked results across stored events, meetings, recordings and contacts.
 */
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../../gateway/capabilities/registry.js';
import { search, searchInput } from '../../../gateway/search.js';
import * as z from 'zod';
import type { Holds, RouteDocBody } from '../../openapi.js';
import type { ViewDeps } from '../capability-routes.js';

const hit = z
  .object({ score: z.number().describe('how many query words match, and where') })
  .catchall(z.unknown());
const searchAnswer = z.object({
  q: z.string(),
  total: z.number(),
  groups: z
    .record(z.string(), z.array(hit))
    .describe('events (stored), meetings, recordings and contacts, each best first'),
  unavailable: z
    .array(z.object({ source: z.string(), code: z.string() }))
    .optional()
    .describe('sources that failed this time (their group is empty)'),
});
export type SearchHolds = Holds<Awaited<ReturnType<typeof search>>, z.output<typeof searchAnswer>>;

export function registerSearchRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const doc: RouteDocBody = {
    summary: 'Ranked results across stored events, meetings, recordings and contacts, grouped by source.',
    tag: 'capabilities',
    auth: 'api_key',
    input: searchInput,
    output: searchAnswer,
    errors: [400, 409],
  };
  app.get('/api/video/search', { config: { doc } }, async (req) =>
    search(await deps.gateway.opContext(), parseInput(searchInput, req.query)),
  );
}
