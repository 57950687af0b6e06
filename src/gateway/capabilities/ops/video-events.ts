/**
 * video_events (events hub): the linked user's hosted and attended events, one event, its
 * registrations and sessions, creating an event (a draft, as the platform creates them) in
 * one of the user's hubs, and registering an attendee (./video-events-register.ts).
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, id, instant, pageOf, pageSchema, paging, seg } from '../operation.js';
import { withPathId } from '../rest-input.js';
import { granular } from '../scopes.js';
import { registerOp } from './video-events-register.js';

const GROUP = 'video_events';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The platform wants `yyyy-MM-ddTHH:mm:ssZ` (UTC) in an event's calendar. */
const utc = (v: string) => new Date(v).toISOString().replace(/\.\d{3}Z$/, 'Z');

const timeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone like America/Chicago');

const eventId = id('event_id').describe('event_id from list_events');

const CATEGORIES = [
  'Education & Family',
  'Business & Networking',
  'Entertainment & Visual Arts',
  'Food & Drink',
  'Fitness & Health',
  'Home & Lifestyle',
  'Community & Spirituality',
  'Other',
] as const;

interface PlatformEvent {
  event_id?: string;
  name?: string;
  description?: string;
  timezone?: string;
  event_type?: string;
  recurrence?: Record<string, unknown>;
  access_level?: string;
  meeting_type?: string;
  categories?: string[];
  tags?: string[];
  calendar?: { start_time?: string; end_time?: string }[];
  status?: string;
  hub_id?: string;
  host_id?: string;
  start_time?: string;
  end_time?: string;
  contact_name?: string;
  contact_email?: string;
  lobby_start_time?: string;
  lobby_end_time?: string;
  event_url?: string;
  attendance_type?: string;
  physical_location?: string;
  tagline?: string;
}

const nstr = z.string().nullable();

const eventView = z.object({
  event_id: nstr,
  name: nstr,
  description: z.string(),
  status: nstr.describe('PUBLISHED, DRAFT, CANCELLED, ...'),
  event_type: nstr.describe('SIMPLE_EVENT, CONFERENCE, ...'),
  access_level: nstr.describe('PRIVATE_RESTRICTED, PRIVATE_UNRESTRICTED or PUBLIC'),
  attendance_type: nstr.describe('virtual, in-person or hybrid'),
  meeting_type: nstr.describe('MEETING or WEBINAR: the session kind of a SIMPLE_EVENT'),
  timezone: nstr,
  start_time: nstr.describe("the event's start, else its first calendar entry's"),
  end_time: nstr.describe("the event's end, else its last calendar entry's"),
  calendar: z.array(z.object({ start_time: nstr, end_time: nstr })).describe("the event's days"),
  // The platform's recurrence object, passed through as it is (its keys vary with the rule).
  recurrence: z.record(z.string(), z.unknown()).nullable(),
  hub_id: nstr,
  event_url: nstr.describe("the event's public page"),
  contact_name: nstr,
  contact_email: nstr,
  physical_location: nstr,
  tagline: nstr,
  categories: z.array(z.string()),
  tags: z.array(z.string()),
});

const event = (e: PlatformEvent): z.output<typeof eventView> => ({
  event_id: e.event_id ?? null,
  name: e.name ?? null,
  description: e.description ?? '',
  status: e.status ?? null,
  event_type: e.event_type ?? null,
  access_level: e.access_level ?? null,
  attendance_type: e.attendance_type ?? null,
  meeting_type: str(e.meeting_type),
  timezone: str(e.timezone),
  start_time: str(e.start_time) ?? str(e.calendar?.[0]?.start_time),
  end_time: str(e.end_time) ?? str(e.calendar?.[e.calendar.length - 1]?.end_time),
  calendar: (e.calendar ?? []).map((c) => ({
    start_time: c.start_time ?? null,
    end_time: c.end_time ?? null,
  })),
  recurrence: e.recurrence ?? null,
  hub_id: str(e.hub_id),
  event_url: str(e.event_url),
  contact_name: str(e.contact_name),
  contact_email: str(e.contact_email),
  physical_location: str(e.physical_location),
  tagline: str(e.tagline),
  categories: e.categories ?? [],
  tags: e.tags ?? [],
});

interface PlatformRegistrant {
  email?: string;
  registration_status?: string;
  tickets?: { ticket_id?: string; role?: string; authentication_method?: string }[];
}

interface PlatformSession {
  session_id?: string;
  name?: string;
  description?: string;
  type?: number;
  meeting_id?: number | string;
  webinar_id?: number | string;
  start_time?: string;
  end_time?: string;
  timezone?: string;
  session_speakers?: { name?: string; company?: string; title?: string }[];
  featured?: boolean;
  attendance_type?: string;
  physical_location?: string;
  track_labels?: string[];
}

const SESSION_TYPES: Record<number, string> = { 0: 'meeting', 2: 'webinar', 4: 'no_meeting' };

const sessionView = z.object({
  session_id: nstr,
  name: nstr,
  description: z.string(),
  session_type: nstr.describe("meeting, webinar or no_meeting (another platform type as its number's text)"),
  video_id: nstr.describe("the session's meeting id"),
  webinar_id: nstr,
  start_time: nstr,
  end_time: nstr,
  timezone: nstr,
  attendance_type: nstr,
  physical_location: nstr,
  featured: z.boolean(),
  speakers: z.array(z.object({ name: nstr, company: nstr, title: nstr })),
  track_labels: z.array(z.string()),
});

const registrationView = z.object({
  email: nstr,
  registration_status: nstr.describe('REGISTERED, PRE_REGISTERED, ...'),
  tickets: z.array(z.object({ ticket_id: nstr, role: nstr, authentication_method: nstr })),
});

const session = (s: PlatformSession): z.output<typeof sessionView> => ({
  session_id: s.session_id ?? null,
  name: s.name ?? null,
  description: s.description ?? '',
  session_type: s.type !== undefined ? (SESSION_TYPES[s.type] ?? String(s.type)) : null,
  video_id: s.meeting_id !== undefined && s.meeting_id !== null ? String(s.meeting_id) : null,
  webinar_id: s.webinar_id !== undefined && s.webinar_id !== null ? String(s.webinar_id) : null,
  start_time: str(s.start_time),
  end_time: str(s.end_time),
  timezone: str(s.timezone),
  attendance_type: str(s.attendance_type),
  physical_location: str(s.physical_location),
  featured: s.featured === true,
  speakers: (s.session_speakers ?? []).map((p) => ({
    name: p.name ?? null,
    company: str(p.company),
    title: str(p.title),
  })),
  track_labels: s.track_labels ?? [],
});

/** The query plus the path's event id under the operation's name for it (never from the query). */
const withEventId = withPathId('eventId', 'event_id');

export const videoEventsOps = [
  defineOp({
    group: GROUP,
    name: 'list_events',
    scopes: granular('zoom_events:read:list_events'),

    rest: [{ method: 'GET', url: '/api/video/events-hub' }],
    summary:
      'Lists the events the linked user hosts (or attends), by status: upcoming, past, draft or cancelled.',
    kind: 'read',
    input: z
      .object({
        status: z
          .enum(['upcoming', 'past', 'draft', 'cancelled'])
          .default('upcoming')
          .describe('draft and cancelled apply to hosted events only'),
        role: z.enum(['host', 'attendee']).default('host').describe('events the user hosts, or attends'),
        ...paging(300, 30),
      })
      .refine((i) => i.role === 'host' || i.status === 'upcoming' || i.status === 'past', {
        message: 'as attendee only upcoming and past events can be listed',
        path: ['status'],
      }),
    output: pageSchema(eventView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ events?: PlatformEvent[]; next_page_token?: string }>({
        method: 'GET',
        path: '/zoom_events/events',
        query: {
          role_type: i.role,
          event_status_type: i.status,
          page_size: i.limit,
          next_page_token: i.cursor,
        },
        label: 'LIGHT',
        group: GROUP,
      });
      return pageOf((r.data.events ?? []).map(event), r.data.next_page_token);
    },
  }),

  defineOp({
    group: GROUP,
    name: 'get_event',
    scopes: granular('zoom_events:read:event'),

    rest: [{ method: 'GET', url: '/api/video/events-hub/:eventId', input: withEventId }],
    summary: 'One event with its schedule, hub, access level, link and host.',
    kind: 'read',
    input: z.object({ event_id: eventId }),
    output: eventView.extend({ host_id: nstr }),
    async run(ctx, i) {
      const r = await ctx.platform.call<PlatformEvent>({
        method: 'GET',
        path: `/zoom_events/events/${seg(i.event_id)}`,
        label: 'LIGHT',
        group: GROUP,
      });
      return { ...event(r.data), host_id: str(r.data.host_id) };
    },
  }),

  defineOp({
    group: GROUP,
    name: 'registrations',
    scopes: granular('zoom_events:read:list_registrants'),

    rest: [{ method: 'GET', url: '/api/video/events-hub/:eventId/registrations', input: withEventId }],
    summary: "Lists an event's registrations (email, status and tickets); only the event's host may.",
    kind: 'read',
    input: z.object({ event_id: eventId, ...paging(300, 30) }),
    output: pageSchema(registrationView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ registrants?: PlatformRegistrant[]; next_page_token?: string }>({
        method: 'GET',
        path: `/zoom_events/events/${seg(i.event_id)}/registrants`,
        query: { page_size: i.limit, next_page_token: i.cursor },
        label: 'LIGHT',
        group: GROUP,
      });
      return pageOf(
        (r.data.registrants ?? []).map((x): z.output<typeof registrationView> => ({
          email: x.email ?? null,
          registration_status: x.registration_status ?? null,
          tickets: (x.tickets ?? []).map((t) => ({
            ticket_id: t.ticket_id ?? null,
            role: t.role ?? null,
            authentication_method: t.authentication_method ?? null,
          })),
        })),
        r.data.next_page_token,
      );
    },
  }),

  defineOp({
    group: GROUP,
    name: 'sessions',
    scopes: granular('zoom_events:read:list_sessions'),

    rest: [{ method: 'GET', url: '/api/video/events-hub/:eventId/sessions', input: withEventId }],
    summary: "Lists an event's sessions in start order, with speakers and their meeting or webinar ids.",
    kind: 'read',
    input: z.object({ event_id: eventId }),
    output: z.object({
      items: z.array(sessionView),
      nextCursor: z.null().describe('always null: the platform does not page sessions'),
    }),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ sessions?: PlatformSession[] }>({
        method: 'GET',
        path: `/zoom_events/events/${seg(i.event_id)}/sessions`,
        label: 'LIGHT',
        group: GROUP,
      });
      return { items: (r.data.sessions ?? []).map(session), nextCursor: null };
    },
  }),

  defineOp({
    group: GROUP,
    name: 'create_event',
    scopes: granular('zoom_events:write:event'),

    rest: [{ method: 'POST', url: '/api/video/events-hub', status: 201 }],
    summary:
      "Creates an event as a draft in one of the user's hubs (default: the first hub the user hosts); a single-session event gets its session.",
    kind: 'write',
    creates: true,
    input: z
      .object({
        name: z.string().trim().min(1).max(200),
        description: z.string().max(10_000).default(''),
        timezone: timeZone.describe('IANA time zone the event is shown in, like America/Chicago'),
        start_time: instant.describe('when the event starts, ISO 8601 with a zone'),
        end_time: instant.describe('when the event ends; at most 6 days after start_time'),
        event_type: z
          .enum(['SIMPLE_EVENT', 'CONFERENCE'])
          .default('SIMPLE_EVENT')
          .describe(
            'SIMPLE_EVENT: one session; CONFERENCE: multi-session (sessions are added on the platform)',
          ),
        access_level: z
          .enum(['PRIVATE_RESTRICTED', 'PRIVATE_UNRESTRICTED', 'PUBLIC'])
          .default('PRIVATE_RESTRICTED')
          .describe('PRIVATE_RESTRICTED: invited people only; PRIVATE_UNRESTRICTED: anyone with the link'),
        hub_id: id('hub_id')
          .optional()
          .describe('the hub to create it in; default the first hub the user hosts'),
        attendance_type: z.enum(['virtual', 'in-person', 'hybrid']).default('virtual'),
        meeting_type: z
          .enum(['MEETING', 'WEBINAR'])
          .default('MEETING')
          .describe('the session kind of a SIMPLE_EVENT'),
        physical_location: z.string().trim().min(1).max(500).optional().describe('for in-person or hybrid'),
        tagline: z.string().trim().max(500).optional(),
        contact_name: z.string().trim().min(1).max(200).optional().describe("default the user's name"),
        categories: z.array(z.enum(CATEGORIES)).max(20).optional(),
        tags: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
      })
      .superRefine((i, c) => {
        const start = Date.parse(i.start_time);
        const end = Date.parse(i.end_time);
        if (end <= start)
          c.addIssue({ code: 'custom', path: ['end_time'], message: 'must be after start_time' });
        else if (end - start > 6 * 86_400_000)
          c.addIssue({ code: 'custom', path: ['end_time'], message: 'an event can span at most 6 days' });
      }),
    output: eventView.extend({ event_id: z.string() }),
    async run(ctx, i) {
      let hubId = i.hub_id;
      if (hubId === undefined) {
        const hubs = await ctx.platform.call<{ hubs?: { hub_id?: string; hub_active?: boolean }[] }>({
          method: 'GET',
          path: '/zoom_events/hubs',
          query: { role_type: 'host' },
          label: 'LIGHT',
          group: GROUP,
        });
        const list = hubs.data.hubs ?? [];
        hubId = (list.find((h) => h.hub_active !== false) ?? list[0])?.hub_id;
        if (!hubId) {
          throw new AppError(
            409,
            'no_event_hub',
            'The linked user hosts no event hub; create one on the platform or pass hub_id.',
          );
        }
      }
      const r = await ctx.platform.call<PlatformEvent>({
        method: 'POST',
        path: '/zoom_events/events',
        body: {
          name: i.name,
          description: i.description,
          timezone: i.timezone,
          event_type: i.event_type,
          access_level: i.access_level,
          hub_id: hubId,
          attendance_type: i.attendance_type,
          ...(i.event_type === 'SIMPLE_EVENT' ? { meeting_type: i.meeting_type } : {}),
          calendar: [{ start_time: utc(i.start_time), end_time: utc(i.end_time) }],
          ...(i.physical_location ? { physical_location: i.physical_location } : {}),
          ...(i.tagline ? { tagline: i.tagline } : {}),
          ...(i.contact_name ? { contact_name: i.contact_name } : {}),
          ...(i.categories ? { categories: i.categories } : {}),
          ...(i.tags ? { tags: i.tags } : {}),
        },
        label: 'LIGHT',
        group: GROUP,
      });
      if (!r.data?.event_id)
        throw new AppError(502, 'upstream_error', 'The platform did not return the new event.');
      return { ...event(r.data), event_id: r.data.event_id };
    },
  }),
  registerOp,
];
