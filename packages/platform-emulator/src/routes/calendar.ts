/**
 * Calendar (the platform's Google-Calendar-like API, camelCase): the demo user's calendar list
 * (primary + two secondary calendars), calendars, events with RFC 3339 time windows, recurring
 * events (RRULE expansion with singleEvents), sync tokens, create / patch / delete and quickAdd.
 * The platform documents no error codes for this product, so errors carry the HTTP status as
 * `code`. Mutations emit calendar.event_create / event_update / event_delete. This file registers the
 * module; the records, time arithmetic, recurrence, input validation, quickAdd, the seed, the
 * lookups and output shapes, and the routes of each resource are in calendar/.
 */
import { defineModule } from '../context.js';
import type { CalendarSlice } from './calendar/records.js';
import { seedCalendar } from './calendar/seed.js';
import { registerCalendarRoutes } from './calendar/routes-calendars.js';
import { registerEventRoutes } from './calendar/routes-events.js';
import { registerQuickAddRoute } from './calendar/routes-quick-add.js';

export const calendarModule = defineModule<CalendarSlice>({
  name: 'calendar',
  seed: seedCalendar,
  register(ctx) {
    registerCalendarRoutes(ctx);
    registerEventRoutes(ctx);
    registerQuickAddRoute(ctx);
  },
});
