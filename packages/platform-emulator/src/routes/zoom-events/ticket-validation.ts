/**
 * Zoom Events: the create-tickets body. Its shape (types, lengths, at most 30 tickets) is checked
 * here and answered with 400 code 300; an email is not, since the platform reports a bad or
 * missing email per ticket (`email_not_found`) and still creates the rest of the batch. Then the
 * registration questions by validation level: the emulator's default ticket type asks the first
 * and last name (both required), so any other standard field or custom question is unconfigured.
 */
import { zerr, ZoomError } from '../../context.js';

export type ValidationLevel = 'standard' | 'strict' | 'none';

export interface TicketAsk {
  /** The email as sent (anything: it is checked per ticket). */
  email: unknown;
  ticket_type_id?: string;
  external_ticket_id?: string;
  send_notification: boolean;
  fast_join: boolean;
  registration_needed: boolean;
  first_name?: string;
  last_name?: string;
}

export interface TicketBatch {
  registration_source?: string;
  tickets: TicketAsk[];
}

const MAX_TICKETS = 30;
/** The configured questions: kept with the ticket; under `standard` and `strict` both are required. */
const CONFIGURED = ['first_name', 'last_name'] as const;
/** The standard question fields with their documented maximum lengths (0: none documented). */
const QUESTIONS: Record<string, number> = {
  first_name: 64,
  last_name: 64,
  address: 0,
  city: 0,
  state: 0,
  zip: 0,
  country: 0,
  phone: 0,
  industry: 0,
  job_title: 0,
  organization: 0,
  organization_size: 0,
  comments: 255,
};
const BOOLEANS = ['send_notification', 'fast_join', 'registration_needed'] as const;

const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (max: number) => (v: unknown) => isStr(v) && (max === 0 || v.length <= max);

export function readValidationLevel(v: string | undefined): ValidationLevel {
  if (v === undefined) return 'standard';
  if (v === 'standard' || v === 'strict' || v === 'none') return v;
  throw zerr.badParam('validation_level');
}

const list = (names: string[]) => `[${names.map((n) => JSON.stringify(n)).join(', ')}]`;

/**
 * The body's shape (400 code 300 listing every wrong field), then the registration questions of
 * the tickets that carry them (one with `registration_needed` has its answers asked later).
 */
export function readTicketBatch(b: Record<string, unknown>, level: ValidationLevel): TicketBatch {
  const errors: { field: string; message: string }[] = [];
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  if ('registration_source' in b && !str(16)(b['registration_source'])) bad('registration_source');
  const raw = b['tickets'];
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_TICKETS) {
    bad('tickets');
    throw zerr.validation(errors);
  }
  raw.forEach((t: unknown, i) => {
    if (!isObj(t)) {
      bad(`tickets[${i}]`);
      return;
    }
    const check = (k: string, ok: (v: unknown) => boolean) => {
      if (k in t && !ok(t[k])) bad(`tickets[${i}].${k}`);
    };
    check('ticket_type_id', str(0));
    check('external_ticket_id', str(128));
    for (const k of BOOLEANS) check(k, (v) => typeof v === 'boolean');
    for (const [k, max] of Object.entries(QUESTIONS)) check(k, str(max));
    check('session_ids', (v) => Array.isArray(v) && v.length <= 200 && v.every(isStr));
    check(
      'custom_questions',
      (v) =>
        Array.isArray(v) &&
        v.length <= 100 &&
        v.every((q) => isObj(q) && str(256)(q['title']) && (!('answer' in q) || isStr(q['answer']))),
    );
  });
  if (errors.length) throw zerr.validation(errors);

  const tickets = raw as Record<string, unknown>[];
  const answering = tickets.filter((t) => t['registration_needed'] !== true);
  if (level === 'strict') {
    const unconfigured = new Set<string>();
    for (const t of answering) {
      for (const k of Object.keys(QUESTIONS))
        if (k in t && !(CONFIGURED as readonly string[]).includes(k)) unconfigured.add(k);
      for (const q of (t['custom_questions'] as { title: string }[] | undefined) ?? [])
        unconfigured.add(q.title);
    }
    if (unconfigured.size)
      throw new ZoomError(400, 260503, `Nonconfigured fields - ${list([...unconfigured])}.`);
  }
  if (level !== 'none') {
    const missing = CONFIGURED.filter((k) => answering.some((t) => !isStr(t[k]) || t[k].trim() === ''));
    if (missing.length) throw new ZoomError(400, 260504, `Missing required fields - ${list(missing)}.`);
  }
  const source = b['registration_source'];
  return {
    ...(isStr(source) ? { registration_source: source } : {}),
    tickets: tickets.map((t) => {
      const keep = (k: string) => (isStr(t[k]) ? { [k]: t[k] } : {});
      const asking = t['registration_needed'] === true;
      return {
        email: t['email'],
        ...keep('ticket_type_id'),
        ...keep('external_ticket_id'),
        send_notification: t['send_notification'] === true,
        fast_join: t['fast_join'] === true,
        registration_needed: asking,
        // Answers come with the online form when registration_needed; any sent now are ignored.
        ...(asking ? {} : { ...keep('first_name'), ...keep('last_name') }),
      };
    }),
  };
}
