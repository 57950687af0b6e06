/** Zoom Events: the record types the emulator keeps in its `zoomEvents` state slice. */
export interface HubRec {
  hub_id: string;
  name: string;
  description: string;
  access_level: 'INTERNAL' | 'PUBLIC';
  slug: string;
  hidden_hub: boolean;
  hub_active: boolean;
  auto_list_events: boolean;
  landing_hub: boolean;
  host_email: string;
}

export interface RecurrenceRec {
  type?: number;
  repeat_interval?: number;
  weekly_days?: number[];
  monthly_days?: number[];
  monthly_week_day?: number;
  monthly_week?: number;
  end_times?: number;
  end_date_time?: string;
  duration?: number;
}

export interface EventRec {
  event_id: string;
  name: string;
  description: string;
  timezone: string;
  event_type: 'SIMPLE_EVENT' | 'CONFERENCE' | 'RECURRING';
  recurrence?: RecurrenceRec;
  access_level: 'PUBLIC' | 'PRIVATE_UNRESTRICTED' | 'PRIVATE_RESTRICTED';
  meeting_type?: 'MEETING' | 'WEBINAR';
  categories: string[];
  tags: string[];
  calendar: { start_time: string; end_time: string }[];
  status: 'PUBLISHED' | 'DRAFT' | 'CANCELLED';
  hub_id: string;
  host_email: string;
  contact_name: string;
  contact_email: string;
  lobby_start_time?: string;
  lobby_end_time?: string;
  blocked_countries: string[];
  attendance_type: 'virtual' | 'in-person' | 'hybrid';
  physical_location?: string;
  tagline: string;
}

export interface SessionRec {
  session_id: string;
  name: string;
  description: string;
  type: 0 | 2 | 4;
  meeting_id?: number;
  webinar_id?: number;
  start_time: string;
  end_time: string;
  timezone: string;
  speakers: { name: string; company: string; title: string }[];
  featured: boolean;
  attendance_type: 'virtual' | 'in-person' | 'hybrid';
  physical_location?: string;
  track_labels: string[];
}

/**
 * One ticket. Seeded tickets carry only the first three fields; tickets made through
 * `POST …/tickets` also keep what was asked with them (the default ticket type is meant when
 * `ticket_type_id` is absent).
 */
export interface EventTicketRec {
  ticket_id: string;
  role: 'ATTENDEE' | 'SPEAKER' | 'ALTERNATIVE_HOST' | 'PANELIST' | 'GUEST';
  authentication_method: 'zoom_account' | 'no_auth' | 'email_opt' | 'zoom_account_otp_at_join';
  ticket_type_id?: string;
  external_ticket_id?: string;
  send_notification?: boolean;
  registration_source?: string;
  /** The configured registration questions' answers (first and last name). */
  first_name?: string;
  last_name?: string;
}

export interface EventRegistrantRec {
  email: string;
  registration_status:
    'REGISTERED' | 'INVITED' | 'GIFTED' | 'DIRECT_JOIN' | 'PRE_REGISTERED' | 'PRE_REGISTER_INVITED';
  tickets: EventTicketRec[];
}

export interface ZoomEventsSlice {
  hubs: HubRec[];
  events: EventRec[];
  sessions: Record<string, SessionRec[]>;
  registrants: Record<string, EventRegistrantRec[]>;
}
