/** Zoom Events event routes: list, get and create events, an event's registrants and sessions. */
import { body, p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { SCOPES, STATUS_TYPES } from './constants.js';
import { endOf, registrantObject, sessionObject, startOf } from './shapes.js';
import type { EventRec } from './types.js';
import { readEvent } from './validation.js';

import type { EventLookups } from './lookups.js';

export function registerEventRoutes(ctx: EmulatorContext, h: EventLookups): void {
  getEvents(ctx, h);
  getEvent(ctx, h);
  postEvent(ctx, h);
  getRegistrants(ctx, h);
  getSessions(ctx, h);
}

function getEvents(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/events',
    scopes: SCOPES.list,
    label: 'LIGHT',
    handler: (req) => {
      const role = q(req, 'role_type') ?? 'attendee';
      if (role !== 'host' && role !== 'attendee') throw zerr.badParam('role_type');
      const status = q(req, 'event_status_type') ?? 'upcoming';
      if (!(STATUS_TYPES as readonly string[]).includes(status)) throw zerr.badParam('event_status_type');
      // "For the ATTENDEE role type, only upcoming and past are valid status types."
      if (role === 'attendee' && status !== 'upcoming' && status !== 'past')
        throw zerr.badParam('event_status_type');
      const now = zoomTime(ctx.now());
      const ended = (e: EventRec) => (endOf(e) ?? '9999') < now;
      const pick: Record<(typeof STATUS_TYPES)[number], (e: EventRec) => boolean> = {
        upcoming: (e) => e.status === 'PUBLISHED' && !ended(e),
        past: (e) => e.status === 'PUBLISHED' && ended(e),
        draft: (e) => e.status === 'DRAFT',
        cancelled: (e) => e.status === 'CANCELLED',
      };
      const filter = pick[status as (typeof STATUS_TYPES)[number]];
      const items = h
        .slice()
        .events.filter((e) => (role === 'host' ? h.isHost(e) : h.isAttendee(e)))
        .filter(filter)
        .sort((a, b) => {
          const x = startOf(a) ?? '9999';
          const y = startOf(b) ?? '9999';
          return status === 'past' ? y.localeCompare(x) : x.localeCompare(y);
        });
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        total_records: page.totalRecords,
        next_page_token: page.nextPageToken,
        events: page.items.map((e) => h.eventObject(e, 'read')),
      };
    },
  });
}

function getEvent(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/events/:eventId',
    scopes: SCOPES.get,
    label: 'LIGHT',
    handler: (req) => {
      const e = h.findEvent(p(req, 'eventId'));
      return { ...h.eventObject(e, 'read'), host_id: h.userIdOf(e.host_email) };
    },
  });
}

function postEvent(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'POST',
    url: '/zoom_events/events',
    scopes: SCOPES.create,
    label: 'LIGHT',
    handler: (req, reply) => {
      const d = readEvent(body(req));
      const hub = h.slice().hubs.find((hub) => hub.hub_id === d.hub_id);
      if (!hub || hub.host_email.toLowerCase() !== h.me())
        throw new ZoomError(403, 26201, 'No permission to create the event under the hub ID.');
      const e: EventRec = {
        event_id: ctx.newId('alnum', 22) as string,
        name: d.name,
        description: d.description,
        timezone: d.timezone,
        event_type: d.event_type,
        ...(d.recurrence ? { recurrence: d.recurrence } : {}),
        access_level: d.access_level,
        ...(d.meeting_type ? { meeting_type: d.meeting_type } : {}),
        categories: d.categories,
        tags: d.tags,
        calendar: d.calendar,
        // Events are created as drafts; publishing is a separate step.
        status: 'DRAFT',
        hub_id: hub.hub_id,
        host_email: ctx.demo.email,
        contact_name: d.contact_name ?? `${ctx.demo.firstName} ${ctx.demo.lastName}`,
        contact_email: ctx.demo.email,
        ...(d.lobby_start_time ? { lobby_start_time: d.lobby_start_time } : {}),
        ...(d.lobby_end_time ? { lobby_end_time: d.lobby_end_time } : {}),
        blocked_countries: d.blocked_countries,
        attendance_type: d.attendance_type,
        ...(d.physical_location ? { physical_location: d.physical_location } : {}),
        tagline: d.tagline,
      };
      const s = h.slice();
      s.events.push(e);
      // A single-session event gets its one session, as the event builder makes it.
      const first = e.calendar[0];
      s.sessions[e.event_id] =
        e.event_type === 'SIMPLE_EVENT' && first
          ? [
              {
                session_id: ctx.newId('alnum', 22) as string,
                name: e.name,
                description: e.description,
                type: e.attendance_type === 'in-person' ? 4 : e.meeting_type === 'WEBINAR' ? 2 : 0,
                start_time: first.start_time,
                end_time: first.end_time,
                timezone: e.timezone,
                speakers: [],
                featured: true,
                attendance_type: e.attendance_type,
                ...(e.physical_location ? { physical_location: e.physical_location } : {}),
                track_labels: [],
              },
            ]
          : [];
      s.registrants[e.event_id] = [];
      ctx.changed();
      return reply.code(201).send(h.eventObject(e, 'create'));
    },
  });
}

function getRegistrants(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/events/:eventId/registrants',
    scopes: SCOPES.registrants,
    label: 'LIGHT',
    handler: (req) => {
      const e = h.hostedEvent(p(req, 'eventId'));
      const items = h.slice().registrants[e.event_id] ?? [];
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        total_records: page.totalRecords,
        next_page_token: page.nextPageToken,
        registrants: page.items.map((r) => registrantObject(r, e.event_id, ctx.baseUrl)),
      };
    },
  });
}

function getSessions(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/events/:eventId/sessions',
    scopes: SCOPES.sessions,
    label: 'LIGHT',
    handler: (req) => {
      const e = h.findEvent(p(req, 'eventId'));
      const items = (h.slice().sessions[e.event_id] ?? [])
        .slice()
        .sort((a, b) => a.start_time.localeCompare(b.start_time));
      return {
        total_records: items.length,
        sessions: items.map((x) => sessionObject(x)),
      };
    },
  });
}
