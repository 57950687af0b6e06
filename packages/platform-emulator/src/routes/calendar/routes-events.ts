/**
 * Calendar event routes: list (RFC 3339 windows, recurring events expanded with singleEvents, sync
 * tokens), get, create, patch and delete; mutations emit calendar.event_create / event_update /
 * event_delete.
 */
import { body, p, q } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { isTimeZone, zoomTime } from '../../time.js';
import { applyTimes, readEventInput, timeInputOf } from './event-input.js';
import { CAL_SCOPES, calErr } from './records.js';
import type { EventRec } from './records.js';
import { eventTz, occurrences, stampOf } from './recurrence.js';
import { DAY, parseRfc3339 } from './time.js';
import {
  slice,
  nowMs,
  findCal,
  writable,
  checkSendUpdates,
  checkSize,
  findView,
  touch,
  emit,
  create,
  etagOf,
  type View,
  renderEvent,
  boolParam,
} from './lookups.js';

export function registerEventRoutes(ctx: EmulatorContext): void {
  getCalendarEvents(ctx);
  getCalendarEvent(ctx);
  postCalendarEvent(ctx);
  patchCalendarEvent(ctx);
  deleteCalendarEvent(ctx);
}

function getCalendarEvents(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/calendars/:calId/events',
    scopes: CAL_SCOPES.listEvents,
    label: 'MEDIUM',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
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
      const horizon = (ev: EventRec) => Math.min(to, Math.max(nowMs(ctx), ev.startMs) + 366 * DAY);
      const views: View[] = [];
      for (const ev of slice(ctx).events) {
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
        ...slice(ctx)
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
          : { nextSyncToken: Buffer.from(String(nowMs(ctx))).toString('base64') }),
        items: page.items.map((v) => renderEvent(ctx, cal, v, tz)),
      };
    },
  });
}

function getCalendarEvent(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/calendars/:calId/events/:eventId',
    scopes: CAL_SCOPES.getEvent,
    label: 'LIGHT',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
      const tz = q(req, 'timeZone');
      if (tz !== undefined && !isTimeZone(tz)) throw calErr.bad(['timeZone']);
      return renderEvent(ctx, cal, findView(ctx, cal, p(req, 'eventId')), tz);
    },
  });
}

function postCalendarEvent(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/calendars/:calId/events',
    scopes: CAL_SCOPES.createEvent,
    label: 'HEAVY',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
      checkSendUpdates(req);
      writable(cal);
      const ev = create(ctx, cal, readEventInput(body(req)));
      return renderEvent(ctx, cal, { ev });
    },
  });
}

function patchCalendarEvent(ctx: EmulatorContext): void {
  ctx.route({
    method: 'PATCH',
    url: '/calendars/:calId/events/:eventId',
    scopes: CAL_SCOPES.updateEvent,
    label: 'HEAVY',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
      checkSendUpdates(req);
      const v = findView(ctx, cal, p(req, 'eventId'));
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
      touch(ctx, ev);
      ctx.changed();
      emit(ctx, 'event_update', cal, ev.id);
      return renderEvent(ctx, cal, { ev });
    },
  });
}

function deleteCalendarEvent(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/calendars/:calId/events/:eventId',
    scopes: CAL_SCOPES.deleteEvent,
    label: 'HEAVY',
    handler: (req, reply) => {
      const cal = findCal(ctx, p(req, 'calId'));
      checkSendUpdates(req);
      const v = findView(ctx, cal, p(req, 'eventId'));
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
      touch(ctx, v.ev);
      ctx.changed();
      emit(ctx, 'event_delete', cal, v.inst?.id ?? v.ev.id);
      return reply.code(204).send();
    },
  });
}
