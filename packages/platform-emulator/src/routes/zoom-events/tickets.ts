/**
 * Zoom Events tickets: how attendees are registered (`POST /zoom_events/events/{eventId}/tickets`,
 * the pre-registration flow, up to 30 at once) and the tickets list. Only the event's host may
 * do either. A batch is answered 201 with the tickets made and, per ticket that was not, an
 * `errors` entry (bad email, unknown ticket type, sales over); a made ticket joins the event's
 * registrants as PRE_REGISTERED (PRE_REGISTER_INVITED when the attendee still fills in the form).
 */
import { createHash } from 'node:crypto';
import { body, p, q, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { SCOPES } from './constants.js';
import { endOf, hasBadge, joinLink, qrCodeUrl, registrationLink, ticketObject } from './shapes.js';
import { readTicketBatch, readValidationLevel } from './ticket-validation.js';
import type { EventRec, EventTicketRec, ZoomEventsSlice } from './types.js';

const EMAIL_MAX = 128;
const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Every event has one default ticket type; its id is derived, so seeded events need no record. */
export const defaultTicketType = (eventId: string) =>
  createHash('sha256').update(`ticket-type:${eventId}`).digest('base64url').slice(0, 20);

interface TicketFailure {
  email?: string;
  error_code:
    'email_not_found' | 'ticket_type_notfound' | 'invalid_sale_time' | 'fast_join_with_registrationNeeded';
  message: string;
}

/** What the ticket routes need of the event routes' lookups. */
interface TicketDeps {
  slice: () => ZoomEventsSlice;
  hostedEvent: (id: string) => EventRec;
}

export function registerTicketRoutes(ctx: EmulatorContext, d: TicketDeps): void {
  postTickets(ctx, d);
  getTickets(ctx, d);
}

function postTickets(ctx: EmulatorContext, d: TicketDeps): void {
  ctx.route({
    method: 'POST',
    url: '/zoom_events/events/:eventId/tickets',
    scopes: SCOPES.createTickets,
    label: 'LIGHT',
    handler: (req, reply) => {
      const e = d.hostedEvent(p(req, 'eventId'));
      const batch = readTicketBatch(body(req), readValidationLevel(q(req, 'validation_level')));
      if (e.status !== 'PUBLISHED') throw new ZoomError(400, 26501, 'Event is not published yet.');
      const typeId = defaultTicketType(e.event_id);
      // Tickets are sold until the event ends.
      const salesOver = (endOf(e) ?? '9999') < zoomTime(ctx.now());
      const registrants = (d.slice().registrants[e.event_id] ??= []);
      const errors: TicketFailure[] = [];
      const tickets: Record<string, unknown>[] = [];
      for (const t of batch.tickets) {
        const email = typeof t.email === 'string' ? t.email.trim() : '';
        const fail = (error_code: TicketFailure['error_code'], message: string) =>
          errors.push({ ...(typeof t.email === 'string' ? { email: t.email } : {}), error_code, message });
        if (email.length > EMAIL_MAX || !EMAIL_RE.test(email)) {
          fail('email_not_found', 'Invalid or missing email.');
        } else if (t.fast_join && t.registration_needed) {
          fail(
            'fast_join_with_registrationNeeded',
            'fast_join should not be true when registration needed flag is true.',
          );
        } else if (t.ticket_type_id !== undefined && t.ticket_type_id !== typeId) {
          fail('ticket_type_notfound', 'Ticket type not found.');
        } else if (salesOver) {
          fail('invalid_sale_time', 'Invalid sale date for the ticket type ID.');
        } else {
          const ticket: EventTicketRec = {
            ticket_id: ctx.newId('alnum', 22) as string,
            role: 'ATTENDEE',
            authentication_method: t.fast_join ? 'no_auth' : 'zoom_account_otp_at_join',
            ticket_type_id: typeId,
            ...(t.external_ticket_id !== undefined ? { external_ticket_id: t.external_ticket_id } : {}),
            send_notification: t.send_notification,
            ...(batch.registration_source !== undefined
              ? { registration_source: batch.registration_source }
              : {}),
            ...(t.first_name !== undefined ? { first_name: t.first_name } : {}),
            ...(t.last_name !== undefined ? { last_name: t.last_name } : {}),
          };
          let reg = registrants.find((r) => r.email.toLowerCase() === email.toLowerCase());
          if (!reg) {
            reg = {
              email,
              registration_status: t.registration_needed ? 'PRE_REGISTER_INVITED' : 'PRE_REGISTERED',
              tickets: [],
            };
            registrants.push(reg);
          }
          reg.tickets.push(ticket);
          tickets.push({
            ticket_id: ticket.ticket_id,
            ...(ticket.external_ticket_id !== undefined
              ? { external_ticket_id: ticket.external_ticket_id }
              : {}),
            ...(t.registration_needed
              ? { event_registration_link: registrationLink(ctx.baseUrl, ticket.ticket_id) }
              : { event_join_link: joinLink(ctx.baseUrl, ticket.ticket_id) }),
            ...(hasBadge(e) ? { qr_code_url: qrCodeUrl(ctx.baseUrl, e.event_id, ticket.ticket_id) } : {}),
            email,
            ticket_type_id: typeId,
          });
        }
      }
      if (tickets.length) ctx.changed();
      return reply.code(201).send({ errors, tickets });
    },
  });
}

function getTickets(ctx: EmulatorContext, d: TicketDeps): void {
  ctx.route({
    method: 'GET',
    url: '/zoom_events/events/:eventId/tickets',
    scopes: SCOPES.tickets,
    label: 'LIGHT',
    handler: (req) => {
      const e = d.hostedEvent(p(req, 'eventId'));
      const typeId = defaultTicketType(e.event_id);
      const email = q(req, 'email')?.trim().toLowerCase();
      const external = q(req, 'external_ticket_id');
      const type = q(req, 'ticket_type_id');
      const items = (d.slice().registrants[e.event_id] ?? [])
        .filter((r) => email === undefined || r.email.toLowerCase() === email)
        .flatMap((r) => r.tickets.map((t) => ({ email: r.email, t })))
        .filter(
          ({ t }) =>
            (external === undefined || t.external_ticket_id === external) &&
            (type === undefined || (t.ticket_type_id ?? typeId) === type),
        );
      const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
      return {
        total_records: page.totalRecords,
        next_page_token: page.nextPageToken,
        tickets: page.items.map(({ email: m, t }) => ticketObject(e, m, t, typeId, ctx.baseUrl)),
      };
    },
  });
}
