/**
 * video_events/register: registers one attendee for an event the linked user hosts. The platform
 * registers people by creating tickets (`POST /zoom_events/events/{eventId}/tickets`, the
 * pre-registration flow), one of the event's default ticket type here. The platform answers a
 * refused ticket with 201 and an `errors` entry, which becomes our error with its own status.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, id, seg } from '../operation.js';
import { pathParam } from '../rest-input.js';

const GROUP = 'video_events';
/** Marks the tickets we create on the platform (its limit is 16 characters). */
const SOURCE = 'fleetgate';

export const registerInput = z.object({
  event_id: id('event_id').describe('event_id from list_events; the event must be published'),
  // The platform's limits: 128 for the email, 64 for each name.
  email: z.string().trim().max(128).email().describe("the attendee's email address"),
  first_name: z.string().trim().min(1).max(64),
  last_name: z.string().trim().min(1).max(64),
  send_notification: z
    .boolean()
    .default(false)
    .describe('true: the platform emails the attendee their ticket and join link'),
});

const registration = z.object({
  event_id: z.string(),
  ticket_id: z.string(),
  ticket_type_id: z.string().nullable(),
  email: z.string().describe('as the platform recorded it'),
  first_name: z.string(),
  last_name: z.string(),
  join_url: z.string().nullable().describe("the attendee's own link into the event"),
  qr_code_url: z.string().nullable().describe('e-badge QR code, for hybrid and in-person events'),
  send_notification: z.boolean(),
});

interface CreatedTickets {
  tickets?: {
    ticket_id?: string;
    ticket_type_id?: string;
    email?: string;
    event_join_link?: string;
    qr_code_url?: string;
  }[];
  errors?: { email?: string; error_code?: string; message?: string }[];
}

/** The refusals that say what to do about them; any other is a plain `registration_refused`. */
const REFUSALS: Record<string, { status: number; code: string; message: string }> = {
  invalid_sale_time: {
    status: 409,
    code: 'registration_closed',
    message: 'The event no longer takes registrations.',
  },
  stock_not_exist: { status: 409, code: 'sold_out', message: 'The event has no tickets left.' },
  ticket_type_notfound: {
    status: 409,
    code: 'no_ticket_type',
    message: 'The event has no default ticket type to register people with; add one on the platform.',
  },
};

/** A ticket the platform refused, as our error: the attendee's fault, the event's state, or neither. */
function refusal(f: { error_code?: string; message?: string }): AppError {
  const details = { group: GROUP, platformCode: f.error_code ?? null, platformMessage: f.message ?? null };
  if (f.error_code === 'email_not_found') {
    return new AppError(400, 'validation_failed', 'The input is not valid.', {
      ...details,
      issues: [{ path: 'email', message: 'the platform does not accept this email address' }],
    });
  }
  const known = f.error_code !== undefined ? REFUSALS[f.error_code] : undefined;
  if (known) return new AppError(known.status, known.code, known.message, details);
  return new AppError(
    409,
    'registration_refused',
    `The platform refused the registration${f.message ? `: ${f.message}` : '.'}`,
    details,
  );
}

export const registerOp = defineOp({
  group: GROUP,
  name: 'register',
  scopes: [
    'zoom_events:write:ticket',
    'zoom_events:write:ticket:admin',
    'zoom_events_tickets:write',
    'zoom_events_tickets:write:admin',
  ],
  beyondSeed: true,

  rest: [
    {
      method: 'POST',
      url: '/api/video/events-hub/:eventId/registrations',
      status: 201,
      // The body names the attendee; the event is the path's, whatever the body says.
      input: (req) => ({
        ...(req.body as Record<string, unknown> | undefined),
        event_id: pathParam(req, 'eventId'),
      }),
      docInput: registerInput.omit({ event_id: true }),
    },
  ],
  summary:
    'Registers an attendee (email, first and last name) for a published event the user hosts and returns their ticket with a personal join link.',
  kind: 'write',
  creates: true,
  input: registerInput,
  output: registration,
  async run(ctx, i): Promise<z.output<typeof registration>> {
    let r;
    try {
      r = await ctx.platform.call<CreatedTickets>({
        method: 'POST',
        path: `/zoom_events/events/${seg(i.event_id)}/tickets`,
        body: {
          registration_source: SOURCE,
          tickets: [
            {
              email: i.email,
              first_name: i.first_name,
              last_name: i.last_name,
              send_notification: i.send_notification,
            },
          ],
        },
        label: 'LIGHT',
        group: GROUP,
      });
    } catch (err) {
      if (err instanceof AppError && err.details?.['platformCode'] === 26501) {
        throw new AppError(
          409,
          'event_not_published',
          'The event is not published yet (a draft, or cancelled); registration opens once it is published.',
          err.details,
        );
      }
      throw err;
    }
    const failure = r.data?.errors?.[0];
    if (failure) throw refusal(failure);
    const ticket = r.data?.tickets?.[0];
    if (!ticket?.ticket_id)
      throw new AppError(502, 'upstream_error', 'The platform did not return the new ticket.');
    return {
      event_id: i.event_id,
      ticket_id: ticket.ticket_id,
      ticket_type_id: ticket.ticket_type_id ?? null,
      email: ticket.email ?? i.email,
      first_name: i.first_name,
      last_name: i.last_name,
      join_url: ticket.event_join_link ?? null,
      qr_code_url: ticket.qr_code_url ?? null,
      send_notification: i.send_notification,
    };
  },
});
