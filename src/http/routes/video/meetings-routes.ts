/**
 * The stored events paths of the seed (`/api/video/events`, one event, its registrations). The
 * meetings capability views (POST /api/video/events, POST /api/video/appointments) are declared
 * with their operations (ops/meetings.ts); deletion runs the delete_meeting operation, so REST,
 * the registry and MCP behave the same; reads of stored events come from the gateway's services.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invoke, parseInput } from '../../../gateway/capabilities/registry.js';
import { runOnce } from '../../../gateway/capabilities/idempotent-invoke.js';
import { SEARCH_CANDIDATES } from '../../../gateway/event-search.js';
import {
  eventPatchInput,
  eventToWire,
  getStoredEvent,
  register,
  registrationInput,
  updateEvent,
  wireEvent,
} from '../../../gateway/events-service.js';
import { AppError } from '../../errors.js';
import { OPERATION_ERRORS } from '../../openapi.js';
import { idempotencyKey, markReplay, refuseIdempotencyKey } from '../../idempotency-header.js';
import type { ViewDeps } from '../capability-routes.js';
import { deleteOutput, one, page, registration, stored, videoIdParam } from './stored-events-schemas.js';
import { registrationsPageQuery, storedEventsQuery } from '../../../gateway/stored-events-pages.js';

const objectBody = (req: FastifyRequest): Record<string, unknown> => {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

// Routes that create nothing refuse an Idempotency-Key, as the shared invoke does for operations.
const onRequest = refuseIdempotencyKey;

export function registerMeetingsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  addStoredEventReads(app, deps);
  addStoredEventWrites(app, deps);
}

function addStoredEventReads(app: FastifyInstance, { gateway }: ViewDeps): void {
  const list = {
    ...stored,
    summary: `Stored events (meetings the gateway created), filtered by funnel, status and start time, in start_time order; with q, those matching the words, ranked among the newest ${SEARCH_CANDIDATES} matches. Keyset-paged: pass nextCursor back as cursor with the same filters.`,
    input: storedEventsQuery,
    output: page(wireEvent),
    errors: [400],
  };
  app.get('/api/video/events', { onRequest, config: { doc: list } }, async (req) =>
    gateway.events.page(parseInput(storedEventsQuery, req.query)),
  );

  const read = { ...stored, ...one, summary: 'One stored event.', output: wireEvent, errors: [400, 404] };
  app.get('/api/video/events/:videoId', { onRequest, config: { doc: read } }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    return eventToWire(await getStoredEvent(ctx, videoId));
  });

  const registrations = {
    ...stored,
    ...one,
    summary: 'Registrations recorded for a stored event, oldest first; keyset-paged with nextCursor.',
    input: registrationsPageQuery,
    output: page(registration),
    errors: [400, 404],
  };
  app.get(
    '/api/video/events/:videoId/registrations',
    { onRequest, config: { doc: registrations } },
    async (req) => {
      const { videoId } = parseInput(videoIdParam, req.params);
      return gateway.events.registrations(videoId, parseInput(registrationsPageQuery, req.query));
    },
  );
}

function addStoredEventWrites(app: FastifyInstance, { gateway }: ViewDeps): void {
  const patch = {
    ...stored,
    ...one,
    summary:
      'Changes a stored event on the platform and in the store together (funnel-only changes stay local).',
    input: eventPatchInput,
    output: wireEvent,
    errors: [...OPERATION_ERRORS],
  };
  app.patch('/api/video/events/:videoId', { onRequest, config: { doc: patch } }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const patch = parseInput(eventPatchInput, objectBody(req));
    return updateEvent(await gateway.opContext(), videoId, patch);
  });

  const remove = {
    ...stored,
    ...one,
    summary: 'Deletes the meeting on the platform and the stored event.',
    ...(deleteOutput ? { output: deleteOutput } : {}),
    errors: [...OPERATION_ERRORS],
  };
  app.delete('/api/video/events/:videoId', { onRequest, config: { doc: remove } }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    await getStoredEvent(ctx, videoId);
    return invoke(ctx, 'meetings', 'delete_meeting', { video_id: videoId });
  });

  const registers = {
    ...stored,
    ...one,
    summary: 'Registers a person on the platform and records it.',
    input: registrationInput,
    status: 201,
    output: registration,
    idempotent: true,
    errors: [...OPERATION_ERRORS],
  };
  app.post('/api/video/events/:videoId/registrations', { config: { doc: registers } }, async (req, reply) => {
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
