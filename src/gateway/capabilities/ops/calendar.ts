/**
 * calendar: the linked user's calendars and their events over the platform's Calendar API
 * (Google-Calendar-like, camelCase, `maxResults`/`pageToken`). Events come back in our compact
 * shape; recurring events are listed as their single instances within the asked window.
 */
import * as z from 'zod';
import {
  addDays,
  DAY_MS,
  defineOp,
  id,
  instant,
  invalid,
  isRealDay,
  pageOf,
  pageSchema,
  paging,
  seg,
  type OpContext,
} from '../operation.js';
import { pathParam, withPathId } from '../rest-input.js';
import { granular } from '../scopes.js';

interface PlatformTime {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

interface PlatformAttendee {
  email?: string;
  displayName?: string;
  responseStatus?: string;
}

interface PlatformEvent {
  id?: string;
  status?: string;
  created?: string;
  updated?: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: PlatformTime;
  end?: PlatformTime;
  attendees?: PlatformAttendee[];
  recurringEventId?: string;
}

interface PlatformCalendar {
  id?: string;
  summary?: string;
  description?: string;
  location?: string;
  timeZone?: string;
  backgroundColor?: string;
  accessRole?: string;
  primary?: boolean;
}

const isInstant = (v: string) => instant.safeParse(v).success;

const isTimeZone = (v: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
};

/** An end is the same kind as its start (both dates or both instants), and after it. */
function checkEnd(start: string, end: string, c: z.RefinementCtx): void {
  if (isRealDay(start) !== isRealDay(end)) {
    c.addIssue({
      code: 'custom',
      path: ['end'],
      message: 'must be a date when start is a date, else an instant',
    });
  } else if (isRealDay(start) ? end <= start : Date.parse(end) < Date.parse(start)) {
    c.addIssue({ code: 'custom', path: ['end'], message: 'must be after start' });
  }
}

const when = z
  .string()
  .trim()
  .max(40)
  .refine(
    (v) => isRealDay(v) || isInstant(v),
    'must be an ISO 8601 time with a zone (2026-11-22T15:00:00Z) or, for an all-day event, a date (2026-11-22)',
  );
const timezone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone like America/Chicago')
  .describe('IANA time zone the event is kept in, like America/Chicago; default: the zone of the calendar');
const calendarId = id('calendar_id')
  .default('primary')
  .describe('calendar id from list_calendars; default: the primary calendar');
const eventId = id('event_id').describe('event id from list_events');
const attendees = z
  .array(
    z.object({
      email: z.email().max(254),
      name: z.string().trim().min(1).max(256).optional(),
    }),
  )
  .max(100);

const summary = z.string().trim().min(1).max(1024);
const description = z.string().max(15000);
const location = z.string().trim().max(1024);

const calendarEvent = z.object({
  id: z.string(),
  calendar_id: z.string(),
  summary: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  start: z.string().nullable().describe('ISO 8601 instant, or a date for an all-day event'),
  end: z.string().nullable().describe('same kind as start; exclusive for all-day events'),
  all_day: z.boolean(),
  timezone: z.string().nullable().describe("the event's own zone; null when it follows its calendar's"),
  attendees: z.array(
    z.object({
      email: z.string(),
      name: z.string().nullable(),
      response: z.string().describe('needsAction, accepted, declined or tentative'),
    }),
  ),
  status: z.string().describe('confirmed, tentative or cancelled'),
  recurring_event_id: z.string().nullable(),
  created: z.string().nullable(),
  updated: z.string().nullable(),
});

/** Our event. `timezone` is the event's own zone, null when it follows its calendar's. */
const eventOf = (e: PlatformEvent, calendar: string): z.output<typeof calendarEvent> => ({
  id: e.id ?? '',
  calendar_id: calendar,
  summary: e.summary ?? '',
  description: e.description ?? null,
  location: e.location ?? null,
  start: e.start?.dateTime ?? e.start?.date ?? null,
  end: e.end?.dateTime ?? e.end?.date ?? null,
  all_day: e.start?.date !== undefined,
  timezone: e.start?.timeZone ?? null,
  attendees: (e.attendees ?? []).map((a) => ({
    email: a.email ?? '',
    name: a.displayName ?? null,
    response: a.responseStatus ?? 'needsAction',
  })),
  status: e.status ?? 'confirmed',
  recurring_event_id: e.recurringEventId ?? null,
  created: e.created ?? null,
  updated: e.updated ?? null,
});

const calendarView = z.object({
  id: z.string(),
  summary: z.string(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  timezone: z.string().nullable(),
  primary: z.boolean(),
  access_role: z.string().nullable().describe('freeBusyReader, reader, writer or owner'),
  background_color: z.string().nullable(),
});

const calendarOf = (c: PlatformCalendar): z.output<typeof calendarView> => ({
  id: c.id ?? '',
  summary: c.summary ?? '',
  description: c.description || null,
  location: c.location || null,
  timezone: c.timeZone ?? null,
  primary: c.primary === true,
  access_role: c.accessRole ?? null,
  background_color: c.backgroundColor ?? null,
});

/** The platform's `{date}` or `{dateTime}` for one of our times, with the zone when given. */
const timeOf = (v: string, tz: string | undefined): PlatformTime => ({
  ...(isRealDay(v) ? { date: v } : { dateTime: v }),
  ...(tz ? { timeZone: tz } : {}),
});

const attendeesOf = (list: z.output<typeof attendees>) =>
  list.map((a) => ({ email: a.email, ...(a.name ? { displayName: a.name } : {}) }));

const eventsPath = (cal: string) => `/calendars/${seg(cal)}/events`;

async function getEvent(ctx: OpContext, cal: string, event: string): Promise<PlatformEvent> {
  const r = await ctx.platform.call<PlatformEvent>({
    method: 'GET',
    path: `${eventsPath(cal)}/${seg(event)}`,
    label: 'LIGHT',
    group: 'calendar',
  });
  return r.data;
}

/** list_events' cursor: `w1.<from ms>.<to ms>.<platform page token>`. */
const WINDOW_CURSOR = /^w1\.(\d{1,15})\.(\d{1,15})\.(.+)$/s;

const plainObject = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export const calendarOps = [
  defineOp({
    group: 'calendar',
    name: 'list_calendars',
    scopes: granular('calendar:read:list_calendar_lists'),

    rest: [{ method: 'GET', url: '/api/video/calendar/calendars' }],
    summary:
      "Lists the linked user's calendars (the primary one and any secondary ones) with their time zones and access roles.",
    kind: 'read',
    input: z.object({
      min_access_role: z
        .enum(['freeBusyReader', 'reader', 'writer', 'owner'])
        .optional()
        .describe(
          'only calendars where the user has at least this role (writer: ones you can add events to)',
        ),
      ...paging(100, 50),
    }),
    output: pageSchema(calendarView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ items?: PlatformCalendar[]; nextPageToken?: string }>({
        method: 'GET',
        path: `/calendars/users/${seg(ctx.uid)}/calendarList`,
        query: { maxResults: i.limit, pageToken: i.cursor, minAccessRole: i.min_access_role },
        label: 'HEAVY',
        group: 'calendar',
      });
      return pageOf((r.data.items ?? []).map(calendarOf), r.data.nextPageToken);
    },
  }),

  defineOp({
    group: 'calendar',
    name: 'list_events',
    scopes: granular('calendar:read:list_events'),

    rest: [{ method: 'GET', url: '/api/video/calendar/events' }],
    summary:
      'Lists the events of a calendar that overlap a time window (default: now to 30 days ahead), in start order; recurring events appear as their single occurrences.',
    kind: 'read',
    input: z
      .object({
        from: instant.max(40).optional().describe('start of the window, ISO 8601 with a zone; default: now'),
        to: instant
          .max(40)
          .optional()
          .describe('end of the window, ISO 8601 with a zone; default: 30 days after from'),
        calendar_id: calendarId,
        ...paging(100, 25),
      })
      .refine((i) => !i.from || !i.to || Date.parse(i.from) < Date.parse(i.to), {
        path: ['to'],
        message: 'must be after from',
      }),
    output: pageSchema(calendarEvent),
    async run(ctx, i) {
      // The platform binds a page token to the query it came from, and the default window moves
      // with the clock: our cursor carries the window of the first page along with the token.
      const carried = i.cursor ? WINDOW_CURSOR.exec(i.cursor) : null;
      const fromMs = carried ? Number(carried[1]) : i.from ? Date.parse(i.from) : ctx.now();
      const toMs = carried ? Number(carried[2]) : i.to ? Date.parse(i.to) : fromMs + 30 * DAY_MS;
      const pageToken = carried ? carried[3] : i.cursor;
      if (toMs <= fromMs) throw invalid('to', 'must be after from (from defaults to now)');
      const r = await ctx.platform.call<{ items?: PlatformEvent[]; nextPageToken?: string }>({
        method: 'GET',
        path: eventsPath(i.calendar_id),
        query: {
          // RFC 3339 with an offset, as timeMin / timeMax require.
          timeMin: new Date(fromMs).toISOString(),
          timeMax: new Date(toMs).toISOString(),
          singleEvents: true,
          orderBy: 'startTime',
          maxResults: i.limit,
          pageToken,
        },
        label: 'MEDIUM',
        group: 'calendar',
      });
      const next = r.data.nextPageToken ? `w1.${fromMs}.${toMs}.${r.data.nextPageToken}` : null;
      return pageOf(
        (r.data.items ?? []).map((e) => eventOf(e, i.calendar_id)),
        next,
      );
    },
  }),

  defineOp({
    group: 'calendar',
    name: 'create_event',
    scopes: granular('calendar:write:event'),

    rest: [{ method: 'POST', url: '/api/video/calendar/events', status: 201 }],
    summary:
      'Creates a calendar event: timed (start/end as ISO instants) or all-day (start/end as dates, end exclusive), with optional attendees.',
    kind: 'write',
    creates: true,
    input: z
      .object({
        summary: summary.describe('event title'),
        start: when.describe('ISO 8601 instant with a zone, or a date (yyyy-mm-dd) for an all-day event'),
        end: when
          .optional()
          .describe(
            'same kind as start; for all-day events the day after the last day; default: one hour (or one day) after start',
          ),
        timezone: timezone.optional(),
        description: description.optional(),
        location: location.optional(),
        attendees: attendees.optional().describe('people to invite; the platform sends them an invitation'),
        calendar_id: calendarId,
      })
      .superRefine((i, c) => {
        if (i.end === undefined) return;
        checkEnd(i.start, i.end, c);
      }),
    output: calendarEvent,
    async run(ctx, i) {
      const end =
        i.end ??
        (isRealDay(i.start) ? addDays(i.start, 1) : new Date(Date.parse(i.start) + 3_600_000).toISOString());
      const r = await ctx.platform.call<PlatformEvent>({
        method: 'POST',
        path: eventsPath(i.calendar_id),
        body: {
          summary: i.summary,
          start: timeOf(i.start, i.timezone),
          end: timeOf(end, i.timezone),
          ...(i.description !== undefined ? { description: i.description } : {}),
          ...(i.location !== undefined ? { location: i.location } : {}),
          ...(i.attendees ? { attendees: attendeesOf(i.attendees) } : {}),
        },
        label: 'HEAVY',
        group: 'calendar',
      });
      return eventOf(r.data, i.calendar_id);
    },
  }),

  defineOp({
    group: 'calendar',
    name: 'update_event',
    scopes: granular('calendar:update:event'),

    rest: [
      {
        method: 'PATCH',
        url: '/api/video/calendar/events/:eventId',
        // A body that is no object is taken as empty (the input's own checks then answer).
        input: (req) => ({ ...plainObject(req.body), event_id: pathParam(req, 'eventId') }),
      },
    ],
    summary:
      'Changes an event: only the fields given change (the platform takes start and end with every change, so those not given are sent as stored); attendees, when given, replace the whole list (answers already given are kept).',
    kind: 'write',
    overwrites: true,
    input: z
      .object({
        event_id: eventId,
        calendar_id: calendarId,
        summary: summary.optional(),
        start: when.optional().describe('ISO 8601 instant with a zone, or a date for an all-day event'),
        end: when.optional().describe('same kind as start; for all-day events the day after the last day'),
        timezone: timezone.optional(),
        description: description.optional(),
        location: location.optional(),
        attendees: attendees.optional().describe('the new attendee list (replaces the old one)'),
      })
      .superRefine((i, c) => {
        const fields = [
          'summary',
          'start',
          'end',
          'timezone',
          'description',
          'location',
          'attendees',
        ] as const;
        if (fields.every((f) => i[f] === undefined)) {
          c.addIssue({ code: 'custom', path: [], message: `give at least one of ${fields.join(', ')}` });
        }
        if (i.start === undefined || i.end === undefined) return;
        checkEnd(i.start, i.end, c);
      }),
    output: calendarEvent,
    async run(ctx, i) {
      const body: Record<string, unknown> = {};
      if (i.summary !== undefined) body['summary'] = i.summary;
      if (i.description !== undefined) body['description'] = i.description;
      if (i.location !== undefined) body['location'] = i.location;
      if (i.attendees !== undefined) body['attendees'] = attendeesOf(i.attendees);
      let start = i.start === undefined ? undefined : timeOf(i.start, i.timezone);
      let end = i.end === undefined ? undefined : timeOf(i.end, i.timezone);
      if (start === undefined || end === undefined) {
        // The platform's PATCH requires start and end: what is not given is resent as stored (in
        // the new zone when one is given; a new zone alone moves nothing in time).
        const cur = await getEvent(ctx, i.calendar_id, i.event_id);
        const stored = (t: PlatformTime | undefined) => {
          const v = t?.dateTime ?? t?.date;
          if (v === undefined) return undefined;
          return i.timezone !== undefined ? timeOf(v, i.timezone) : timeOf(v, t?.timeZone);
        };
        start ??= stored(cur.start);
        end ??= stored(cur.end);
      }
      if (start !== undefined) body['start'] = start;
      if (end !== undefined) body['end'] = end;
      const r = await ctx.platform.call<PlatformEvent>({
        method: 'PATCH',
        path: `${eventsPath(i.calendar_id)}/${seg(i.event_id)}`,
        body,
        label: 'HEAVY',
        group: 'calendar',
      });
      return eventOf(r.data, i.calendar_id);
    },
  }),

  defineOp({
    group: 'calendar',
    name: 'delete_event',
    scopes: granular('calendar:delete:event'),

    rest: [
      {
        method: 'DELETE',
        url: '/api/video/calendar/events/:eventId',
        input: withPathId('eventId', 'event_id'),
      },
    ],
    summary:
      'Deletes (cancels) an event; given the id of one occurrence of a recurring event, removes only that occurrence.',
    kind: 'delete',
    input: z.object({ event_id: eventId, calendar_id: calendarId }),
    output: z.object({ deleted: z.literal(true), id: z.string(), calendar_id: z.string() }),
    async run(ctx, i) {
      await ctx.platform.call({
        method: 'DELETE',
        path: `${eventsPath(i.calendar_id)}/${seg(i.event_id)}`,
        label: 'HEAVY',
        group: 'calendar',
      });
      return { deleted: true as const, id: i.event_id, calendar_id: i.calendar_id };
    },
  }),

  defineOp({
    group: 'calendar',
    name: 'quick_add',
    scopes: granular('calendar:write:quick_add_event'),

    rest: [{ method: 'POST', url: '/api/video/calendar/events/quick-add', status: 201 }],
    summary:
      'Creates an event from a short text, like "Lunch with sam@example.com tomorrow at 1pm for 30 minutes at Gibsons".',
    kind: 'write',
    creates: true,
    input: z.object({
      text: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .describe(
          'plain-language event: title, day, time, duration, place and the email addresses of invitees',
        ),
      calendar_id: calendarId,
    }),
    output: calendarEvent,
    async run(ctx, i) {
      const r = await ctx.platform.call<PlatformEvent>({
        method: 'POST',
        path: `${eventsPath(i.calendar_id)}/quickAdd`,
        query: { text: i.text },
        label: 'HEAVY',
        group: 'calendar',
      });
      return eventOf(r.data, i.calendar_id);
    },
  }),
];
