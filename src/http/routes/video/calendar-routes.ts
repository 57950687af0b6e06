/**
 * /api/video/calendar/*: the calendar capabilities as REST paths.
 *
 *   GET    /api/video/calendar/calendars            list_calendars
 *   GET    /api/video/calendar/events               list_events
 *   POST   /api/video/calendar/events               create_event (201)
 *   POST   /api/video/calendar/events/quick-add     quick_add (201)
 *   PATCH  /api/video/calendar/events/:eventId      update_event
 *   DELETE /api/video/calendar/events/:eventId      delete_event (200 with a body)
 */
import type { FastifyInstance } from 'fastify';
import { restView, type ViewDeps, type ViewRequest } from '../capability-routes.js';
import { queryWithPathId } from './path-id.js';

const eventIdOf = (req: ViewRequest) => (req.params as { eventId: string }).eventId;

const objectOf = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function registerCalendarRoutes(app: FastifyInstance, deps: ViewDeps): void {
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/calendar/calendars',
    group: 'calendar',
    name: 'list_calendars',
  });
  restView(app, deps, {
    method: 'GET',
    url: '/api/video/calendar/events',
    group: 'calendar',
    name: 'list_events',
  });
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/calendar/events',
    group: 'calendar',
    name: 'create_event',
    status: 201,
  });
  restView(app, deps, {
    method: 'POST',
    url: '/api/video/calendar/events/quick-add',
    group: 'calendar',
    name: 'quick_add',
    status: 201,
  });
  restView(app, deps, {
    method: 'PATCH',
    url: '/api/video/calendar/events/:eventId',
    group: 'calendar',
    name: 'update_event',
    input: (req) => ({ ...objectOf(req.body), event_id: eventIdOf(req) }),
  });
  restView(app, deps, {
    method: 'DELETE',
    url: '/api/video/calendar/events/:eventId',
    group: 'calendar',
    name: 'delete_event',
    input: (req) => queryWithPathId(req, 'eventId', 'event_id'),
  });
}
