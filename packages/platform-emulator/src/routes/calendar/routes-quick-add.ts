/**
 * The calendar's quickAdd route: an event from one line of text (calendar/quick-add.ts), emitting
 * calendar.event_create.
 */
import { p, q } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { parseQuickAdd } from './quick-add.js';
import { CAL_SCOPES, calErr } from './records.js';
import { findCal, writable, checkSendUpdates, create, renderEvent } from './lookups.js';

export function registerQuickAddRoute(ctx: EmulatorContext): void {
  postQuickAdd(ctx);
}

function postQuickAdd(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/calendars/:calId/events/quickAdd',
    scopes: CAL_SCOPES.quickAdd,
    label: 'HEAVY',
    handler: (req) => {
      const cal = findCal(ctx, p(req, 'calId'));
      checkSendUpdates(req);
      const text = q(req, 'text');
      if (text === undefined || text.trim() === '' || text.length > 1024) throw calErr.bad(['text']);
      writable(cal);
      const parsed = parseQuickAdd(text, ctx.now(), cal.timeZone);
      const ev = create(ctx, cal, {
        summary: parsed.summary,
        ...(parsed.location ? { location: parsed.location } : {}),
        start: parsed.start,
        end: parsed.end,
        attendees: parsed.attendees.map((email) => ({ email, responseStatus: 'needsAction' })),
      });
      return renderEvent(ctx, cal, { ev });
    },
  });
}
