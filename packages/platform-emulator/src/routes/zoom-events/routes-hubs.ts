/** Zoom Events hub routes: the hubs the demo user hosts or attends events of. */
import { q, zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { SCOPES } from './constants.js';
import { hubObject } from './shapes.js';

import type { EventLookups } from './lookups.js';

export function registerHubRoutes(ctx: EmulatorContext, h: EventLookups): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/hubs',
    scopes: SCOPES.hubs,
    label: 'LIGHT',
    handler: (req) => {
      const role = q(req, 'role_type');
      if (role !== 'host' && role !== 'attendee') throw zerr.badParam('role_type');
      const s = h.slice();
      const related = new Set(s.events.filter(h.isAttendee).map((e) => e.hub_id));
      const hubs = s.hubs.filter((hub) =>
        role === 'host' ? hub.host_email.toLowerCase() === h.me() : related.has(hub.hub_id),
      );
      return {
        total_records: hubs.length,
        hubs: hubs.map((hub) => hubObject(hub, ctx.baseUrl)),
      };
    },
  });
}
