/**
 * The stored events paths of the seed (`/api/video/events`, one event, its registrations). The
 * meetings capability views (POST /api/video/events, POST /api/video/appointments) are declared
 * with their operations (ops/meetings.ts); deletion runs the delete_meeting operation, so REST,
 * the registry and MCP behave the same; reads of stored events come from the gateway's services.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke, parseInput } from '../../../gateway/capabilities/registry.js';
import { runOnce } from '../../../gateway/capabilities/idempotent-invoke.js';
import {
  eventPatchInput,
  eventToWire,
  getStoredEvent,
  register,
  registrationInput,
  updateEvent,
} from '../../../gateway/events-service.js';
import { AppError } from '../../errors.js';
import { documentRoute } from '../../openapi.js';
import { idempotencyKey, markReplay, refuseIdempotencyKey } from '../../idempotency-header.js';
import type { ViewDeps } from '../capability-routes.js';
import { STORED_EVENT_DOCS, videoIdParam } from './stored-events-docs.js';
import { registrationsPageQuery, storedEventsQuery } from '../../../gateway/stored-events-pages.js';

const objectBody = (req: FastifyRequest): Record<string, unknown> => {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

export function registerMeetingsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway } = deps;
  // Routes that create nothing refuse an Idempotency-Key, as the shared invoke does for operations.
  const noKey = { onRequest: refuseIdempotencyKey };
  for (const d of STORED_EVENT_DOCS) documentRoute(app, d);

  app.get('/api/video/events', noKey, async (req) =>
    gateway.events.page(parseInput(storedEventsQuery, req.query)),
  );

  app.get('/api/video/events/:videoId', noKey, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    return eventToWire(await getStoredEvent(ctx, videoId));
  });
  app.patch('/api/video/events/:videoId', noKey, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const patch = parseInput(eventPatchInput, objectBody(req));
    return updateEvent(await gateway.opContext(), videoId, patch);
  });
  app.delete('/api/video/events/:videoId', noKey, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    await getStoredEvent(ctx, videoId);
    return invoke(ctx, 'meetings', 'delete_meeting', { video_id: videoId });
  });
  app.get('/api/video/events/:videoId/registrations', noKey, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    return gateway.events.registrations(videoId, parseInput(registrationsPageQuery, req.query));
  });
  app.post('/api/video/events/:videoId/registrations', async (req, reply) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const input = parseInput(registrationInput, objectBody(req));
    const ctx = await gateway.opContext();
    // Not an operation, but a creation: the same key rules and key space as the shared invoke.
    const { result, replayed } = await runOnce(
      ctx,
      { group: 'stored_events', name: 'register', input: { video_id: videoId, ...input } },
      idempotencyKey(req),
      () => register(ctx, videoId, input),
    );
    return markReplay(reply, replayed).code(201).send(result);
  });
}
