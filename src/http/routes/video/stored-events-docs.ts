/**
 * How the stored-event paths (meetings-routes.ts) describe themselves: the gateway's own list
 * of the meetings it created, one event, its registrations; the answers as the wire schemas.
 */
import * as z from 'zod';
import { entry } from '../../../gateway/capabilities/registry.js';
import {
  eventPatchInput,
  registrationInput,
  wireEvent,
  type registrationToWire,
} from '../../../gateway/events-service.js';
import { SEARCH_CANDIDATES } from '../../../gateway/event-search.js';
import { registrationsPageQuery, storedEventsQuery } from '../../../gateway/stored-events-pages.js';
import { OPERATION_ERRORS, type Holds, type RouteDoc } from '../../openapi.js';

export const videoIdParam = z.object({
  videoId: z.string().regex(/^\d{1,20}$/, 'videoId is the meeting id (digits)'),
});

const page = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .describe('pass as cursor (with the same filters) for the next page; null on the last'),
  });

const registration = z.object({
  id: z.string(),
  video_id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  registrant_id: z.string(),
  join_url: z.string().nullable(),
  created_at: z.string(),
});
export type RegistrationHolds = Holds<ReturnType<typeof registrationToWire>, z.output<typeof registration>>;

const stored = (d: Omit<RouteDoc, 'tag' | 'auth'>): RouteDoc => ({
  tag: 'capabilities',
  auth: 'api_key',
  ...d,
});
const one = { params: videoIdParam };
/** DELETE runs delete_meeting and answers what it answers. */
const deleteOutput = entry('meetings', 'delete_meeting').operation?.output;

export const STORED_EVENT_DOCS: readonly RouteDoc[] = [
  stored({
    method: 'GET',
    url: '/api/video/events',
    summary: `Stored events (meetings the gateway created), filtered by funnel, status and start time, in start_time order; with q, those matching the words, ranked among the newest ${SEARCH_CANDIDATES} matches. Keyset-paged: pass nextCursor back as cursor with the same filters.`,
    input: storedEventsQuery,
    output: page(wireEvent),
    errors: [400],
  }),
  stored({
    method: 'GET',
    url: '/api/video/events/:videoId',
    summary: 'One stored event.',
    ...one,
    output: wireEvent,
    errors: [400, 404],
  }),
  stored({
    method: 'PATCH',
    url: '/api/video/events/:videoId',
    summary:
      'Changes a stored event on the platform and in the store together (funnel-only changes stay local).',
    ...one,
    input: eventPatchInput,
    output: wireEvent,
    errors: [...OPERATION_ERRORS],
  }),
  stored({
    method: 'DELETE',
    url: '/api/video/events/:videoId',
    summary: 'Deletes the meeting on the platform and the stored event.',
    ...one,
    ...(deleteOutput ? { output: deleteOutput } : {}),
    errors: [...OPERATION_ERRORS],
  }),
  stored({
    method: 'GET',
    url: '/api/video/events/:videoId/registrations',
    summary: 'Registrations recorded for a stored event, oldest first; keyset-paged with nextCursor.',
    ...one,
    input: registrationsPageQuery,
    output: page(registration),
    errors: [400, 404],
  }),
  stored({
    method: 'POST',
    url: '/api/video/events/:videoId/registrations',
    summary: 'Registers a person on the platform and records it.',
    ...one,
    input: registrationInput,
    status: 201,
    output: registration,
    idempotent: true,
    errors: [...OPERATION_ERRORS],
  }),
];
