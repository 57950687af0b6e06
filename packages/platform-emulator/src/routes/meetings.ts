/**
 * Meetings: create/list/get/update/delete, upcoming, status, registrants, past meetings and
 * participants, meeting summaries, and the webinar endpoints that answer "plan is missing"
 * while the demo user has no webinar licence. Mutations emit the platform's webhooks. This file
 * registers the module; the records, seed, shapes, body parsing and routes are in meetings/.
 */
import { defineModule } from '../context.js';
import type { MeetingsSlice } from './meetings/records.js';
import { registerMeetingRoutes } from './meetings/routes-meetings.js';
import { registerPastMeetingRoutes } from './meetings/routes-past.js';
import { registerRegistrantRoutes } from './meetings/routes-registrants.js';
import { registerSummaryRoutes } from './meetings/routes-summaries.js';
import { registerWebinarRoutes } from './meetings/routes-webinars.js';
import { seedMeetings } from './meetings/seed.js';

export { findMeeting } from './meetings/records.js';
export type { MeetingRec, MeetingsSlice, RegistrantRec } from './meetings/records.js';
export { meetingObject } from './meetings/shapes.js';

export const meetingsModule = defineModule<MeetingsSlice>({
  name: 'meetings',
  seed: seedMeetings,
  register(ctx) {
    registerMeetingRoutes(ctx);
    registerRegistrantRoutes(ctx);
    registerPastMeetingRoutes(ctx);
    registerSummaryRoutes(ctx);
    registerWebinarRoutes(ctx);
  },
});
