/**
 * The meetings paths of the seed: stored events (`/api/video/events`, one event, its
 * registrations) and appointments (with Idempotency-Key). Creation and deletion run the
 * meetings capability operations, so REST and the registry behave the same.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { invoke, parseInput } from '../../../gateway/capabilities/registry.js';
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
import { restView, type ViewDeps } from '../capability-routes.js';
import { appointmentInput } from '../../../gateway/capabilities/ops/meetings.js';
import { SEARCH_CANDIDATES } from '../../../gateway/event-search.js';
import { registrationsPageQuery, storedEventsQuery } from '../../../gateway/stored-events-pages.js';

const videoIdParam = z.object({
  videoId: z.string().regex(/^\d{1,20}$/, 'videoId is the meeting id (digits)'),
});

const objectBody = (req: FastifyRequest): Record<string, unknown> => {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

export function registerMeetingsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const { gateway, auth } = deps;
  const doc = (method: string, url: string, summary: string, input?: z.ZodType, status?: number) =>
    documentRoute({
      method,
      url,
      summary,
      tag: 'capabilities',
      auth: 'api_key',
      ...(input ? { input } : {}),
      ...(status ? { status } : {}),
    });
  doc(
    'GET',
    '/api/video/events',
    `Stored events (meetings the gateway created), filtered by funnel, status and start time, in start_time order; with q, those matching the words, ranked among the newest ${SEARCH_CANDIDATES} matches. Keyset-paged: pass nextCursor back as cursor with the same filters.`,
    storedEventsQuery,
  );
  doc('GET', '/api/video/events/:videoId', 'One stored event.');
  doc(
    'PATCH',
    '/api/video/events/:videoId',
    'Changes a stored event on the platform and in the store together (funnel-only changes stay local).',
    eventPatchInput,
  );
  doc('DELETE', '/api/video/events/:videoId', 'Deletes the meeting on the platform and the stored event.');
  doc(
    'GET',
    '/api/video/events/:videoId/registrations',
    'Registrations recorded for a stored event, oldest first; keyset-paged with nextCursor.',
    registrationsPageQuery,
  );
  doc(
    'POST',
    '/api/video/events/:videoId/registrations',
    'Registers a person on the platform and records it.',
    registrationInput,
    201,
  );
  doc(
    'POST',
    '/api/video/appointments',
    'A meeting plus a calendar event with the invitee, as one operation; honours Idempotency-Key.',
    appointmentInput,
    201,
  );

  app.get('/api/video/events', { onRequest: auth }, async (req) =>
    gateway.events.page(parseInput(storedEventsQuery, req.query)),
  );
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/events',
    group: 'meetings',
    name: 'create_meeting',
    status: 201,
  });

  app.get('/api/video/events/:videoId', { onRequest: auth }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    return eventToWire(await getStoredEvent(ctx, videoId));
  });
  app.patch('/api/video/events/:videoId', { onRequest: auth }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const patch = parseInput(eventPatchInput, objectBody(req));
    return updateEvent(await gateway.opContext(), videoId, patch);
  });
  app.delete('/api/video/events/:videoId', { onRequest: auth }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const ctx = await gateway.opContext();
    await getStoredEvent(ctx, videoId);
    return invoke(ctx, 'meetings', 'delete_meeting', { video_id: videoId });
  });
  app.get('/api/video/events/:videoId/registrations', { onRequest: auth }, async (req) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    return gateway.events.registrations(videoId, parseInput(registrationsPageQuery, req.query));
  });
  app.post('/api/video/events/:videoId/registrations', { onRequest: auth }, async (req, reply) => {
    const { videoId } = parseInput(videoIdParam, req.params);
    const input = parseInput(registrationInput, objectBody(req));
    return reply.code(201).send(await register(await gateway.opContext(), videoId, input));
  });

  app.post('/api/video/appointments', { onRequest: auth }, async (req, reply) => {
    const body = objectBody(req);
    const key = req.headers['idempotency-key'];
    if (key !== undefined && (typeof key !== 'string' || !/^[\w.:-]{1,128}$/.test(key))) {
      throw new AppError(
        400,
        'validation_failed',
        'Idempotency-Key must be 1 to 128 letters, digits, ".", ":", "_" or "-".',
      );
    }
    const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const replay = (status: number, stored: string) =>
      reply
        .code(status)
        .header('idempotent-replayed', 'true')
        .type('application/json; charset=utf-8')
        .send(stored);
    if (key) {
      // Claim the key before acting, so two concurrent requests cannot both book.
      const claimed = await gateway.store.putIdempotent({
        key,
        requestHash: hash,
        status: 0,
        body: '',
        createdAt: new Date().toISOString(),
      });
      if (!claimed) {
        const seen = await gateway.store.getIdempotent(key);
        if (seen && seen.requestHash !== hash)
          throw new AppError(
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different request body.',
          );
        if (seen && seen.status === 0)
          throw new AppError(
            409,
            'idempotency_in_progress',
            'A request with this Idempotency-Key is still running; retry shortly.',
            undefined,
            { 'retry-after': '1' },
          );
        if (seen) return replay(seen.status, seen.body);
      }
    }
    let result: unknown;
    try {
      result = await invoke(await gateway.opContext(), 'meetings', 'create_appointment', body);
    } catch (err) {
      if (key) await gateway.store.dropIdempotent(key);
      throw err;
    }
    if (key) await gateway.store.finishIdempotent(key, 201, JSON.stringify(result));
    return reply.code(201).send(result);
  });
}
