/**
 * Zoom Events: two hubs (one the demo user hosts, one a colleague hosts where the demo user
 * attends), upcoming, past, draft and cancelled events with sessions and registrants, event
 * creation, and tickets (how attendees are registered, and their list). A created event is a draft, as on the platform (publishing is a separate action the
 * emulator does not offer), so no `zoom_events.event_published` webhook is sent.
 * The pieces live in ./zoom-events/; this module re-exports the public surface.
 */
export type {
  EventRec,
  EventRegistrantRec,
  HubRec,
  RecurrenceRec,
  SessionRec,
  ZoomEventsSlice,
} from './zoom-events/types.js';
export { zoomEventsModule } from './zoom-events/module.js';
