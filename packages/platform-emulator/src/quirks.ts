/**
 * Switchable departures from the documented platform that real traffic shows, for tests of the
 * gateway's tolerance: `POST /_sandbox/quirks {"omitRateLimitHeaders": true}` makes every 429
 * arrive without its X-RateLimit-* and Retry-After headers, as the platform's sometimes do.
 * `GET /_sandbox/quirks` reads them; `POST /_sandbox/reset` restores the configured ones.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as z from 'zod';

export interface Quirks {
  omitRateLimitHeaders: boolean;
}

const quirksSchema = z.strictObject({ omitRateLimitHeaders: z.boolean().optional() });

const RATE_LIMIT_HEADERS = [
  'x-ratelimit-category',
  'x-ratelimit-type',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
];

export function dropRateLimitHeaders(reply: FastifyReply): void {
  for (const h of RATE_LIMIT_HEADERS) reply.removeHeader(h);
}

export function registerQuirks(app: FastifyInstance, quirks: Quirks): void {
  app.get('/_sandbox/quirks', () => quirks);
  app.post('/_sandbox/quirks', (req, reply) => {
    const parsed = quirksSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      return reply.code(400).send({
        error: {
          code: 'validation_failed',
          message: 'The request is not valid.',
          details: {
            issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          },
        },
      });
    }
    if (parsed.data.omitRateLimitHeaders !== undefined)
      quirks.omitRateLimitHeaders = parsed.data.omitRateLimitHeaders;
    return quirks;
  });
}
