/**
 * Calendar (the platform's Google-Calendar-like API, camelCase): the demo user's calendar list
 * (primary + two secondary calendars), calendars, events with RFC 3339 time windows, recurring
 * events (RRULE expansion with singleEvents), sync tokens, create / patch / delete and quickAdd.
 * The platform documents no error codes for this product, so errors carry the HTTP status as
 * `code`. Mutations emit calendar.event_create / event_update / event_delete. This file holds the
 * routes and the output shapes; the records, time arithmetic, recurrence, input validation,
 * quickAdd and the seed are in calendar/.
 */
import { randomBytes } from 'node:crypto';
import { body, defineModule, p, q } from '../context.js';
import type { EmulatorContext, EmulatorRequest } from '../context.js';
import { isTimeZone, zoomTime } from '../time.js';
import { applyTimes, readEventInput, timeInputOf } from './calendar/event-input.js';
import type { EventInput, TimeInput } from './calendar/event-input.js';
import { parseQuickAdd } from './calendar/quick-add.js';
import { CAL_SCOPES, calErr } from './calendar/records.js';
import type { AccessRole, CalendarRec, CalendarSlice, EventRec } from './calendar/records.js';
import { eventTz, occurrences, parseIcsStamp, stampOf } from './calendar/recurrence.js';
import { EVENT_ID_ALPHABET, seedCalendar } from './calendar/seed.js';
import { DAY, localParts, parseRfc3339, rfc3339, ymd } from './calendar/time.js';

// ---------------------------------------------------------------------------------------------
// Output shapes.

const etagOf = (ms: number) => `"${ms}000"`;

function calendarListEntry(cal: CalendarRec) {
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

interface View {
  ev: EventRec;
  /** Set for one instance of a recurring event. */
  inst?: { startMs: number; id: string };
}

function renderEvent(ctx: EmulatorContext, cal: CalendarRec, v: View, displayTz?: string) {
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

const boolParam = (req: EmulatorRequest, name: string): boolean | undefined => {
  const v = q(req, name);
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw calErr.bad([name]);
};

const ROLE_RANK: Record<AccessRole, number> = { freeBusyReader: 0, reader: 1, writer: 2, owner: 3 };

export const calendarModule = defineModule<CalendarSlice>({
  name: 'calendar',
  seed: seedCalendar,
  register(ctx) {
    const slice = () => ctx.slice<CalendarSlice>('calendar');
    const nowMs = () => ctx.now().getTime();

    const findCal = (calId: string): CalendarRec => {
      const id = calId === 'primary' ? ctx.demo.email : calId;
      const cal = slice().calendars.find((c) => c.id.toLowerCase() === id.toLowerCase());
      if (!cal) throw calErr.notFound();
      return cal;
    };
    const writable = (cal: CalendarRec) => {
      if (cal.accessRole !== 'owner' && cal.accessRole !== 'writer') throw calErr.forbidden();
    };
    const checkSendUpdates = (req: EmulatorRequest) => {
      const v = q(req, 'sendUpdates');
      if (v !== undefined && v !== 'all' && v !== 'externalOnly' && v !== 'none')
        throw calErr.bad(['sendUpdates']);
    };
    const checkSize = (req: EmulatorRequest) => {
      const v = q(req, 'maxResults');
      if (v !== undefined && v !== '' && !/^[1-9]\d*$/.test(v)) throw calErr.bad(['maxResults']);
    };
    /** A stored event, or one instance of a recurring one (id `<eventId>_<stamp>`). */
    const findView = (cal: CalendarRec, eventId: string): View => {
      const events = slice().events.filter((e) => e.calendarId === cal.id && !e.deleted);
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
    const touch = (ev: EventRec) => {
      const t = nowMs();
      ev.updatedMs = Math.max(t, ev.updatedMs + 1);
      ev.updated = zoomTime(new Date(ev.updatedMs));
    };
    const emit = (event: string, cal: CalendarRec, eventId: string) =>
      ctx.webhooks.emit(
        `calendar.${event}`,
        { resource_id: cal.id, event_id: eventId },
        { operator: ctx.demo.email },
      );

    ctx.route({
      method: 'GET',
      url: '/calendars/users/:userIdentifier/calendarList',
      scopes: CAL_SCOPES.calendarList,
      label: 'HEAVY',
      handler: (req) => {
        try {
          ctx.user(req, p(req, 'userIdentifier'));
        } catch {
          throw calErr.notFound();
        }
        checkSize(req);
        const min = q(req, 'minAccessRole');
        if (min !== undefined && !(min in ROLE_RANK)) throw calErr.bad(['minAccessRole']);
        boolParam(req, 'showDeleted');
        boolParam(req, 'showHidden');
        const items = slice().calendars.filter(
          (c) => min === undefined || ROLE_RANK[c.accessRole] >= ROLE_RANK[min as AccessRole],
        );
        const page = ctx.paginate(req, items, {
          defaultSize: 100,
          maxSize: 250,
          tokenParam: 'pageToken',
          sizeParam: 'maxResults',
        });
        return {
          kind: 'calendar#calendarList',
          etag: etagOf(Math.max(...slice().calendars.map((c) => Date.parse(c.created)))),
          ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
          items: page.items.map(calendarListEntry),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId',
      scopes: CAL_SCOPES.calendar,
      label: 'LIGHT',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        return {
          kind: 'calendar#calendar',
          etag: etagOf(Date.parse(cal.created)),
          id: cal.id,
          summary: cal.summary,
          description: cal.description,
          location: cal.location,
          timeZone: cal.timeZone,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId/events',
      scopes: CAL_SCOPES.listEvents,
      label: 'MEDIUM',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSize(req);
        const errors: string[] = [];
        const tz = q(req, 'timeZone');
        if (tz !== undefined && !isTimeZone(tz)) errors.push('timeZone');
        const rawMin = q(req, 'timeMin');
        const rawMax = q(req, 'timeMax');
        const timeMin = rawMin === undefined ? undefined : parseRfc3339(rawMin);
        const timeMax = rawMax === undefined ? undefined : parseRfc3339(rawMax);
        if (rawMin !== undefined && timeMin === undefined) errors.push('timeMin');
        if (rawMax !== undefined && timeMax === undefined) errors.push('timeMax');
        if (timeMin !== undefined && timeMax !== undefined && timeMin >= timeMax) errors.push('timeMax');
        const orderBy = q(req, 'orderBy');
        if (orderBy !== undefined && orderBy !== 'startTime' && orderBy !== 'updated') errors.push('orderBy');
        const sync = q(req, 'syncToken');
        let since: number | undefined;
        if (sync !== undefined) {
          const decoded = Buffer.from(sync, 'base64').toString('utf8');
          if (/^\d{10,16}$/.test(decoded)) since = Number(decoded);
          else errors.push('syncToken');
        }
        if (errors.length) throw calErr.bad(errors);
        const single = boolParam(req, 'singleEvents') ?? false;
        const showDeleted = (boolParam(req, 'showDeleted') ?? false) || since !== undefined;

        const from = timeMin ?? -8.64e15;
        const to = timeMax ?? 8.64e15;
        const horizon = (ev: EventRec) => Math.min(to, Math.max(nowMs(), ev.startMs) + 366 * DAY);
        const views: View[] = [];
        for (const ev of slice().events) {
          if (ev.calendarId !== cal.id) continue;
          if (since !== undefined && ev.updatedMs <= since) continue;
          if ((ev.deleted || ev.status === 'cancelled') && !showDeleted) continue;
          const etz = eventTz(ev, cal);
          if (ev.recurrence?.length) {
            const occ = occurrences(ev, etz, from, horizon(ev));
            if (single)
              for (const ms of occ)
                views.push({ ev, inst: { startMs: ms, id: `${ev.id}_${stampOf(ev, ms, etz)}` } });
            else if (occ.length || (ev.deleted && since !== undefined)) views.push({ ev });
          } else if ((ev.endMs > from || ev.startMs >= from) && ev.startMs < to) views.push({ ev });
        }
        const startOf = (v: View) => v.inst?.startMs ?? v.ev.startMs;
        views.sort((a, b) =>
          orderBy === 'updated'
            ? a.ev.updatedMs - b.ev.updatedMs || startOf(a) - startOf(b)
            : startOf(a) - startOf(b) || a.ev.id.localeCompare(b.ev.id),
        );
        const page = ctx.paginate(req, views, {
          defaultSize: 250,
          maxSize: 2500,
          tokenParam: 'pageToken',
          sizeParam: 'maxResults',
        });
        const updated = Math.max(
          Date.parse(cal.created),
          ...slice()
            .events.filter((e) => e.calendarId === cal.id)
            .map((e) => e.updatedMs),
        );
        return {
          kind: 'calendar#events',
          etag: etagOf(updated),
          summary: cal.summary,
          updated: zoomTime(new Date(updated)),
          timeZone: tz ?? cal.timeZone,
          accessRole: cal.accessRole,
          defaultReminders: [{ method: 'popup', minutes: 10 }],
          ...(page.nextPageToken
            ? { nextPageToken: page.nextPageToken }
            : { nextSyncToken: Buffer.from(String(nowMs())).toString('base64') }),
          items: page.items.map((v) => renderEvent(ctx, cal, v, tz)),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.getEvent,
      label: 'LIGHT',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        const tz = q(req, 'timeZone');
        if (tz !== undefined && !isTimeZone(tz)) throw calErr.bad(['timeZone']);
        return renderEvent(ctx, cal, findView(cal, p(req, 'eventId')), tz);
      },
    });

    const create = (cal: CalendarRec, f: EventInput): EventRec => {
      const missing = [...(f.start ? [] : ['start']), ...(f.end ? [] : ['end'])];
      if (missing.length) throw calErr.bad(missing);
      const id = [...randomBytes(26)].map((b) => EVENT_ID_ALPHABET[b % 32] ?? 'a').join('');
      const t = nowMs();
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
      slice().events.push(ev);
      ctx.changed();
      emit('event_create', cal, ev.id);
      return ev;
    };

    ctx.route({
      method: 'POST',
      url: '/calendars/:calId/events',
      scopes: CAL_SCOPES.createEvent,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        writable(cal);
        const ev = create(cal, readEventInput(body(req)));
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'POST',
      url: '/calendars/:calId/events/quickAdd',
      scopes: CAL_SCOPES.quickAdd,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const text = q(req, 'text');
        if (text === undefined || text.trim() === '' || text.length > 1024) throw calErr.bad(['text']);
        writable(cal);
        const parsed = parseQuickAdd(text, ctx.now(), cal.timeZone);
        const ev = create(cal, {
          summary: parsed.summary,
          ...(parsed.location ? { location: parsed.location } : {}),
          start: parsed.start,
          end: parsed.end,
          attendees: parsed.attendees.map((email) => ({ email, responseStatus: 'needsAction' })),
        });
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'PATCH',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.updateEvent,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const v = findView(cal, p(req, 'eventId'));
        if (v.inst) throw calErr.notFound();
        writable(cal);
        const ev = v.ev;
        const f = readEventInput(body(req));
        if (f.start || f.end || f.recurrence) {
          const before = [ev.startMs, ev.endMs, ev.allDay];
          const probe: EventRec = { ...ev, recurrence: f.recurrence ?? ev.recurrence };
          applyTimes(
            probe,
            f.start ?? timeInputOf(ev, 'start', cal.timeZone),
            f.end ?? timeInputOf(ev, 'end', cal.timeZone),
            cal.timeZone,
          );
          Object.assign(ev, {
            allDay: probe.allDay,
            startDate: probe.startDate,
            endDate: probe.endDate,
            startTz: probe.startTz,
            endTz: probe.endTz,
            startMs: probe.startMs,
            endMs: probe.endMs,
            recurrence: probe.recurrence,
          });
          if (before[0] !== ev.startMs || before[1] !== ev.endMs || before[2] !== ev.allDay) ev.sequence += 1;
        }
        if (f.summary !== undefined) ev.summary = f.summary;
        if (f.description !== undefined) ev.description = f.description;
        if (f.location !== undefined) ev.location = f.location;
        if (f.colorId !== undefined) ev.colorId = f.colorId;
        if (f.attendees) {
          const old = new Map(ev.attendees.map((a) => [a.email.toLowerCase(), a]));
          ev.attendees = f.attendees.map((a) => {
            const prev = old.get(a.email.toLowerCase());
            // An attendee's answer survives a patch that does not set it.
            return prev && a.responseStatus === 'needsAction'
              ? { ...a, responseStatus: prev.responseStatus }
              : a;
          });
        }
        if (f.reminders) ev.reminders = f.reminders;
        if (f.status) ev.status = f.status;
        if (f.transparency) ev.transparency = f.transparency;
        if (f.visibility) ev.visibility = f.visibility;
        if (f.guestsCanInviteOthers !== undefined) ev.guestsCanInviteOthers = f.guestsCanInviteOthers;
        if (f.guestsCanModify !== undefined) ev.guestsCanModify = f.guestsCanModify;
        if (f.guestsCanSeeOtherGuests !== undefined) ev.guestsCanSeeOtherGuests = f.guestsCanSeeOtherGuests;
        touch(ev);
        ctx.changed();
        emit('event_update', cal, ev.id);
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.deleteEvent,
      label: 'HEAVY',
      handler: (req, reply) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const v = findView(cal, p(req, 'eventId'));
        writable(cal);
        if (v.inst) {
          // Deleting one instance of a series excludes that date from the series.
          v.ev.recurrence = [
            ...(v.ev.recurrence ?? []),
            `EXDATE:${new Date(v.inst.startMs).toISOString().replace(/[-:]|\.\d{3}/g, '')}`,
          ];
        } else {
          v.ev.deleted = true;
          v.ev.status = 'cancelled';
        }
        touch(v.ev);
        ctx.changed();
        emit('event_delete', cal, v.inst?.id ?? v.ev.id);
        return reply.code(204).send();
      },
    });
  },
});
