/** Zoom Events: route scopes, enum values and shared errors/patterns used by validation and routes. */
import { ZoomError } from '../../context.js';

export const SCOPES = {
  list: [
    'zoom_events:read:list_events',
    'zoom_events:read:list_events:admin',
    'zoom_events_basic:read',
    'zoom_events_basic:read:admin',
  ],
  get: [
    'zoom_events:read:event',
    'zoom_events:read:event:admin',
    'zoom_events_basic:read',
    'zoom_events_basic:read:admin',
  ],
  create: [
    'zoom_events:write:event',
    'zoom_events:write:event:admin',
    'zoom_events_basic:write',
    'zoom_events_basic:write:admin',
  ],
  registrants: [
    'zoom_events:read:list_registrants',
    'zoom_events:read:list_registrants:admin',
    'zoom_events_registrants:read',
    'zoom_events_registrants:read:admin',
  ],
  sessions: [
    'zoom_events:read:list_sessions',
    'zoom_events:read:list_sessions:admin',
    'zoom_events_sessions:read',
    'zoom_events_sessions:read:admin',
  ],
  createTickets: [
    'zoom_events:write:ticket',
    'zoom_events:write:ticket:admin',
    'zoom_events_tickets:write',
    'zoom_events_tickets:write:admin',
  ],
  tickets: [
    'zoom_events:read:list_tickets',
    'zoom_events:read:list_tickets:admin',
    'zoom_events_tickets:read',
    'zoom_events_tickets:read:admin',
  ],
  hubs: [
    'zoom_events:read:list_hubs',
    'zoom_events:read:list_hubs:admin',
    'zoom_events_hubs:read',
    'zoom_events_hubs:read:admin',
  ],
};

export const EVENT_TYPES = ['SIMPLE_EVENT', 'CONFERENCE', 'RECURRING'] as const;
export const ACCESS_LEVELS = ['PUBLIC', 'PRIVATE_UNRESTRICTED', 'PRIVATE_RESTRICTED'] as const;
export const ATTENDANCE = ['virtual', 'in-person', 'hybrid'] as const;
export const CATEGORIES = [
  'Education & Family',
  'Business & Networking',
  'Entertainment & Visual Arts',
  'Food & Drink',
  'Fitness & Health',
  'Home & Lifestyle',
  'Community & Spirituality',
  'Other',
];
export const STATUS_TYPES = ['upcoming', 'past', 'draft', 'cancelled'] as const;

export const eventNotFound = () => new ZoomError(404, 2002, 'Event not found.');
export const UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
