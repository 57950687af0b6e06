/**
 * Calendar routes for calendars: the user's calendar list (primary and two secondary calendars) and
 * one calendar.
 */
import { p, q } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { CAL_SCOPES, calErr } from './records.js';
import type { AccessRole } from './records.js';
import { slice, findCal, checkSize, etagOf, calendarListEntry, boolParam, ROLE_RANK } from './lookups.js';

export function registerCalendarRoutes(ctx: EmulatorContext): void {
  getUserCalendarList(ctx);
  getCalendar(ctx);
}

function getUserCalendarList(ctx: EmulatorContext): void {
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
      const items = slice(ctx).calendars.filter(
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
        etag: etagOf(Math.max(...slice(ctx).calendars.map((c) => Date.parse(c.created)))),
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
        items: page.items.map(calendarListEntry),
      };
    },
  });
}

function getCalendar(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/calendars/:calId',
    scopes: CAL_SCOPES.calendar,
    label: 'LIGHT',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
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
}
