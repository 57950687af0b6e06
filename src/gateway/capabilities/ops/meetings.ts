/**
 * meetings: create (stored with its funnel), list, get, search, delete, and appointments — a
 * meeting plus a calendar event with the invitee, as one operation that undoes the meeting if
 * the calendar step fails.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import {
  createEvent,
  deleteEvent,
  newEventInput,
  startTime,
  timezone,
  wireEvent,
} from '../../events-service.js';
import { date, defineOp, pageOf, pageSchema, paging, seg } from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformMeeting {
  id: number;
  uuid?: string;
  topic: string;
  type?: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  agenda?: string;
  join_url?: string;
  status?: string;
  created_at?: string;
}

const meetingView = z.object({
  video_id: z.string(),
  uuid: z.string().nullable(),
  topic: z.string(),
  type: z.number().nullable().describe('2 scheduled, 3 recurring without fixed time, 8 recurring'),
  start_time: z.string().nullable(),
  duration: z.number().nullable().describe('minutes'),
  timezone: z.string().nullable(),
  agenda: z.string().nullable(),
  join_url: z.string().nullable(),
  created_at: z.string().nullable(),
});

const meeting = (m: PlatformMeeting): z.output<typeof meetingView> => ({
  video_id: String(m.id),
  uuid: m.uuid ?? null,
  topic: m.topic,
  type: m.type ?? null,
  start_time: m.start_time ?? null,
  duration: m.duration ?? null,
  timezone: m.timezone ?? null,
  agenda: m.agenda ?? null,
  join_url: m.join_url ?? null,
  created_at: m.created_at ?? null,
});

/** A hit of the hosted MCP search: only what that tool reports of a meeting. */
const searchHit = z.object({
  video_id: z.string().describe('the meeting id; empty when the hosted search gave none'),
  topic: z.string().nullable(),
  start_time: z.string().nullable(),
});

const searchResult = z.object({
  // Items take the hosted search's short shape, or the full meeting shape of the list fallback.
  items: z.array(z.union([searchHit, meetingView])),
  via: z
    .enum(['hosted_mcp', 'meeting_list_filter'])
    .describe("hosted_mcp: the platform's hosted search (short items); meeting_list_filter: the fallback"),
  note: z.string().optional().describe('with meeting_list_filter only: why the fallback ran'),
});

const appointmentView = z.object({
  appointment: z.object({
    meeting: wireEvent.describe('the stored event of the meeting'),
    calendar_event_id: z.string().describe("the event on the user's primary calendar"),
    invitee: z.object({ name: z.string(), email: z.string() }),
  }),
});

/** The platform's meeting paths take the meeting id, an integer (meeting.json's int64 `meetingId`). */
const videoId = z
  .string()
  .regex(/^\d{1,19}$/, 'video_id is the meeting id: its digits, e.g. 85746065123')
  .describe('the meeting id: its digits, e.g. 85746065123 (an instance UUID is not taken here)');

const UTC = /Z$/;

/** End of a meeting as an ISO instant, from a start (UTC, or local in `tz`) and minutes. */
function window(start: string, tz: string | undefined, minutes: number): { start: string; end: string } {
  if (UTC.test(start)) {
    const s = new Date(start);
    return { start: s.toISOString(), end: new Date(s.getTime() + minutes * 60_000).toISOString() };
  }
  // A local time: the calendar takes it with its time zone, so add minutes without converting.
  const naive = new Date(`${start}Z`);
  const end = new Date(naive.getTime() + minutes * 60_000).toISOString().slice(0, 19);
  return { start, end: `${end}` };
}

export const appointmentInput = z
  .object({
    topic: z.string().trim().min(1).max(200),
    start_time: startTime,
    duration: z.coerce.number().int().min(5).max(480).default(30).describe('minutes'),
    timezone: timezone.describe('IANA time zone of the appointment'),
    invitee: z.object({ name: z.string().trim().min(1).max(128), email: z.string().trim().max(254).email() }),
    funnel: z.string().max(40).nullable().default(null),
    notes: z.string().max(4000).optional(),
  })
  .describe('a meeting plus a calendar event with the invitee');

export const meetingsOps = [
  defineOp({
    group: 'meetings',
    name: 'create_meeting',
    scopes: granular('meeting:write:meeting'),

    rest: [{ method: 'POST', url: '/api/video/events', status: 201 }],
    summary:
      'Creates a meeting on the platform and stores it as an event with its funnel; returns the stored event.',
    kind: 'write',
    creates: true,
    input: newEventInput,
    output: wireEvent,
    run: (ctx, i) => createEvent(ctx, i),
  }),
  defineOp({
    group: 'meetings',
    name: 'list_meetings',
    scopes: granular('meeting:read:list_meetings'),
    summary: "Lists the linked user's meetings on the platform: scheduled, upcoming, live or previous.",
    kind: 'read',
    input: z.object({
      type: z.enum(['scheduled', 'upcoming', 'live', 'previous']).default('upcoming'),
      // The platform takes real calendar dates only (format date).
      from: date.optional().describe('first day, yyyy-mm-dd (a real calendar date)'),
      to: date.optional().describe('last day, yyyy-mm-dd (a real calendar date)'),
      ...paging(300, 30),
    }),
    output: pageSchema(meetingView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ meetings?: PlatformMeeting[]; next_page_token?: string }>({
        method: 'GET',
        path: `/users/${seg(ctx.uid)}/meetings`,
        query: {
          type: i.type === 'previous' ? 'previous_meetings' : i.type,
          page_size: i.limit,
          next_page_token: i.cursor,
          from: i.from,
          to: i.to,
        },
        label: 'MEDIUM',
        group: 'meetings',
      });
      return pageOf((r.data.meetings ?? []).map(meeting), r.data.next_page_token);
    },
  }),
  defineOp({
    group: 'meetings',
    name: 'get_meeting',
    scopes: granular('meeting:read:meeting'),
    summary:
      'Gets one meeting from the platform, with its stored funnel and status when the gateway created it.',
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: meetingView.extend({
      stored: z
        .object({ funnel: z.string().nullable(), status: wireEvent.shape.status })
        .nullable()
        .describe('the stored event when the gateway created this meeting'),
    }),
    async run(ctx, i) {
      const r = await ctx.platform.call<PlatformMeeting>({
        method: 'GET',
        path: `/meetings/${seg(i.video_id)}`,
        label: 'LIGHT',
        group: 'meetings',
      });
      const stored = await ctx.store.getEvent(String(r.data.id));
      return { ...meeting(r.data), stored: stored ? { funnel: stored.funnel, status: stored.status } : null };
    },
  }),
  defineOp({
    group: 'meetings',
    name: 'search_meetings',
    scopes: ['meeting:read:search', 'meeting:read:list_meetings', 'meeting:read'],
    availability: 'hosted_mcp',
    note: 'The platform has no REST meeting search; this uses the hosted MCP search_meetings tool, or filters the meeting list.',
    summary:
      "Searches meetings by words: through the platform's hosted MCP search when available, else by filtering the meeting list (marked in `via`).",
    kind: 'read',
    input: z.object({
      q: z.string().trim().min(1).max(200),
      limit: z.coerce.number().int().min(1).max(100).default(20),
    }),
    output: searchResult,
    async run(ctx, i): Promise<z.output<typeof searchResult>> {
      try {
        const r = await ctx.hostedMcp.callTool('search_meetings', { q: i.q, page_size: i.limit });
        const s = r.structured as
          | { meetings?: { id?: unknown; meeting_id?: unknown; topic?: unknown; start_time?: unknown }[] }
          | undefined;
        // Another server's answer: only strings pass, so the hits keep their declared shape.
        const items = (s?.meetings ?? []).map((m) => ({
          video_id:
            typeof (m.id ?? m.meeting_id) === 'string' || typeof (m.id ?? m.meeting_id) === 'number'
              ? String(m.id ?? m.meeting_id)
              : '',
          topic: typeof m.topic === 'string' ? m.topic : null,
          start_time: typeof m.start_time === 'string' ? m.start_time : null,
        }));
        return { items, via: 'hosted_mcp' as const };
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'hosted_mcp_unavailable') throw err;
      }
      const words = i.q.toLowerCase().split(/\s+/).filter(Boolean);
      const found: ReturnType<typeof meeting>[] = [];
      for (const type of ['upcoming', 'previous_meetings'] as const) {
        const r = await ctx.platform.call<{ meetings?: PlatformMeeting[] }>({
          method: 'GET',
          path: `/users/${seg(ctx.uid)}/meetings`,
          query: { type, page_size: 300 },
          label: 'MEDIUM',
          group: 'meetings',
        });
        for (const m of r.data.meetings ?? []) {
          const hay = `${m.topic} ${m.agenda ?? ''}`.toLowerCase();
          if (words.every((w) => hay.includes(w))) found.push(meeting(m));
        }
      }
      return {
        items: found.slice(0, i.limit),
        via: 'meeting_list_filter' as const,
        note: 'The platform has no REST meeting search; the hosted MCP search was not available, so the meeting list was filtered by topic and agenda.',
      };
    },
  }),
  defineOp({
    group: 'meetings',
    name: 'delete_meeting',
    scopes: granular('meeting:delete:meeting'),
    summary: 'Deletes a meeting on the platform and its stored event, keeping both sides in step.',
    kind: 'delete',
    input: z.object({ video_id: videoId }),
    output: z.object({
      deleted: z.literal(true),
      video_id: z.string(),
      platform: z.enum(['deleted', 'already_gone']).describe('already_gone: only the stored event was left'),
    }),
    async run(ctx, i) {
      if (await ctx.store.getEvent(i.video_id)) return deleteEvent(ctx, i.video_id);
      await ctx.platform.call({
        method: 'DELETE',
        path: `/meetings/${seg(i.video_id)}`,
        label: 'LIGHT',
        group: 'meetings',
      });
      return { deleted: true as const, video_id: i.video_id, platform: 'deleted' as const };
    },
  }),
  defineOp({
    group: 'meetings',
    name: 'create_appointment',
    scopes: granular('meeting:write:meeting'),
    availability: 'composed',
    note: 'The platform cannot book appointments; this creates a meeting plus a calendar event with the invitee.',

    rest: [{ method: 'POST', url: '/api/video/appointments', status: 201 }],
    summary:
      'Books an appointment: a meeting plus a calendar event with the invitee as attendee; if the calendar step fails, the meeting is deleted again and the error says so.',
    kind: 'write',
    creates: true,
    input: appointmentInput,
    output: appointmentView,
    async run(ctx, i): Promise<z.output<typeof appointmentView>> {
      const event = await createEvent(ctx, {
        topic: i.topic,
        start_time: i.start_time,
        timezone: i.timezone,
        duration: i.duration,
        ...(i.notes ? { agenda: i.notes.slice(0, 2000) } : {}),
        funnel: i.funnel,
        registration: false,
      });
      const w = window(i.start_time, i.timezone, i.duration);
      try {
        const cal = await ctx.platform.call<{ id: string; htmlLink?: string }>({
          method: 'POST',
          path: '/calendars/primary/events',
          query: { sendUpdates: 'all' },
          body: {
            summary: i.topic,
            description: [i.notes, event.join_url ? `Join: ${event.join_url}` : undefined]
              .filter(Boolean)
              .join('\n\n'),
            start: { dateTime: w.start, timeZone: i.timezone },
            end: { dateTime: w.end, timeZone: i.timezone },
            attendees: [{ email: i.invitee.email, displayName: i.invitee.name }],
            location: event.join_url ?? undefined,
          },
          label: 'HEAVY',
          group: 'calendar',
        });
        return { appointment: { meeting: event, calendar_event_id: cal.data.id, invitee: i.invitee } };
      } catch (err) {
        let compensated = true;
        try {
          await deleteEvent(ctx, event.video_id);
        } catch {
          compensated = false;
        }
        const cause =
          err instanceof AppError
            ? { code: err.code, message: err.message }
            : { code: 'internal_error', message: 'unexpected failure' };
        throw new AppError(
          502,
          'appointment_failed',
          compensated
            ? 'The calendar event could not be created, so the meeting was deleted again; nothing was booked.'
            : 'The calendar event could not be created, and deleting the meeting again also failed; the meeting still exists.',
          { step: 'calendar_event', compensated, video_id: event.video_id, cause },
        );
      }
    },
  }),
];
