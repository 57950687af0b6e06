/**
 * Which requests get Fastify's "incoming request" / "request completed" log lines: all but the
 * public, cacheable reads, which are not worth a line each. The edge (edge.ts) serves only
 * requests this rule keeps quiet, so every logged request goes through Fastify's logger.
 */
const QUIET = /^\/(api\/brand|static\/|llms\.txt|robots\.txt|favicon\.ico|healthz|readyz)/;

export const quietRequest = (req: { method?: string | undefined; url?: string | undefined }): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && QUIET.test(req.url ?? '');
