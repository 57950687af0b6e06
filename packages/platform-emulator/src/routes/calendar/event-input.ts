/**
 * Validation of calendar event bodies (create and patch), and applying their times to a record.
 */
import { isTimeZone } from '../../time.js';
import { calErr } from './records.js';
import type { Attendee, EventRec, EventStatus, Reminders, ResponseStatus } from './records.js';
import { validRecurrenceLine } from './recurrence.js';
import { dateMs, parseDateTime, rfc3339, validDate } from './time.js';

const EMAIL_RE =
  /^[^@\s"(),:;<>[\]\\]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const STATUSES: EventStatus[] = ['confirmed', 'tentative', 'cancelled'];
const RESPONSES: ResponseStatus[] = ['needsAction', 'declined', 'tentative', 'accepted'];

export interface TimeInput {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

export interface EventInput {
  summary?: string;
  description?: string;
  location?: string;
  colorId?: string;
  start?: TimeInput;
  end?: TimeInput;
  attendees?: Attendee[];
  recurrence?: string[];
  reminders?: Reminders;
  status?: EventStatus;
  transparency?: 'opaque' | 'transparent';
  visibility?: 'default' | 'public' | 'private';
  guestsCanInviteOthers?: boolean;
  guestsCanModify?: boolean;
  guestsCanSeeOtherGuests?: boolean;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function readTime(name: 'start' | 'end', v: unknown, bad: (f: string) => void): TimeInput | undefined {
  if (!isObj(v)) return void bad(name);
  const t: TimeInput = {};
  const { date, dateTime, timeZone } = v;
  if (timeZone !== undefined) {
    if (typeof timeZone === 'string' && isTimeZone(timeZone)) t.timeZone = timeZone;
    else return void bad(`${name}.timeZone`);
  }
  const hasDate = date !== undefined && date !== null;
  const hasDateTime = dateTime !== undefined && dateTime !== null;
  if (hasDate === hasDateTime) return void bad(name);
  if (hasDate) {
    if (typeof date !== 'string' || !validDate(date)) return void bad(`${name}.date`);
    t.date = date;
  } else {
    if (typeof dateTime !== 'string' || parseDateTime(dateTime, t.timeZone) === undefined)
      return void bad(`${name}.dateTime`);
    t.dateTime = dateTime;
  }
  return t;
}

export function readEventInput(b: Record<string, unknown>): EventInput {
  const errors: string[] = [];
  const bad = (f: string) => void errors.push(f);
  const f: EventInput = {};
  const str = (k: 'summary' | 'description' | 'location' | 'colorId', max: number) => {
    if (!(k in b) || b[k] === null) return;
    const v = b[k];
    if (typeof v === 'string' && v.length <= max) f[k] = v;
    else bad(k);
  };
  str('summary', 1024);
  str('description', 15000);
  str('location', 1024);
  str('colorId', 16);
  if ('start' in b) {
    const t = readTime('start', b['start'], bad);
    if (t) f.start = t;
  }
  if ('end' in b) {
    const t = readTime('end', b['end'], bad);
    if (t) f.end = t;
  }
  if ('attendees' in b) {
    const attendees = readAttendees(b['attendees'], bad);
    if (attendees) f.attendees = attendees;
  }
  if ('recurrence' in b && b['recurrence'] !== null) {
    const r = b['recurrence'];
    if (
      Array.isArray(r) &&
      r.every((l) => typeof l === 'string' && validRecurrenceLine(l)) &&
      new Set(r).size === r.length
    ) {
      f.recurrence = r as string[];
    } else bad('recurrence');
  }
  if ('reminders' in b) {
    const reminders = readReminders(b['reminders'], bad);
    if (reminders) f.reminders = reminders;
  }
  if ('status' in b) {
    if (STATUSES.includes(b['status'] as EventStatus)) f.status = b['status'] as EventStatus;
    else bad('status');
  }
  if ('transparency' in b) {
    if (b['transparency'] === 'opaque' || b['transparency'] === 'transparent')
      f.transparency = b['transparency'];
    else bad('transparency');
  }
  if ('visibility' in b) {
    const v = b['visibility'];
    if (v === 'default' || v === 'public' || v === 'private') f.visibility = v;
    else bad('visibility');
  }
  for (const k of ['guestsCanInviteOthers', 'guestsCanModify', 'guestsCanSeeOtherGuests'] as const) {
    const v = b[k];
    if (typeof v === 'boolean') f[k] = v;
    else if (k in b) bad(k);
  }
  if (errors.length) throw calErr.bad(errors);
  return f;
}

/** Applies start/end to an event and checks the range; throws 400 on an empty or mixed range. */
export function applyTimes(ev: EventRec, start: TimeInput, end: TimeInput, calTz: string): void {
  const errors: string[] = [];
  if ((start.date === undefined) !== (end.date === undefined)) errors.push('end');
  if (ev.recurrence?.length && !start.timeZone && start.date === undefined) errors.push('start.timeZone');
  if (errors.length) throw calErr.bad(errors);
  if (start.date !== undefined && end.date !== undefined) {
    if (end.date <= start.date) throw calErr.bad(['end.date']);
    ev.allDay = true;
    ev.startDate = start.date;
    ev.endDate = end.date;
    ev.startTz = start.timeZone;
    ev.endTz = end.timeZone;
    ev.startMs = dateMs(start.date, start.timeZone ?? calTz);
    ev.endMs = dateMs(end.date, end.timeZone ?? start.timeZone ?? calTz);
    return;
  }
  const s = parseDateTime(start.dateTime ?? '', start.timeZone);
  const e = parseDateTime(end.dateTime ?? '', end.timeZone);
  if (s === undefined) throw calErr.bad(['start.dateTime']);
  if (e === undefined || e < s) throw calErr.bad(['end.dateTime']);
  ev.allDay = false;
  ev.startDate = undefined;
  ev.endDate = undefined;
  ev.startTz = start.timeZone;
  ev.endTz = end.timeZone;
  ev.startMs = s;
  ev.endMs = e;
}

export function timeInputOf(ev: EventRec, which: 'start' | 'end', calTz: string): TimeInput {
  const tz = which === 'start' ? ev.startTz : ev.endTz;
  const t: TimeInput = ev.allDay
    ? { date: (which === 'start' ? ev.startDate : ev.endDate) ?? '' }
    : { dateTime: rfc3339(which === 'start' ? ev.startMs : ev.endMs, tz ?? calTz) };
  if (tz) t.timeZone = tz;
  return t;
}

/** The attendees, each once (by email); a bad one is named by its index. */
function readAttendees(list: unknown, bad: (f: string) => void): Attendee[] | undefined {
  if (!Array.isArray(list)) {
    bad('attendees');
    return undefined;
  }
  const out: Attendee[] = [];
  list.forEach((a: unknown, i) => {
    const at = `attendees[${i}]`;
    if (!isObj(a)) return bad(at);
    if (typeof a['email'] !== 'string' || !EMAIL_RE.test(a['email'])) return bad(`${at}.email`);
    const x: Attendee = { email: a['email'], responseStatus: 'needsAction' };
    const { displayName, optional, resource } = a;
    if (typeof displayName === 'string') x.displayName = displayName;
    else if (displayName !== undefined) bad(`${at}.displayName`);
    if (typeof optional === 'boolean') x.optional = optional;
    else if (optional !== undefined) bad(`${at}.optional`);
    if (typeof resource === 'boolean') x.resource = resource;
    else if (resource !== undefined) bad(`${at}.resource`);
    if (a['responseStatus'] !== undefined) {
      if (RESPONSES.includes(a['responseStatus'] as ResponseStatus))
        x.responseStatus = a['responseStatus'] as ResponseStatus;
      else bad(`${at}.responseStatus`);
    }
    if (a['additionalGuests'] !== undefined) {
      if (Number.isInteger(a['additionalGuests']) && (a['additionalGuests'] as number) >= 0)
        x.additionalGuests = a['additionalGuests'] as number;
      else bad(`${at}.additionalGuests`);
    }
    if (out.some((o) => o.email.toLowerCase() === x.email.toLowerCase())) return;
    out.push(x);
  });
  return out;
}

/** The reminders: the default or up to five overrides of 0 to 40320 minutes. */
function readReminders(r: unknown, bad: (f: string) => void): Reminders | undefined {
  if (!isObj(r) || (r['useDefault'] !== undefined && typeof r['useDefault'] !== 'boolean')) {
    bad('reminders');
    return undefined;
  }
  const rem: Reminders = { useDefault: r['useDefault'] === undefined ? true : r['useDefault'] };
  const ov = r['overrides'];
  if (ov !== undefined) {
    const ok =
      Array.isArray(ov) &&
      ov.length <= 5 &&
      ov.every(
        (o: unknown) =>
          isObj(o) &&
          (o['method'] === 'email' || o['method'] === 'popup') &&
          Number.isInteger(o['minutes']) &&
          (o['minutes'] as number) >= 0 &&
          (o['minutes'] as number) <= 40320,
      );
    if (ok)
      rem.overrides = (ov as { method: 'email' | 'popup'; minutes: number }[]).map((o) => ({
        method: o.method,
        minutes: o.minutes,
      }));
    else bad('reminders.overrides');
  }
  return rem;
}
