/**
 * POST /api/video/webhooks: the platform's deliveries. Authenticated by signature, not API key;
 * the body is kept as raw bytes because the signature covers exactly those bytes.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { GatewayObserver } from '../../gateway/observer.js';
import { platformDelivery, type WebhookIntake } from '../../gateway/webhook-intake.js';
import * as z from 'zod';
import { AppError, errorBody, errorResponse } from '../errors.js';
import type { RouteDocBody } from '../openapi.js';

const answer = z.union([
  z
    .object({ plainToken: z.string(), encryptedToken: z.string().describe('HMAC-SHA256 of plainToken, hex') })
    .describe('endpoint.url_validation'),
  z.object({
    received: z.literal(true),
    duplicate: z.literal(true).optional().describe('this delivery was already processed'),
    ignored: z.literal(true).optional().describe('an event the gateway does not act on'),
  }),
]);

export function registerWebhookRoutes(
  app: FastifyInstance,
  intake: WebhookIntake,
  observer?: GatewayObserver,
): void {
  const doc: RouteDocBody = {
    summary:
      "The platform's webhook deliveries (x-zm-signature over the raw body, ±5 minutes); answers url_validation.",
    tag: 'gateway',
    auth: 'signature',
    input: platformDelivery,
    output: answer,
    errors: [400, 401, 413, 415, 503],
  };
  void app.register(function webhookIntake(scope, _opts, done) {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, next) =>
      next(null, body),
    );
    scope.setErrorHandler((err: FastifyError, req, reply) => {
      observer?.webhook('rejected');
      // A store that cannot write says when to retry (Retry-After); the platform retries 5xx anyway.
      if (err instanceof AppError)
        return reply
          .code(err.status)
          .headers(err.headers ?? {})
          .send(errorBody(err.code, err.message, err.details));
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return reply.code(413).send(errorBody('payload_too_large', 'The delivery is too large.'));
      // Fastify's own refusals (an empty or malformed Content-Type is a 415) as everywhere else.
      const { status, body } = errorResponse(err);
      if (status >= 500) req.log.error({ err }, 'webhook intake failed');
      return reply.code(status).send(body);
    });
    scope.post('/api/video/webhooks', { config: { doc, limit: 'api' } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const r = await intake.receive(req.headers, raw);
      const body = r.body as { duplicate?: unknown; ignored?: unknown; plainToken?: unknown };
      observer?.webhook(
        body.plainToken !== undefined
          ? 'url_validation'
          : body.duplicate
            ? 'duplicate'
            : body.ignored
              ? 'ignored'
              : 'accepted',
      );
      return reply.code(r.status).send(r.body);
    });
    done();
  });
}
