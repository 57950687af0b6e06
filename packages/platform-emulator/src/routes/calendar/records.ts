/**
 * The calendar emulator's records (calendars, events, attendees), the scopes each operation
 * accepts, and its errors: the platform documents no calendar error codes, so the HTTP status is
 * the code.
 */
import { ZoomError } from '../../context.js';

export type AccessRole = 'freeBusyReader' | 'reader' | 'writer' | 'owner';
export type ResponseStatus = 'needsAction' | 'declined' | 'tentative' | 'accepted';
export type EventStatus = 'confirmed' | 'tentative' | 'cancelled';

export interface CalendarRec {
  id: string;
  summary: string;
  description: string;
  location: string;
  timeZone: string;
  colorId: string;
  backgroundColor: string;
  foregroundColor: string;
  accessRole: AccessRole;
  primary: boolean;
  created: string;
}

export interface Attendee {
  email: string;
  displayName?: string | undefined;
  optional?: boolean | undefined;
  resource?: boolean | undefined;
  responseStatus: ResponseStatus;
  additionalGuests?: number | undefined;
}

export interface Reminders {
  useDefault: boolean;
  overrides?: { method: 'email' | 'popup'; minutes: number }[] | undefined;
}

export interface EventRec {
  id: string;
  calendarId: string;
  summary: string;
  description?: string | undefined;
  location?: string | undefined;
  colorId?: string | undefined;
  /** All-day events keep their dates; timed events keep instants. Both keep the instants for filtering. */
  allDay: boolean;
  startDate?: string | undefined;
  endDate?: string | undefined;
  startTz?: string | undefined;
  endTz?: string | undefined;
  startMs: number;
  endMs: number;
  attendees: Attendee[];
  recurrence?: string[] | undefined;
  reminders: Reminders;
  status: EventStatus;
  transparency: 'opaque' | 'transparent';
  visibility: 'default' | 'public' | 'private';
  guestsCanInviteOthers: boolean;
  guestsCanModify: boolean;
  guestsCanSeeOtherGuests: boolean;
  creator: string;
  organizer: string;
  created: string;
  updated: string;
  updatedMs: number;
  sequence: number;
  deleted?: boolean | undefined;
}

export interface CalendarSlice {
  calendars: CalendarRec[];
  events: EventRec[];
}

export const CAL_SCOPES = {
  calendarList: ['calendar:read:list_calendar_lists', 'calendar:read', 'calendar:read:admin'],
  calendar: [
    'calendar:read:calendar',
    'calendar:read:calendar:admin',
    'calendar:read',
    'calendar:read:admin',
  ],
  listEvents: [
    'calendar:read:list_events',
    'calendar:read:list_events:admin',
    'calendar:read',
    'calendar:read:admin',
  ],
  getEvent: ['calendar:read:event', 'calendar:read:event:admin', 'calendar:read', 'calendar:read:admin'],
  createEvent: [
    'calendar:write:event',
    'calendar:write:event:admin',
    'calendar:write',
    'calendar:write:admin',
  ],
  updateEvent: [
    'calendar:update:event',
    'calendar:update:event:admin',
    'calendar:write',
    'calendar:write:admin',
  ],
  deleteEvent: [
    'calendar:delete:event',
    'calendar:delete:event:admin',
    'calendar:write',
    'calendar:write:admin',
  ],
  quickAdd: [
    'calendar:write:quick_add_event',
    'calendar:write:quick_add_event:admin',
    'calendar:write',
    'calendar:write:admin',
  ],
};

/** The platform documents no calendar error codes: the HTTP status is the code. */
export const calErr = {
  notFound: () => new ZoomError(404, 404, 'Not Found.'),
  forbidden: () => new ZoomError(403, 403, 'Forbidden.'),
  bad: (fields: string[]) =>
    new ZoomError(
      400,
      400,
      'Bad Request.',
      {},
      fields.map((field) => ({ field, message: 'Invalid field.' })),
    ),
};
