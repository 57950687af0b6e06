/**
 * /api/video/events-hub/*: the video_events capabilities as REST paths (list and create events,
 * one event, its registrations and sessions, and registering an attendee).
 */
import type { FastifyInstance } from 'fastify';
import { registerInput } from '../../../gateway/capabilities/ops/video-events-register.js';
import { restView, type ViewDeps, type ViewRequest } from '../capability-routes.js';
import { queryWithPathId } from './path-id.js';

/** The query plus the path's event id under the operation's name for it (never from the query). */
const withEventId = (req: ViewRequest) => queryWithPathId(req, 'eventId', 'event_id');

export function registerVideoEventsRoutes(app: FastifyInstance, deps: ViewDeps): void {
  const group = 'video_events';
  restView(app, deps, { method: 'GET', url: '/api/video/events-hub', group, name: 'list_events' });
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/events-hub',
    group,
    name: 'create_event',
    status: 201,
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/events-hub/:eventId',
    group,
    name: 'get_event',
    input: withEventId,
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/events-hub/:eventId/registrations',
    group,
    name: 'registrations',
    input: withEventId,
  });
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/events-hub/:eventId/registrations',
    group,
    name: 'register',
    status: 201,
    // The body names the attendee; the event is the path's, whatever the body says.
    input: (req) => ({
      ...(req.body as Record<string, unknown> | undefined),
      event_id: (req.params as { eventId?: string }).eventId,
    }),
    docInput: registerInput.omit({ event_id: true }),
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/events-hub/:eventId/sessions',
    group,
    name: 'sessions',
    input: withEventId,
  });
}
