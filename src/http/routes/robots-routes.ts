/**
 * GET /robots.txt: what crawlers may fetch. The portal, the brand API and its files, llms.txt and
 * the API reference are public and worth finding; the gateway, the operator dashboard and the
 * metrics are private (a crawler gets 401s and a sign-in page there), so crawlers are asked to
 * stay out. The same file for every build: a brand-only one has no such paths, and asking to
 * skip paths that do not exist costs nothing.
 */
import type { FastifyInstance } from 'fastify';
import { precompute, sendPrecomputed } from '../precomputed.js';
import type { RouteDocBody } from '../openapi.js';

export const ROBOTS_PATH = '/robots.txt';

/** RFC 9309; one group for every crawler, the most specific (longest) rule wins. */
export const ROBOTS_TXT = `# fleetgate: the brand portal, the brand API (/api/brand), its files (/static/),
# llms.txt and the API reference (/docs, /openapi.json) are public.
# The gateway (/api/video/), the operator dashboard and the metrics are private.
User-agent: *
Allow: /
Disallow: /api/video/
Disallow: /dashboard
Disallow: /metrics
`;

/** A day: the file changes only with a release. */
const CACHE = 'public, max-age=86400';

export function registerRobotsRoute(app: FastifyInstance): void {
  const robots = precompute(ROBOTS_TXT, { contentType: 'text/plain; charset=utf-8', cacheControl: CACHE });
  const doc: RouteDocBody = {
    summary:
      'What crawlers may fetch (RFC 9309): the public brand API, files, portal and reference; not the gateway, dashboard or metrics.',
    tag: 'operations',
    auth: 'none',
    media: { type: 'text/plain; charset=utf-8' },
    responseDescription: 'The rules, cacheable for a day.',
    headers: { ETag: 'the strong validator of these bytes', 'Cache-Control': 'public, max-age=86400' },
    responses: {
      304: {
        description: 'Not modified: If-None-Match matched the ETag.',
        headers: { ETag: 'the same ETag' },
      },
    },
  };
  // HEAD routed with GET so it answers the GET's exact headers; the edge may send it unrouted.
  app.route({
    method: ['GET', 'HEAD'],
    url: ROBOTS_PATH,
    exposeHeadRoute: false,
    handler: (req, reply) => sendPrecomputed(req, reply, robots),
    config: { precomputed: () => robots, doc },
  });
}
