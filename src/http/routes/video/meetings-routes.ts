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
  registrationToWire,
  updateEvent,
} from '../../../gateway/events-service.js';
import { AppError } from '../../errors.js';
import { documentRoute } from '../../openapi.js';
import { restView, type ViewDeps } from '../capability-routes.js';
import { appointmentInput } from '../../../gateway/capabilities/ops/meetings.js';
import { cursorParam, decodeCursor, encodeCursor, filterTag } from '../../../gateway/cursor.js';
import { SEARCH_CANDIDATES, searchEventsPage } from '../../../gateway/event-search.js';
import { words } from '../../../store/search-terms.js';
import type { EventFilter, Store } from '../../../store/store.js';

const listInput = z.object({
  q: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe(
      `words to search for: each must start a word of the topic, agenda or funnel; the newest ${SEARCH_CANDIDATES} matches are ranked (topic before agenda and funnel), best first`,
    ),
  funnel: z.string().max(40).optional(),
  status: z.enum(['scheduled', 'started', 'ended', 'cancelled']).optional(),
  from: z.string().max(40).optional().describe('start_time at or after (same form as stored)'),
  to: z.string().max(40).optional().describe('start_time at or before (same form as stored)'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: cursorParam,
});

const pageInput = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: cursorParam,
});

/** The keys the cursors of these lists carry. */
const eventKey = z.tuple([z.string().max(40), z.string().max(40)]);
const searchKey = z.tuple([z.number().int().min(0), z.string().max(40), z.string().max(40)]);
const registrationKey = z.tuple([z.string().max(40), z.string().max(200)]);

const videoIdParam = z.object({
  videoId: z.string().regex(/^\d{1,20}$/, 'videoId is the meeting id (digits)'),
});

const objectBody = (req: FastifyRequest): Record<string, unknown> => {
  if (req.body === undefined || req.body === null) return {};
  if (typeof req.body !== 'object' || Array.isArray(req.body))
    throw new AppError(400, 'validation_failed', 'The request body must be a JSON object.');
  return req.body as Record<string, unknown>;
};

/** One page of stored events in start_time order, after the cursor's event. */
async function listPage(store: Store, filter: EventFilter, limit: number, cursor: string | undefined) {
  const tag = filterTag('events', { ...filter });
  const after = cursor === undefined ? undefined : decodeCursor(cursor, tag, eventKey);
  const page = await store.listEvents({
    ...filter,
    limit,
    ...(after ? { after: { startTime: after[0], videoId: after[1] } } : {}),
  });
  const last = page.items.at(-1);
  return {
    items: page.items.map(eventToWire),
    nextCursor: page.more && last ? encodeCursor(tag, [last.startTime, last.videoId]) : null,
  };
}

/** One page of a search of stored events in ranked order, after the cursor's place. */
async function searchPage(
  store: Store,
  text: string,
  filter: EventFilter,
  limit: number,
  cursor: string | undefined,
) {
  // The folded words, so the same search written another way continues the same list.
  const tag = filterTag('events-search', { ...filter, q: words(text).join(' ') });
  const after = cursor === undefined ? undefined : decodeCursor(cursor, tag, searchKey);
  const page = await searchEventsPage(store, {
    text,
    filter,
    limit,
    ...(after ? { after: { score: after[0], createdAt: after[1], videoId: after[2] } } : {}),
  });
  return {
    items: page.items.map(eventToWire),
    nextCursor: page.next
      ? encodeCursor(tag, [page.next.score, page.next.createdAt, page.next.videoId])
      : null,
  };
}

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
    listInput,
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
    pageInput,
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

  app.get('/api/video/events', { onRequest: auth }, async (req) => {
    const q = parseInput(listInput, req.query);
    const filter: EventFilter = {
      ...(q.funnel !== undefined ? { funnel: q.funnel } : {}),
      ...(q.status !== undefined ? { status: q.status } : {}),
      ...(q.from !== undefined ? { from: q.from } : {}),
      ...(q.to !== undefined ? { to: q.to } : {}),
    };
    return q.q === undefined
      ? listPage(gateway.store, filter, q.limit, q.cursor)
      : searchPage(gateway.store, q.q, filter, q.limit, q.cursor);
  });
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
    const ctx = await gateway.opContext();
    await getStoredEvent(ctx, videoId);
    const page = parseInput(pageInput, req.query);
    const tag = filterTag('registrations', { videoId });
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, tag, registrationKey);
    const r = await gateway.store.listRegistrations(videoId, {
      limit: page.limit,
      ...(after ? { after: { createdAt: after[0], id: after[1] } } : {}),
    });
    const last = r.items.at(-1);
    return {
      items: r.items.map(registrationToWire),
      nextCursor: r.more && last ? encodeCursor(tag, [last.createdAt, last.id]) : null,
    };
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
