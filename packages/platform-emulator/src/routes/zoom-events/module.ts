/** Zoom Events: the module definition; registers the event routes, the ticket routes (./tickets.ts), then the hub routes. */
import { defineModule } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { eventLookups } from './lookups.js';
import { registerEventRoutes } from './routes-events.js';
import { registerHubRoutes } from './routes-hubs.js';
import { seedEvents } from './seed.js';
import { registerTicketRoutes } from './tickets.js';
import type { ZoomEventsSlice } from './types.js';

export const zoomEventsModule = defineModule<ZoomEventsSlice>({
  name: 'zoomEvents',
  seed: seedEvents,
  register(ctx: EmulatorContext) {
    const h = eventLookups(ctx);
    registerEventRoutes(ctx, h);
    registerTicketRoutes(ctx, { slice: h.slice, hostedEvent: h.hostedEvent });
    registerHubRoutes(ctx, h);
  },
});
