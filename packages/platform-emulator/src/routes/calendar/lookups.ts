/**
 * Calendar lookups and shapes shared by its routes: the calendars and events the demo user can see
 * (with the access role each route needs), sync tokens, the query parameters the lists share, and
 * the calendar-list entry, calendar and event objects.
 */
import { randomBytes } from 'node:crypto';
import { q } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { zoomTime } from '../../time.js';
import { applyTimes } from './event-input.js';
import type { EventInput, TimeInput } from './event-input.js';
import { calErr } from './records.js';
import type { AccessRole, CalendarRec, CalendarSlice, EventRec } from './records.js';
import { eventTz, occurrences, parseIcsStamp } from './recurrence.js';
import { EVENT_ID_ALPHABET } from './seed.js';
import { localParts, rfc3339, ymd } from './time.js';

// ---------------------------------------------------------------------------------------------
// Output shapes.

export const etagOf = (ms: number) => `"${ms}000"`;

export function calendarListEntry(cal: CalendarRec) {
  return {
    kind: 'calendar#calendarListEntry',
    etag: etagOf(Date.parse(cal.created)),
    id: cal.id,
    summary: cal.summary,
    description: cal.description,
    location: cal.location,
    timeZone: cal.timeZone,
    colorId: cal.colorId,
    backgroundColor: cal.backgroundColor,
    foregroundColor: cal.foregroundColor,
    selected: true,
    accessRole: cal.accessRole,
    defaultReminders:
      cal.accessRole === 'owner' || cal.accessRole === 'writer' ? [{ method: 'popup', minutes: 10 }] : [],
    ...(cal.primary
      ? {
          notificationSettings: {
            notifications: [
              { type: 'eventCreation', method: 'email' },
              { type: 'eventChange', method: 'email' },
              { type: 'eventCancellation', method: 'email' },
              { type: 'eventResponse', method: 'email' },
            ],
          },
          primary: true,
        }
      : {}),
  };
}

export interface View {
  ev: EventRec;
  /** Set for one instance of a recurring event. */
  inst?: { startMs: number; id: string };
}

export function renderEvent(ctx: EmulatorContext, cal: CalendarRec, v: View, displayTz?: string) {
  const { ev, inst } = v;
  const tz = eventTz(ev, cal);
  const startMs = inst?.startMs ?? ev.startMs;
  const endMs = startMs + (ev.endMs - ev.startMs);
  const time = (ms: number, zone: string | undefined) => {
    const t: TimeInput = ev.allDay
      ? { date: ymd(localParts(ms, zone ?? tz)) }
      : { dateTime: rfc3339(ms, displayTz ?? zone ?? cal.timeZone) };
    if (zone) t.timeZone = zone;
    return t;
  };
  const start =
    inst || !ev.allDay
      ? time(startMs, ev.startTz)
      : { date: ev.startDate ?? '', ...(ev.startTz ? { timeZone: ev.startTz } : {}) };
  const end =
    inst || !ev.allDay
      ? time(endMs, ev.endTz ?? ev.startTz)
      : { date: ev.endDate ?? '', ...(ev.endTz ? { timeZone: ev.endTz } : {}) };
  const me = ctx.demo.email.toLowerCase();
  const person = (email: string) => ({
    email,
    ...(email === cal.id && !cal.primary ? { displayName: cal.summary } : {}),
    ...(email.toLowerCase() === me ? { self: true } : {}),
  });
  return {
    kind: 'calendar#event',
    etag: etagOf(ev.updatedMs),
    id: inst?.id ?? ev.id,
    status: ev.deleted ? 'cancelled' : ev.status,
    created: ev.created,
    updated: ev.updated,
    summary: ev.summary,
    ...(ev.description !== undefined ? { description: ev.description } : {}),
    ...(ev.location !== undefined ? { location: ev.location } : {}),
    ...(ev.colorId !== undefined ? { colorId: ev.colorId } : {}),
    creator: person(ev.creator),
    organizer: person(ev.organizer),
    start,
    end,
    ...(inst
      ? { recurringEventId: ev.id, originalStartTime: start }
      : ev.recurrence?.length
        ? { recurrence: ev.recurrence }
        : {}),
    transparency: ev.transparency,
    visibility: ev.visibility,
    iCalUID: `${ev.id}@zoom.us`,
    sequence: ev.sequence,
    ...(ev.attendees.length
      ? {
          attendees: ev.attendees.map((a) => ({
            email: a.email,
            ...(a.displayName !== undefined ? { displayName: a.displayName } : {}),
            ...(a.email.toLowerCase() === ev.organizer.toLowerCase() ? { organizer: true } : {}),
            ...(a.email.toLowerCase() === me ? { self: true } : {}),
            ...(a.resource ? { resource: true } : {}),
            ...(a.optional ? { optional: true } : {}),
            responseStatus: a.responseStatus,
            ...(a.additionalGuests ? { additionalGuests: a.additionalGuests } : {}),
          })),
        }
      : {}),
    guestsCanInviteOthers: ev.guestsCanInviteOthers,
    guestsCanModify: ev.guestsCanModify,
    guestsCanSeeOtherGuests: ev.guestsCanSeeOtherGuests,
    reminders: ev.reminders.overrides
      ? { useDefault: ev.reminders.useDefault, overrides: ev.reminders.overrides }
      : { useDefault: ev.reminders.useDefault },
    eventType: 'default',
  };
}

// ---------------------------------------------------------------------------------------------

export const boolParam = (req: EmulatorRequest, name: string): boolean | undefined => {
  const v = q(req, name);
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw calErr.bad([name]);
};

export const ROLE_RANK: Record<AccessRole, number> = { freeBusyReader: 0, reader: 1, writer: 2, owner: 3 };

export const slice = (ctx: EmulatorContext) => ctx.slice<CalendarSlice>('calendar');

export const nowMs = (ctx: EmulatorContext) => ctx.now().getTime();

export const findCal = (ctx: EmulatorContext, calId: string): CalendarRec => {
  const id = calId === 'primary' ? ctx.demo.email : calId;
  const cal = slice(ctx).calendars.find((c) => c.id.toLowerCase() === id.toLowerCase());
  if (!cal) throw calErr.notFound();
  return cal;
};

export const writable = (cal: CalendarRec) => {
  if (cal.accessRole !== 'owner' && cal.accessRole !== 'writer') throw calErr.forbidden();
};

export const checkSendUpdates = (req: EmulatorRequest) => {
  const v = q(req, 'sendUpdates');
  if (v !== undefined && v !== 'all' && v !== 'externalOnly' && v !== 'none')
    throw calErr.bad(['sendUpdates']);
};

export const checkSize = (req: EmulatorRequest) => {
  const v = q(req, 'maxResults');
  if (v !== undefined && v !== '' && !/^[1-9]\d*$/.test(v)) throw calErr.bad(['maxResults']);
};

/** A stored event, or one instance of a recurring one (id `<eventId>_<stamp>`). */
export const findView = (ctx: EmulatorContext, cal: CalendarRec, eventId: string): View => {
  const events = slice(ctx).events.filter((e) => e.calendarId === cal.id && !e.deleted);
  const ev = events.find((e) => e.id === eventId);
  if (ev) return { ev };
  const cut = eventId.lastIndexOf('_');
  const master =
    cut > 0 ? events.find((e) => e.id === eventId.slice(0, cut) && e.recurrence?.length) : undefined;
  if (master) {
    const tz = eventTz(master, cal);
    const ms = parseIcsStamp(eventId.slice(cut + 1), tz);
    if (ms !== undefined && occurrences(master, tz, ms, ms + 1).includes(ms))
      return { ev: master, inst: { startMs: ms, id: eventId } };
  }
  throw calErr.notFound();
};

export const touch = (ctx: EmulatorContext, ev: EventRec) => {
  const t = nowMs(ctx);
  ev.updatedMs = Math.max(t, ev.updatedMs + 1);
  ev.updated = zoomTime(new Date(ev.updatedMs));
};

export const emit = (ctx: EmulatorContext, event: string, cal: CalendarRec, eventId: string) =>
  ctx.webhooks.emit(
    `calendar.${event}`,
    { resource_id: cal.id, event_id: eventId },
    { operator: ctx.demo.email },
  );

export const create = (ctx: EmulatorContext, cal: CalendarRec, f: EventInput): EventRec => {
  const missing = [...(f.start ? [] : ['start']), ...(f.end ? [] : ['end'])];
  if (missing.length) throw calErr.bad(missing);
  const id = [...randomBytes(26)].map((b) => EVENT_ID_ALPHABET[b % 32] ?? 'a').join('');
  const t = nowMs(ctx);
  const organizer = cal.primary ? ctx.demo.email : cal.id;
  const ev: EventRec = {
    id,
    calendarId: cal.id,
    summary: f.summary ?? '',
    description: f.description,
    location: f.location,
    colorId: f.colorId,
    allDay: false,
    startMs: 0,
    endMs: 0,
    attendees: (f.attendees ?? []).map((a) =>
      a.email.toLowerCase() === ctx.demo.email.toLowerCase() ? { ...a, responseStatus: 'accepted' } : a,
    ),
    recurrence: f.recurrence,
    reminders: f.reminders ?? { useDefault: true },
    status: f.status ?? 'confirmed',
    transparency: f.transparency ?? 'opaque',
    visibility: f.visibility ?? 'default',
    guestsCanInviteOthers: f.guestsCanInviteOthers ?? true,
    guestsCanModify: f.guestsCanModify ?? false,
    guestsCanSeeOtherGuests: f.guestsCanSeeOtherGuests ?? true,
    creator: ctx.demo.email,
    organizer,
    created: zoomTime(new Date(t)),
    updated: zoomTime(new Date(t)),
    updatedMs: t,
    sequence: 0,
  };
  applyTimes(ev, f.start as TimeInput, f.end as TimeInput, cal.timeZone);
  slice(ctx).events.push(ev);
  ctx.changed();
  emit(ctx, 'event_create', cal, ev.id);
  return ev;
};
