/** Zoom Events: wire mappers turning the stored records into API response objects. */
import type { EventRec, EventRegistrantRec, EventTicketRec, HubRec, SessionRec } from './types.js';

export const startOf = (e: EventRec) => e.calendar[0]?.start_time;
export const endOf = (e: EventRec) =>
  e.calendar.reduce<string | undefined>(
    (m, c) => (m === undefined || c.end_time > m ? c.end_time : m),
    undefined,
  );

/** The event object; `recurrence` as the reads document it (weekly_days a string, monthly_days one day). */
export const eventObject = (e: EventRec, form: 'read' | 'create', baseUrl: string) => {
  const start = startOf(e);
  const end = endOf(e);
  let recurrence: Record<string, unknown> | undefined;
  if (e.recurrence) {
    const { weekly_days, monthly_days, ...rest } = e.recurrence;
    recurrence =
      form === 'create'
        ? { ...e.recurrence }
        : {
            ...rest,
            ...(weekly_days ? { weekly_days: weekly_days.join(',') } : {}),
            ...(monthly_days?.[0] !== undefined ? { monthly_days: monthly_days[0] } : {}),
          };
  }
  return {
    event_id: e.event_id,
    name: e.name,
    description: e.description,
    timezone: e.timezone,
    event_type: e.event_type,
    ...(recurrence ? { recurrence } : {}),
    access_level: e.access_level,
    ...(e.meeting_type ? { meeting_type: e.meeting_type } : {}),
    categories: e.categories,
    tags: e.tags,
    calendar: e.calendar,
    status: e.status,
    hub_id: e.hub_id,
    ...(start ? { start_time: start } : {}),
    ...(end ? { end_time: end } : {}),
    contact_name: e.contact_name,
    contact_email: e.contact_email,
    ...(e.lobby_start_time ? { lobby_start_time: e.lobby_start_time } : {}),
    ...(e.lobby_end_time ? { lobby_end_time: e.lobby_end_time } : {}),
    event_url: `${baseUrl}/ev/${e.event_id}`,
    blocked_countries: e.blocked_countries,
    attendance_type: e.attendance_type,
    ...(e.physical_location ? { physical_location: e.physical_location } : {}),
    tagline: e.tagline,
  };
};

/** Where a ticket's e-badge QR code image is. */
export const qrCodeUrl = (baseUrl: string, eventId: string, ticketId: string) =>
  `${baseUrl}/ev/${eventId}/ticket/${ticketId}/qr.png`;

/** A registrant with its tickets' QR code links. */
export const registrantObject = (r: EventRegistrantRec, eventId: string, baseUrl: string) => ({
  email: r.email,
  registration_status: r.registration_status,
  tickets: r.tickets.map((t) => ({
    ticket_id: t.ticket_id,
    role: t.role,
    authentication_method: t.authentication_method,
    qr_code_url: qrCodeUrl(baseUrl, eventId, t.ticket_id),
  })),
});

/** The documented ticket role type of a registrant's ticket role. */
const ROLE_TYPES: Record<EventTicketRec['role'], string> = {
  ATTENDEE: 'normal',
  GUEST: 'normal',
  SPEAKER: 'speaker',
  ALTERNATIVE_HOST: 'alternative_host',
  PANELIST: 'panelist',
};

/** Only hybrid and in-person events give e-badges. */
export const hasBadge = (e: EventRec) => e.attendance_type !== 'virtual';
export const joinLink = (baseUrl: string, ticketId: string) => `${baseUrl}/ejl/${ticketId}`;
export const registrationLink = (baseUrl: string, ticketId: string) => `${baseUrl}/etr/${ticketId}`;

/** A ticket as the tickets list returns it; `ticketTypeId` is the event's default type. */
export const ticketObject = (
  e: EventRec,
  email: string,
  t: EventTicketRec,
  ticketTypeId: string,
  baseUrl: string,
) => ({
  ticket_id: t.ticket_id,
  ticket_type_id: t.ticket_type_id ?? ticketTypeId,
  ...(t.external_ticket_id !== undefined ? { external_ticket_id: t.external_ticket_id } : {}),
  event_join_link: joinLink(baseUrl, t.ticket_id),
  send_notification: t.send_notification ?? false,
  email,
  ticket_role_type: ROLE_TYPES[t.role],
  ...(t.registration_source !== undefined ? { registration_source: t.registration_source } : {}),
  authentication_method: t.authentication_method,
  ...(hasBadge(e) ? { qr_code_url: qrCodeUrl(baseUrl, e.event_id, t.ticket_id) } : {}),
  ...(t.first_name !== undefined ? { first_name: t.first_name } : {}),
  ...(t.last_name !== undefined ? { last_name: t.last_name } : {}),
});

/** A session as the sessions list returns it. */
export const sessionObject = (x: SessionRec) => ({
  session_id: x.session_id,
  name: x.name,
  description: x.description,
  type: x.type,
  ...(x.meeting_id !== undefined ? { meeting_id: x.meeting_id } : {}),
  ...(x.webinar_id !== undefined ? { webinar_id: x.webinar_id } : {}),
  start_time: x.start_time,
  end_time: x.end_time,
  timezone: x.timezone,
  session_speakers: x.speakers.map((sp, i) => ({
    speaker_id: `${x.session_id.slice(0, 12)}sp${i}`,
    name: sp.name,
    company: sp.company,
    title: sp.title,
    access_to_edit_session: false,
    show_in_session_detail: true,
    has_alternative_host_permission: false,
    meeting_role: x.type === 2 ? 2 : 1,
  })),
  featured: x.featured,
  visible_in_landing_page: true,
  featured_in_lobby: x.featured,
  visible_in_lobby: true,
  is_simulive: false,
  chat_channel: true,
  led_by_sponsor: false,
  track_labels: x.track_labels,
  audience_labels: [],
  product_labels: [],
  level: [],
  alternative_host: [],
  panelist: [],
  interpreter_languages: [],
  sign_interpreter_languages: [],
  attendance_type: x.attendance_type,
  ...(x.physical_location ? { physical_location: x.physical_location } : {}),
  session_reservation: { allow_reservations: false, max_capacity: 0 },
});

/** A hub as the hubs list returns it. */
export const hubObject = (h: HubRec, baseUrl: string) => ({
  hub_id: h.hub_id,
  access_level: h.access_level,
  name: h.name,
  description: h.description,
  public_url: `${baseUrl}/eh/${h.slug}`,
  hidden_hub: h.hidden_hub,
  hub_active: h.hub_active,
  auto_list_events: h.auto_list_events,
  landing_hub: h.landing_hub,
});
