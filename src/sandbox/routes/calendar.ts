/**
 * Calendar (the platform's Google-Calendar-like API, camelCase): the demo user's calendar list
 * (primary + two secondary calendars), calendars, events with RFC 3339 time windows, recurring
 * events (RRULE expansion with singleEvents), sync tokens, create / patch / delete and quickAdd.
 * The platform documents no error codes for this product, so errors carry the HTTP status as
 * `code`. Mutations emit calendar.event_create / event_update / event_delete.
 */
import { randomBytes } from 'node:crypto';
import { body, defineModule, p, q, ZoomError } from '../context.js';
import type { SandboxContext, SandboxRequest, SeedContext } from '../context.js';
import { isTimeZone, parseStartTime, zoomTime } from '../time.js';

type AccessRole = 'freeBusyReader' | 'reader' | 'writer' | 'owner';
type ResponseStatus = 'needsAction' | 'declined' | 'tentative' | 'accepted';
type EventStatus = 'confirmed' | 'tentative' | 'cancelled';

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

const CAL_SCOPES = {
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

// ---------------------------------------------------------------------------------------------
// Time helpers: IANA zones, RFC 3339, local wall-clock <-> instants.

const DAY = 86_400_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const formatters = new Map<string, Intl.DateTimeFormat>();

interface LocalParts {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
  ss: number;
  /** 0 = Sunday. */
  wd: number;
}

function localParts(ms: number, tz: string): LocalParts {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  const o: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(ms))) o[part.type] = part.value;
  const y = Number(o['year']);
  const m = Number(o['month']);
  const d = Number(o['day']);
  return {
    y,
    m,
    d,
    hh: Number(o['hour']),
    mm: Number(o['minute']),
    ss: Number(o['second']),
    wd: new Date(Date.UTC(y, m - 1, d)).getUTCDay(),
  };
}

const ymd = (x: { y: number; m: number; d: number }) => `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}`;

/** The instant of a local wall-clock time in `tz` (fields may overflow: 24:00 is the next day). */
function localMs(y: number, m: number, d: number, hh: number, mm: number, ss: number, tz: string): number {
  const naive = new Date(Date.UTC(y, m - 1, d, hh, mm, ss)).toISOString().slice(0, 19);
  return parseStartTime(naive, tz)?.getTime() ?? Date.parse(`${naive}Z`);
}

const dateMs = (date: string, tz: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return localMs(y, m, d, 0, 0, 0, tz);
};

const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** RFC 3339 in `tz`'s wall clock, with its offset ("Z" for UTC), as the platform writes dateTime. */
function rfc3339(ms: number, tz: string): string {
  const x = localParts(ms, tz);
  const off = Math.round(
    (Date.UTC(x.y, x.m - 1, x.d, x.hh, x.mm, x.ss) - Math.floor(ms / 1000) * 1000) / 60_000,
  );
  const zone =
    off === 0
      ? 'Z'
      : `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  return `${ymd(x)}T${pad(x.hh)}:${pad(x.mm)}:${pad(x.ss)}${zone}`;
}

const RFC3339_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function validFields(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  const t = new Date(Date.UTC(y, mo - 1, d));
  return (
    t.getUTCFullYear() === y &&
    t.getUTCMonth() === mo - 1 &&
    t.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60
  );
}

/** RFC 3339 with a mandatory offset (milliseconds ignored), as timeMin / timeMax require. */
function parseRfc3339(v: string): number | undefined {
  const m = RFC3339_RE.exec(v);
  if (!m) return undefined;
  const n = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validFields(...n)) return undefined;
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${(m[8] ?? 'Z').toUpperCase()}`);
  return Number.isNaN(t) ? undefined : t;
}

/** An event dateTime: RFC 3339 with an offset, or a local time when a time zone is given. */
function parseDateTime(v: string, tz: string | undefined): number | undefined {
  if (RFC3339_RE.test(v)) return parseRfc3339(v);
  const m = LOCAL_RE.exec(v);
  if (!m || !tz) return undefined;
  const n = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validFields(...n)) return undefined;
  return localMs(...n, tz);
}

const validDate = (v: string) => {
  const m = DATE_RE.exec(v);
  return !!m && validFields(Number(m[1]), Number(m[2]), Number(m[3]));
};

// ---------------------------------------------------------------------------------------------
// Recurrence: RRULE (DAILY / WEEKLY with BYDAY / MONTHLY / YEARLY, INTERVAL, COUNT, UNTIL) and EXDATE.

interface Rule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  count?: number;
  untilMs?: number;
  byDay?: number[];
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

function parseIcsStamp(v: string, tz: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/i.exec(v);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validFields(y, mo, d)) return undefined;
  if (m[4] === undefined) return localMs(y, mo, d, 0, 0, 0, tz);
  const [h, mi, s] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (!validFields(y, mo, d, h, mi, s)) return undefined;
  return m[7] ? Date.UTC(y, mo - 1, d, h, mi, s) : localMs(y, mo, d, h, mi, s, tz);
}

function parseRule(line: string, tz = 'UTC'): Rule | undefined {
  if (!/^RRULE:/i.test(line)) return undefined;
  const kv = new Map<string, string>();
  for (const pair of line.slice(6).split(';')) {
    const [k, v] = pair.split('=');
    if (!k || v === undefined || v === '') return undefined;
    kv.set(k.toUpperCase(), v.toUpperCase());
  }
  const freq = kv.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY' && freq !== 'MONTHLY' && freq !== 'YEARLY') return undefined;
  const rule: Rule = { freq, interval: 1 };
  const interval = kv.get('INTERVAL');
  if (interval !== undefined) {
    if (!/^[1-9]\d{0,2}$/.test(interval)) return undefined;
    rule.interval = Number(interval);
  }
  const count = kv.get('COUNT');
  if (count !== undefined) {
    if (!/^[1-9]\d{0,3}$/.test(count)) return undefined;
    rule.count = Number(count);
  }
  const until = kv.get('UNTIL');
  if (until !== undefined) {
    const t = parseIcsStamp(until, tz);
    if (t === undefined) return undefined;
    // A date-only UNTIL includes that whole day.
    rule.untilMs = until.length === 8 ? t + DAY - 1 : t;
  }
  const byDay = kv.get('BYDAY');
  if (byDay !== undefined) {
    const days = byDay.split(',').map((x) => WEEKDAYS.indexOf(x.replace(/^[+-]?\d+/, '')));
    if (days.some((x) => x < 0)) return undefined;
    rule.byDay = [...new Set(days)];
  }
  return rule;
}

const validRecurrenceLine = (line: string) =>
  /^RRULE:/i.test(line) ? parseRule(line) !== undefined : /^(EXRULE|RDATE|EXDATE)[:;]\S+/i.test(line);

function exdates(ev: EventRec, tz: string): Set<number> {
  const out = new Set<number>();
  for (const line of ev.recurrence ?? []) {
    const m = /^EXDATE([^:]*):(.+)$/i.exec(line);
    if (!m) continue;
    const zone = /TZID=([^;:]+)/i.exec(m[1] ?? '')?.[1];
    for (const v of (m[2] ?? '').split(',')) {
      const t = parseIcsStamp(v.trim(), zone && isTimeZone(zone) ? zone : tz);
      if (t !== undefined) out.add(t);
    }
  }
  return out;
}

const eventTz = (ev: EventRec, cal: CalendarRec) => ev.startTz ?? cal.timeZone;

/** Start instants of a recurring event's instances overlapping [fromMs, toMs). */
function occurrences(ev: EventRec, tz: string, fromMs: number, toMs: number): number[] {
  const rule = (ev.recurrence ?? []).map((l) => parseRule(l, tz)).find((r) => r !== undefined);
  const dur = ev.endMs - ev.startMs;
  const overlaps = (ms: number) => ms < toMs && (ms + dur > fromMs || ms >= fromMs);
  if (!rule) return overlaps(ev.startMs) ? [ev.startMs] : [];
  const p0 = localParts(ev.startMs, tz);
  const baseDay = Date.UTC(p0.y, p0.m - 1, p0.d) / DAY;
  const skip = exdates(ev, tz);
  const out: number[] = [];
  let generated = 0;
  const at = (dayNum: number) => {
    const t = new Date(dayNum * DAY);
    return localMs(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate(), p0.hh, p0.mm, p0.ss, tz);
  };
  /** false once the series is over or past the window. */
  const emit = (ms: number): boolean => {
    if (ms < ev.startMs) return true;
    if (rule.untilMs !== undefined && ms > rule.untilMs) return false;
    generated += 1;
    if (rule.count !== undefined && generated > rule.count) return false;
    if (ms >= toMs) return false;
    if (!skip.has(ms) && overlaps(ms)) out.push(ms);
    return out.length < 2000;
  };
  const cap = 5000;
  if (rule.freq === 'DAILY') {
    for (let k = 0; k < cap && emit(at(baseDay + k * rule.interval)); k++);
  } else if (rule.freq === 'WEEKLY') {
    const weekStart = baseDay - ((p0.wd + 6) % 7);
    const days = (rule.byDay ?? [p0.wd]).map((d) => (d + 6) % 7).sort((a, b) => a - b);
    outer: for (let w = 0; w < cap; w++) {
      for (const d of days) if (!emit(at(weekStart + w * 7 * rule.interval + d))) break outer;
    }
  } else {
    const months = rule.freq === 'MONTHLY' ? rule.interval : rule.interval * 12;
    for (let k = 0; k < cap; k++) {
      const mi = p0.m - 1 + k * months;
      const y = p0.y + Math.floor(mi / 12);
      const m = (mi % 12) + 1;
      if (!validFields(y, m, p0.d)) continue;
      if (!emit(localMs(y, m, p0.d, p0.hh, p0.mm, p0.ss, tz))) break;
    }
  }
  return out;
}

const stampOf = (ev: EventRec, ms: number, tz: string) =>
  ev.allDay
    ? ymd(localParts(ms, tz)).replace(/-/g, '')
    : new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

// ---------------------------------------------------------------------------------------------
// Validation of event bodies (create and patch).

const EMAIL_RE =
  /^[^@\s"(),:;<>[\]\\]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const STATUSES: EventStatus[] = ['confirmed', 'tentative', 'cancelled'];
const RESPONSES: ResponseStatus[] = ['needsAction', 'declined', 'tentative', 'accepted'];

interface TimeInput {
  date?: string;
  dateTime?: string;
  timeZone?: string;
}

interface EventInput {
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

function readEventInput(b: Record<string, unknown>): EventInput {
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
    const list = b['attendees'];
    if (!Array.isArray(list)) bad('attendees');
    else {
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
      f.attendees = out;
    }
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
    const r = b['reminders'];
    if (!isObj(r) || (r['useDefault'] !== undefined && typeof r['useDefault'] !== 'boolean'))
      bad('reminders');
    else {
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
      f.reminders = rem;
    }
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
function applyTimes(ev: EventRec, start: TimeInput, end: TimeInput, calTz: string): void {
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

function timeInputOf(ev: EventRec, which: 'start' | 'end', calTz: string): TimeInput {
  const tz = which === 'start' ? ev.startTz : ev.endTz;
  const t: TimeInput = ev.allDay
    ? { date: (which === 'start' ? ev.startDate : ev.endDate) ?? '' }
    : { dateTime: rfc3339(which === 'start' ? ev.startMs : ev.endMs, tz ?? calTz) };
  if (tz) t.timeZone = tz;
  return t;
}

// ---------------------------------------------------------------------------------------------
// quickAdd: a small deterministic parser for texts like "Lunch with Sam tomorrow at 1pm".

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES: [RegExp, number][] = [
  [/^sun(day)?$/, 0],
  [/^mon(day)?$/, 1],
  [/^tue(s|sday)?$/, 2],
  [/^wed(nesday)?$/, 3],
  [/^thu(r|rs|rsday)?$/, 4],
  [/^fri(day)?$/, 5],
  [/^sat(urday)?$/, 6],
];

export interface QuickAdd {
  summary: string;
  location?: string;
  attendees: string[];
  start: TimeInput;
  end: TimeInput;
}

function to24(h: number, mer: string | undefined): number {
  const m = mer?.replace(/\./g, '').toLowerCase();
  if (m === 'am') return h === 12 ? 0 : h;
  if (m === 'pm') return h === 12 ? 12 : h + 12;
  return h;
}

/** Parses a quickAdd text in `tz` relative to `now`; a text without a time starts at the next full hour. */
export function parseQuickAdd(text: string, now: Date, tz: string): QuickAdd {
  let rest = ` ${text.replace(/\s+/g, ' ').trim()} `;
  let took = false;
  const take = (re: RegExp): RegExpExecArray | null => {
    const m = re.exec(rest);
    if (m) {
      rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`;
      took = true;
    }
    return m;
  };
  const attendees: string[] = [];
  for (
    let m = take(/<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>?/);
    m;
    m = take(/<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>?/)
  ) {
    if (m[1]) attendees.push(m[1]);
  }

  const today = localParts(now.getTime(), tz);
  const todayStr = ymd(today);
  let date: string | undefined;
  let defaultHour: number | undefined;
  let m: RegExpExecArray | null;
  if (
    (m = take(/\s(?:on\s+)?(\d{4})-(\d{2})-(\d{2})(?=[\s,.])/i)) &&
    validFields(Number(m[1]), Number(m[2]), Number(m[3]))
  ) {
    date = `${m[1]}-${m[2]}-${m[3]}`;
  } else if ((m = take(/\s(?:the\s+)?day after tomorrow(?=[\s,.])/i))) {
    date = addDays(todayStr, 2);
  } else if ((m = take(/\s(today|tonight|tomorrow|tmrw)(?=[\s,.])/i))) {
    const w = (m[1] ?? '').toLowerCase();
    date = w === 'tomorrow' || w === 'tmrw' ? addDays(todayStr, 1) : todayStr;
    if (w === 'tonight') defaultHour = 19;
  } else if ((m = take(/\sin\s+(\d{1,3})\s+(days?|weeks?)(?=[\s,.])/i))) {
    date = addDays(todayStr, Number(m[1]) * (/^w/i.test(m[2] ?? '') ? 7 : 1));
  } else if (
    (m = take(
      /\s(?:on\s+)?(next\s+|this\s+)?(sun(?:day)?|mon(?:day)?|tue(?:s|sday)?|wed(?:nesday)?|thu(?:r|rs|rsday)?|fri(?:day)?|sat(?:urday)?)(?=[\s,.])/i,
    ))
  ) {
    const name = (m[2] ?? '').toLowerCase();
    const target = DAY_NAMES.find(([re]) => re.test(name))?.[1] ?? 0;
    let ahead = (target - today.wd + 7) % 7;
    if (ahead === 0 && !/this/i.test(m[1] ?? '')) ahead = 7;
    date = addDays(todayStr, ahead);
  } else if (
    (m = take(
      /\s(?:on\s+)?(january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?=[\s,.])/i,
    )) ||
    (m = take(
      /\s(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(january|jan|february|feb|march|mar|april|apr|may|june|jun|july|jul|august|aug|september|sept|sep|october|oct|november|nov|december|dec)\.?(?:,?\s+(\d{4}))?(?=[\s,.])/i,
    ))
  ) {
    const [mon, day] = /^\d/.test(m[1] ?? '') ? [m[2], m[1]] : [m[1], m[2]];
    const mo = MONTHS.indexOf((mon ?? '').slice(0, 3).toLowerCase()) + 1;
    let y = m[3] ? Number(m[3]) : today.y;
    let candidate = `${pad(y, 4)}-${pad(mo)}-${pad(Number(day))}`;
    if (!m[3] && candidate < todayStr) candidate = `${pad((y += 1), 4)}-${pad(mo)}-${pad(Number(day))}`;
    if (validFields(y, mo, Number(day))) date = candidate;
  } else if ((m = take(/\s(?:on\s+)?(\d{1,2})\/(\d{1,2})(?:\/(\d{2}|\d{4}))?(?=[\s,.])/))) {
    let y = m[3] ? Number(m[3].length === 2 ? `20${m[3]}` : m[3]) : today.y;
    const [mo, d] = [Number(m[1]), Number(m[2])];
    if (!m[3] && `${pad(y, 4)}-${pad(mo)}-${pad(d)}` < todayStr) y += 1;
    if (validFields(y, mo, d)) date = `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
  }

  let startMin: number | undefined;
  let durationMin = 60;
  const MER = '(am|pm|a\\.m\\.|p\\.m\\.)';
  if (
    (m = take(
      new RegExp(
        `\\s(?:from\\s+|at\\s+)?(\\d{1,2})(?::(\\d{2}))?\\s*${MER}?\\s*(?:-|–|to|until|till)\\s*(\\d{1,2})(?::(\\d{2}))?\\s*${MER}(?=[\\s,.])`,
        'i',
      ),
    ))
  ) {
    const h2 = to24(Number(m[4]), m[6]);
    const e = h2 * 60 + Number(m[5] ?? 0);
    let h1 = to24(Number(m[1]), m[3] ?? m[6]);
    if (!m[3] && h1 * 60 + Number(m[2] ?? 0) > e) h1 = to24(Number(m[1]), 'am');
    const s = h1 * 60 + Number(m[2] ?? 0);
    if (Number(m[1]) <= 12 && Number(m[4]) <= 12 && e > s) {
      startMin = s;
      durationMin = e - s;
    }
  } else if (
    (m = take(new RegExp(`\\s(?:at\\s+|@\\s*)?(\\d{1,2})(?::(\\d{2}))?\\s*${MER}(?=[\\s,.])`, 'i')))
  ) {
    if (Number(m[1]) >= 1 && Number(m[1]) <= 12 && Number(m[2] ?? 0) < 60)
      startMin = to24(Number(m[1]), m[3]) * 60 + Number(m[2] ?? 0);
  } else if ((m = take(/\s(?:at\s+)?([01]?\d|2[0-3]):([0-5]\d)(?=[\s,.])/i))) {
    startMin = Number(m[1]) * 60 + Number(m[2]);
  } else if ((m = take(/\s(?:at\s+)?(noon|midday|midnight)(?=[\s,.])/i))) {
    startMin = /midnight/i.test(m[1] ?? '') ? 0 : 12 * 60;
  } else if ((m = take(/\sat\s+(\d{1,2})(?=[\s,.])/i)) && Number(m[1]) >= 1 && Number(m[1]) <= 12) {
    // A bare hour reads as business hours: 1-7 is the afternoon, 8-12 the morning (12 is noon).
    const h = Number(m[1]);
    startMin = (h <= 7 ? h + 12 : h) * 60;
  } else if ((m = take(/\s(?:in\s+the\s+|this\s+)?(morning|afternoon|evening)(?=[\s,.])/i))) {
    startMin =
      { morning: 9, afternoon: 14, evening: 18 }[(m[1] ?? 'morning').toLowerCase() as 'morning'] * 60;
  }
  if ((m = take(/\sfor\s+(\d+(?:\.\d+)?)\s*(h|hrs?|hours?|m|mins?|minutes?)(?=[\s,.])/i))) {
    const n = Number(m[1]) * (/^h/i.test(m[2] ?? '') ? 60 : 1);
    if (n > 0 && n <= 24 * 60) durationMin = Math.round(n);
  } else if ((m = take(/\sfor\s+(?:an?|one)\s+hour(?=[\s,.])/i))) {
    durationMin = 60;
  } else if ((m = take(/\sfor\s+(?:half\s+an\s+hour|a\s+half\s+hour|30\s*min)(?=[\s,.])/i))) {
    durationMin = 30;
  }
  if (startMin === undefined && defaultHour !== undefined) startMin = defaultHour * 60;

  let summary = rest.replace(/\s+/g, ' ').trim();
  let location: string | undefined;
  const loc = /^(.*?)\s+(?:at|@)\s+([A-Z0-9][^,;]*)$/.exec(summary);
  if (loc?.[1] && loc[2]) {
    summary = loc[1];
    location = loc[2].trim();
  }
  for (let prev = ''; took && prev !== summary;) {
    prev = summary;
    summary = summary
      .replace(/[\s,;:-]+$/, '')
      .replace(/\s+(on|at|from|for|by|and|with|in)$/i, '')
      .replace(/^(on|at)\s+/i, '')
      .trim();
  }
  if (!summary) summary = text.trim();

  const ret = (start: TimeInput, end: TimeInput): QuickAdd => ({
    summary,
    ...(location ? { location } : {}),
    attendees,
    start,
    end,
  });
  if (startMin === undefined && date !== undefined) {
    return ret({ date }, { date: addDays(date, 1) });
  }
  let startMs: number;
  if (startMin === undefined) {
    startMs = localMs(today.y, today.m, today.d, today.hh + 1, 0, 0, tz);
  } else {
    let day = date ?? todayStr;
    const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
    startMs = localMs(y, mo, d, Math.floor(startMin / 60), startMin % 60, 0, tz);
    if (date === undefined && startMs <= now.getTime()) {
      day = addDays(day, 1);
      const [y2, mo2, d2] = day.split('-').map(Number) as [number, number, number];
      startMs = localMs(y2, mo2, d2, Math.floor(startMin / 60), startMin % 60, 0, tz);
    }
  }
  return ret(
    { dateTime: rfc3339(startMs, tz), timeZone: tz },
    { dateTime: rfc3339(startMs + durationMin * 60_000, tz), timeZone: tz },
  );
}

// ---------------------------------------------------------------------------------------------
// Seed.

interface Person {
  email: string;
  name: string;
}

const people: Record<string, Person> = {
  jordan: { email: 'jordan.reyes@meridianfleet.example', name: 'Jordan Reyes' },
  priya: { email: 'priya.natarajan@meridianfleet.example', name: 'Priya Natarajan' },
  marcus: { email: 'marcus.bell@meridianfleet.example', name: 'Marcus Bell' },
  elena: { email: 'elena.sokolova@meridianfleet.example', name: 'Elena Sokolova' },
  sam: { email: 'sam.okafor@meridianfleet.example', name: 'Sam Okafor' },
  tessa: { email: 'tessa.morgan@meridianfleet.example', name: 'Tessa Morgan' },
  luis: { email: 'luis.herrera@meridianfleet.example', name: 'Luis Herrera' },
  dana: { email: 'dana.whitfield@lakeshorelogistics.example', name: 'Dana Whitfield' },
  ray: { email: 'ray.castillo@northlinefuel.example', name: 'Ray Castillo' },
  grace: { email: 'grace.lin@harborbank.example', name: 'Grace Lin' },
  room: { email: 'mog-boardroom@resource.meridianfleet.example', name: 'MOG Boardroom (12)' },
};

type CalKey = 'primary' | 'freight' | 'learning';

interface SeedEvent {
  cal: CalKey;
  day: number;
  /** UTC hour and minute. */
  at: [number, number];
  minutes: number;
  summary: string;
  description: string;
  location?: string;
  with: string[];
  allDay?: boolean;
  recurrence?: string[];
  cancelled?: boolean;
}

const SEED_EVENTS: SeedEvent[] = [
  {
    cal: 'primary',
    day: -20,
    at: [15, 0],
    minutes: 60,
    summary: 'MOG weekly operating review',
    description: 'Portfolio KPIs by company, cash position, open decisions.',
    location: 'MOG Boardroom',
    with: ['jordan', 'priya', 'sam', 'room'],
  },
  {
    cal: 'primary',
    day: -17,
    at: [19, 30],
    minutes: 45,
    summary: 'Meridian Capital pipeline review',
    description: 'Term sheets out, underwriting queue, Harbor Street duplexes.',
    with: ['sam', 'grace'],
  },
  {
    cal: 'primary',
    day: -13,
    at: [15, 0],
    minutes: 60,
    summary: 'MOG weekly operating review',
    description: 'Portfolio KPIs by company, cash position, open decisions.',
    location: 'MOG Boardroom',
    with: ['jordan', 'priya', 'sam', 'room'],
  },
  {
    cal: 'primary',
    day: -11,
    at: [17, 0],
    minutes: 30,
    summary: 'GrowthOS: September campaign readout',
    description: 'Funnel numbers for the fall lead-gen push; budget shift proposal.',
    with: ['jordan'],
  },
  {
    cal: 'primary',
    day: -9,
    at: [20, 0],
    minutes: 60,
    summary: 'Meridian Housing: Maple Court turnover walk-through',
    description: 'Units 4B, 7A and 11C; punch list with Contracting.',
    location: 'Maple Court, 2210 W Maple Ave',
    with: ['tessa', 'luis'],
  },
  {
    cal: 'primary',
    day: -6,
    at: [15, 0],
    minutes: 60,
    summary: 'MOG weekly operating review',
    description: 'Portfolio KPIs by company, cash position, open decisions.',
    location: 'MOG Boardroom',
    with: ['jordan', 'priya', 'sam', 'room'],
  },
  {
    cal: 'primary',
    day: -4,
    at: [18, 0],
    minutes: 30,
    summary: 'Mortgage rate-lock huddle',
    description: 'Locks expiring in the next 10 days and extension costs.',
    with: ['sam'],
    cancelled: true,
  },
  {
    cal: 'primary',
    day: -3,
    at: [16, 30],
    minutes: 45,
    summary: 'Insurance renewal: fleet auto policy',
    description: 'Broker proposal, deductible options, telematics discount.',
    with: ['priya', 'sam'],
  },
  {
    cal: 'primary',
    day: -1,
    at: [21, 0],
    minutes: 30,
    summary: '1:1 Avery / Jordan',
    description: 'Pipeline, hiring, GrowthOS roadmap.',
    with: ['jordan'],
  },
  {
    cal: 'primary',
    day: 0,
    at: [15, 0],
    minutes: 60,
    summary: 'MOG weekly operating review',
    description: 'Portfolio KPIs by company, cash position, open decisions.',
    location: 'MOG Boardroom',
    with: ['jordan', 'priya', 'sam', 'room'],
  },
  {
    cal: 'primary',
    day: 1,
    at: [18, 0],
    minutes: 60,
    summary: 'Lunch with Dana Whitfield (Lakeshore Logistics)',
    description: 'Q3 lane rates and the dedicated-capacity pilot.',
    location: 'Gibsons Italia, Chicago',
    with: ['dana', 'marcus'],
  },
  {
    cal: 'primary',
    day: 2,
    at: [20, 30],
    minutes: 45,
    summary: 'Contracting: Elm St. change order #7',
    description: 'Scope, cost delta and schedule impact of the added load-bearing wall.',
    with: ['luis', 'tessa'],
  },
  {
    cal: 'primary',
    day: 3,
    at: [14, 30],
    minutes: 30,
    summary: 'Capital: Harbor Street duplexes credit memo',
    description: 'Final review before committee.',
    with: ['sam', 'grace'],
  },
  {
    cal: 'primary',
    day: 5,
    at: [0, 0],
    minutes: 0,
    summary: 'Maple Court annual inspections',
    description: 'City inspector on site all day; Housing team covering.',
    location: 'Maple Court, 2210 W Maple Ave',
    with: ['tessa'],
    allDay: true,
  },
  {
    cal: 'primary',
    day: 7,
    at: [15, 0],
    minutes: 60,
    summary: 'MOG weekly operating review',
    description: 'Portfolio KPIs by company, cash position, open decisions.',
    location: 'MOG Boardroom',
    with: ['jordan', 'priya', 'sam', 'room'],
  },
  {
    cal: 'primary',
    day: 9,
    at: [19, 0],
    minutes: 90,
    summary: 'Quarterly budget planning',
    description: 'Q4 budget by company; capex for FleetWorks bays.',
    location: 'MOG Boardroom',
    with: ['priya', 'sam', 'jordan', 'room'],
  },
  {
    cal: 'primary',
    day: 14,
    at: [16, 0],
    minutes: 60,
    summary: 'Board prep: Q3 results',
    description: 'Deck outline, owners per section.',
    with: ['priya', 'sam'],
  },
  {
    cal: 'freight',
    day: -8,
    at: [14, 0],
    minutes: 60,
    summary: 'FleetWorks PM review: units 214-231',
    description: 'Preventive maintenance backlog and bay schedule.',
    location: 'FleetWorks shop, Bay 3',
    with: ['marcus', 'priya'],
  },
  {
    cal: 'freight',
    day: -2,
    at: [19, 0],
    minutes: 45,
    summary: 'Carrier call: Lakeshore Logistics',
    description: 'Detention charges and the Gary, IN lane.',
    with: ['marcus', 'dana'],
  },
  {
    cal: 'freight',
    day: 4,
    at: [17, 0],
    minutes: 60,
    summary: 'Fuel contract review with Northline Fuel',
    description: 'Fuel card pricing, Q4 volume commitment.',
    with: ['marcus', 'ray', 'sam'],
  },
  {
    cal: 'freight',
    day: 10,
    at: [14, 30],
    minutes: 60,
    summary: 'Freight lane planning: Q4',
    description: 'Backhaul coverage, driver home-time plan.',
    with: ['marcus', 'jordan'],
  },
  {
    cal: 'freight',
    day: -14,
    at: [13, 30],
    minutes: 15,
    summary: 'Dispatch stand-up',
    description: 'Loads at risk, driver availability, breakdowns.',
    location: 'Zoom',
    with: ['marcus'],
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=24'],
  },
  {
    cal: 'learning',
    day: -12,
    at: [23, 0],
    minutes: 90,
    summary: 'CDL cohort 14: classroom session',
    description: 'Hours-of-service rules, pre-trip inspection, logbooks.',
    location: 'Meridian Learning, Room 2',
    with: ['elena'],
    recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=12'],
  },
  {
    cal: 'learning',
    day: 6,
    at: [22, 0],
    minutes: 120,
    summary: 'Early Learning: fall open house',
    description: 'Tours, enrollment table, staff introductions.',
    location: 'Meridian Early Learning, Oak Park',
    with: ['elena', 'tessa'],
  },
  {
    cal: 'learning',
    day: 12,
    at: [16, 0],
    minutes: 60,
    summary: 'Instructor sync: Meridian Learning',
    description: 'Cohort 15 curriculum, instructor coverage.',
    with: ['elena'],
  },
];

const calendarIdFor = (s: SeedContext) =>
  `c_${s.rng.id(26, 'abcdefghijklmnopqrstuvwxyz0123456789')}@group.calendar.zoom.us`;
const EVENT_ID_ALPHABET = 'abcdefghijklmnopqrstuv0123456789';
const eventIdFor = (s: SeedContext) => s.rng.id(26, EVENT_ID_ALPHABET);

function seedCalendar(s: SeedContext): CalendarSlice {
  const created = s.at(-400, 15, 0);
  const tz = s.demo.timezone;
  const ids: Record<CalKey, string> = {
    primary: s.demo.email,
    freight: calendarIdFor(s),
    learning: calendarIdFor(s),
  };
  const calendars: CalendarRec[] = [
    {
      id: ids.primary,
      summary: `${s.demo.firstName} ${s.demo.lastName}`,
      description: 'Head of Operations, Meridian Operating Group.',
      location: 'Chicago, IL',
      timeZone: tz,
      colorId: '14',
      backgroundColor: '#9fe1e7',
      foregroundColor: '#000000',
      accessRole: 'owner',
      primary: true,
      created,
    },
    {
      id: ids.freight,
      summary: 'Freight dispatch',
      description:
        'Meridian Freight dispatch board: lane reviews, carrier calls and FleetWorks maintenance windows.',
      location: 'Meridian Freight yard, Joliet, IL',
      timeZone: tz,
      colorId: '6',
      backgroundColor: '#ffad46',
      foregroundColor: '#000000',
      accessRole: 'owner',
      primary: false,
      created,
    },
    {
      id: ids.learning,
      summary: 'Learning cohorts',
      description:
        'Meridian Learning and Meridian Early Learning cohort sessions, open houses and instructor syncs.',
      location: 'Oak Park, IL',
      timeZone: tz,
      colorId: '10',
      backgroundColor: '#7bd148',
      foregroundColor: '#000000',
      accessRole: 'writer',
      primary: false,
      created,
    },
  ];
  const demo: Person = { email: s.demo.email, name: `${s.demo.firstName} ${s.demo.lastName}` };
  const events: EventRec[] = SEED_EVENTS.map((e) => {
    const cal = ids[e.cal];
    const organizer =
      e.cal === 'learning' ? (people['elena']?.email ?? demo.email) : e.cal === 'primary' ? demo.email : cal;
    const start = s.at(e.day, e.at[0], e.at[1]);
    const createdAt = s.at(
      Math.min(e.day, 0) - s.rng.int(3, 12),
      s.rng.int(13, 22),
      s.rng.pick([0, 15, 30, 45]),
    );
    const attendees: Attendee[] = [demo, ...e.with.map((k) => people[k]).filter((x): x is Person => !!x)].map(
      (x) => {
        const isOrg = x.email === organizer || (x === demo && e.cal === 'freight');
        const resource = x.email.includes('@resource.');
        return {
          email: x.email,
          displayName: x.name,
          ...(resource ? { resource: true } : {}),
          responseStatus:
            isOrg || resource
              ? 'accepted'
              : s.rng.pick<ResponseStatus>([
                  'accepted',
                  'accepted',
                  'accepted',
                  'tentative',
                  'needsAction',
                  'declined',
                ]),
        };
      },
    );
    const startDate = start.slice(0, 10);
    const ev: EventRec = {
      id: eventIdFor(s),
      calendarId: cal,
      summary: e.summary,
      description: e.description,
      location: e.location,
      allDay: !!e.allDay,
      startDate: e.allDay ? startDate : undefined,
      endDate: e.allDay ? addDays(startDate, 1) : undefined,
      startTz: tz,
      endTz: tz,
      startMs: e.allDay ? dateMs(startDate, tz) : Date.parse(start),
      endMs: e.allDay ? dateMs(addDays(startDate, 1), tz) : Date.parse(start) + e.minutes * 60_000,
      attendees,
      recurrence: e.recurrence,
      reminders: { useDefault: true },
      status: e.cancelled ? 'cancelled' : 'confirmed',
      transparency: e.allDay ? 'transparent' : 'opaque',
      visibility: 'default',
      guestsCanInviteOthers: true,
      guestsCanModify: false,
      guestsCanSeeOtherGuests: true,
      creator: e.cal === 'learning' ? organizer : demo.email,
      organizer,
      created: createdAt,
      updated: e.cancelled ? s.at(e.day - 1, 16, 0) : createdAt,
      updatedMs: Date.parse(e.cancelled ? s.at(e.day - 1, 16, 0) : createdAt),
      sequence: e.cancelled ? 1 : 0,
      deleted: e.cancelled ? true : undefined,
    };
    return ev;
  });
  return { calendars, events };
}

// ---------------------------------------------------------------------------------------------
// Output shapes.

const etagOf = (ms: number) => `"${ms}000"`;

function calendarListEntry(cal: CalendarRec) {
  return {
    kind: 'calendar#calendarListEntry',
    etag: etagOf(Date.parse(cal.created)),
    id: cal.id,
    summary: cal.summary,
    description: cal.description,
    location: cal.location,
    timeZone: cal.timeZone,
    colorId: cal.colorId,
    backgroundColor: cal.backgroundColor,
    foregroundColor: cal.foregroundColor,
    selected: true,
    accessRole: cal.accessRole,
    defaultReminders:
      cal.accessRole === 'owner' || cal.accessRole === 'writer' ? [{ method: 'popup', minutes: 10 }] : [],
    ...(cal.primary
      ? {
          notificationSettings: {
            notifications: [
              { type: 'eventCreation', method: 'email' },
              { type: 'eventChange', method: 'email' },
              { type: 'eventCancellation', method: 'email' },
              { type: 'eventResponse', method: 'email' },
            ],
          },
          primary: true,
        }
      : {}),
  };
}

interface View {
  ev: EventRec;
  /** Set for one instance of a recurring event. */
  inst?: { startMs: number; id: string };
}

function renderEvent(ctx: SandboxContext, cal: CalendarRec, v: View, displayTz?: string) {
  const { ev, inst } = v;
  const tz = eventTz(ev, cal);
  const startMs = inst?.startMs ?? ev.startMs;
  const endMs = startMs + (ev.endMs - ev.startMs);
  const time = (ms: number, zone: string | undefined) => {
    const t: TimeInput = ev.allDay
      ? { date: ymd(localParts(ms, zone ?? tz)) }
      : { dateTime: rfc3339(ms, displayTz ?? zone ?? cal.timeZone) };
    if (zone) t.timeZone = zone;
    return t;
  };
  const start =
    inst || !ev.allDay
      ? time(startMs, ev.startTz)
      : { date: ev.startDate ?? '', ...(ev.startTz ? { timeZone: ev.startTz } : {}) };
  const end =
    inst || !ev.allDay
      ? time(endMs, ev.endTz ?? ev.startTz)
      : { date: ev.endDate ?? '', ...(ev.endTz ? { timeZone: ev.endTz } : {}) };
  const me = ctx.demo.email.toLowerCase();
  const person = (email: string) => ({
    email,
    ...(email === cal.id && !cal.primary ? { displayName: cal.summary } : {}),
    ...(email.toLowerCase() === me ? { self: true } : {}),
  });
  return {
    kind: 'calendar#event',
    etag: etagOf(ev.updatedMs),
    id: inst?.id ?? ev.id,
    status: ev.deleted ? 'cancelled' : ev.status,
    created: ev.created,
    updated: ev.updated,
    summary: ev.summary,
    ...(ev.description !== undefined ? { description: ev.description } : {}),
    ...(ev.location !== undefined ? { location: ev.location } : {}),
    ...(ev.colorId !== undefined ? { colorId: ev.colorId } : {}),
    creator: person(ev.creator),
    organizer: person(ev.organizer),
    start,
    end,
    ...(inst
      ? { recurringEventId: ev.id, originalStartTime: start }
      : ev.recurrence?.length
        ? { recurrence: ev.recurrence }
        : {}),
    transparency: ev.transparency,
    visibility: ev.visibility,
    iCalUID: `${ev.id}@zoom.us`,
    sequence: ev.sequence,
    ...(ev.attendees.length
      ? {
          attendees: ev.attendees.map((a) => ({
            email: a.email,
            ...(a.displayName !== undefined ? { displayName: a.displayName } : {}),
            ...(a.email.toLowerCase() === ev.organizer.toLowerCase() ? { organizer: true } : {}),
            ...(a.email.toLowerCase() === me ? { self: true } : {}),
            ...(a.resource ? { resource: true } : {}),
            ...(a.optional ? { optional: true } : {}),
            responseStatus: a.responseStatus,
            ...(a.additionalGuests ? { additionalGuests: a.additionalGuests } : {}),
          })),
        }
      : {}),
    guestsCanInviteOthers: ev.guestsCanInviteOthers,
    guestsCanModify: ev.guestsCanModify,
    guestsCanSeeOtherGuests: ev.guestsCanSeeOtherGuests,
    reminders: ev.reminders.overrides
      ? { useDefault: ev.reminders.useDefault, overrides: ev.reminders.overrides }
      : { useDefault: ev.reminders.useDefault },
    eventType: 'default',
  };
}

// ---------------------------------------------------------------------------------------------

const boolParam = (req: SandboxRequest, name: string): boolean | undefined => {
  const v = q(req, name);
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === 'false') return v === 'true';
  throw calErr.bad([name]);
};

const ROLE_RANK: Record<AccessRole, number> = { freeBusyReader: 0, reader: 1, writer: 2, owner: 3 };

export const calendarModule = defineModule<CalendarSlice>({
  name: 'calendar',
  seed: seedCalendar,
  register(ctx) {
    const slice = () => ctx.slice<CalendarSlice>('calendar');
    const nowMs = () => ctx.now().getTime();

    const findCal = (calId: string): CalendarRec => {
      const id = calId === 'primary' ? ctx.demo.email : calId;
      const cal = slice().calendars.find((c) => c.id.toLowerCase() === id.toLowerCase());
      if (!cal) throw calErr.notFound();
      return cal;
    };
    const writable = (cal: CalendarRec) => {
      if (cal.accessRole !== 'owner' && cal.accessRole !== 'writer') throw calErr.forbidden();
    };
    const checkSendUpdates = (req: SandboxRequest) => {
      const v = q(req, 'sendUpdates');
      if (v !== undefined && v !== 'all' && v !== 'externalOnly' && v !== 'none')
        throw calErr.bad(['sendUpdates']);
    };
    const checkSize = (req: SandboxRequest) => {
      const v = q(req, 'maxResults');
      if (v !== undefined && v !== '' && !/^[1-9]\d*$/.test(v)) throw calErr.bad(['maxResults']);
    };
    /** A stored event, or one instance of a recurring one (id `<eventId>_<stamp>`). */
    const findView = (cal: CalendarRec, eventId: string): View => {
      const events = slice().events.filter((e) => e.calendarId === cal.id && !e.deleted);
      const ev = events.find((e) => e.id === eventId);
      if (ev) return { ev };
      const cut = eventId.lastIndexOf('_');
      const master =
        cut > 0 ? events.find((e) => e.id === eventId.slice(0, cut) && e.recurrence?.length) : undefined;
      if (master) {
        const tz = eventTz(master, cal);
        const ms = parseIcsStamp(eventId.slice(cut + 1), tz);
        if (ms !== undefined && occurrences(master, tz, ms, ms + 1).includes(ms))
          return { ev: master, inst: { startMs: ms, id: eventId } };
      }
      throw calErr.notFound();
    };
    const touch = (ev: EventRec) => {
      const t = nowMs();
      ev.updatedMs = Math.max(t, ev.updatedMs + 1);
      ev.updated = zoomTime(new Date(ev.updatedMs));
    };
    const emit = (event: string, cal: CalendarRec, eventId: string) =>
      ctx.webhooks.emit(
        `calendar.${event}`,
        { resource_id: cal.id, event_id: eventId },
        { operator: ctx.demo.email },
      );

    ctx.route({
      method: 'GET',
      url: '/calendars/users/:userIdentifier/calendarList',
      scopes: CAL_SCOPES.calendarList,
      label: 'HEAVY',
      handler: (req) => {
        try {
          ctx.user(req, p(req, 'userIdentifier'));
        } catch {
          throw calErr.notFound();
        }
        checkSize(req);
        const min = q(req, 'minAccessRole');
        if (min !== undefined && !(min in ROLE_RANK)) throw calErr.bad(['minAccessRole']);
        boolParam(req, 'showDeleted');
        boolParam(req, 'showHidden');
        const items = slice().calendars.filter(
          (c) => min === undefined || ROLE_RANK[c.accessRole] >= ROLE_RANK[min as AccessRole],
        );
        const page = ctx.paginate(req, items, {
          defaultSize: 100,
          maxSize: 250,
          tokenParam: 'pageToken',
          sizeParam: 'maxResults',
        });
        return {
          kind: 'calendar#calendarList',
          etag: etagOf(Math.max(...slice().calendars.map((c) => Date.parse(c.created)))),
          ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
          items: page.items.map(calendarListEntry),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId',
      scopes: CAL_SCOPES.calendar,
      label: 'LIGHT',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        return {
          kind: 'calendar#calendar',
          etag: etagOf(Date.parse(cal.created)),
          id: cal.id,
          summary: cal.summary,
          description: cal.description,
          location: cal.location,
          timeZone: cal.timeZone,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId/events',
      scopes: CAL_SCOPES.listEvents,
      label: 'MEDIUM',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSize(req);
        const errors: string[] = [];
        const tz = q(req, 'timeZone');
        if (tz !== undefined && !isTimeZone(tz)) errors.push('timeZone');
        const rawMin = q(req, 'timeMin');
        const rawMax = q(req, 'timeMax');
        const timeMin = rawMin === undefined ? undefined : parseRfc3339(rawMin);
        const timeMax = rawMax === undefined ? undefined : parseRfc3339(rawMax);
        if (rawMin !== undefined && timeMin === undefined) errors.push('timeMin');
        if (rawMax !== undefined && timeMax === undefined) errors.push('timeMax');
        if (timeMin !== undefined && timeMax !== undefined && timeMin >= timeMax) errors.push('timeMax');
        const orderBy = q(req, 'orderBy');
        if (orderBy !== undefined && orderBy !== 'startTime' && orderBy !== 'updated') errors.push('orderBy');
        const sync = q(req, 'syncToken');
        let since: number | undefined;
        if (sync !== undefined) {
          const decoded = Buffer.from(sync, 'base64').toString('utf8');
          if (/^\d{10,16}$/.test(decoded)) since = Number(decoded);
          else errors.push('syncToken');
        }
        if (errors.length) throw calErr.bad(errors);
        const single = boolParam(req, 'singleEvents') ?? false;
        const showDeleted = (boolParam(req, 'showDeleted') ?? false) || since !== undefined;

        const from = timeMin ?? -8.64e15;
        const to = timeMax ?? 8.64e15;
        const horizon = (ev: EventRec) => Math.min(to, Math.max(nowMs(), ev.startMs) + 366 * DAY);
        const views: View[] = [];
        for (const ev of slice().events) {
          if (ev.calendarId !== cal.id) continue;
          if (since !== undefined && ev.updatedMs <= since) continue;
          if ((ev.deleted || ev.status === 'cancelled') && !showDeleted) continue;
          const etz = eventTz(ev, cal);
          if (ev.recurrence?.length) {
            const occ = occurrences(ev, etz, from, horizon(ev));
            if (single)
              for (const ms of occ)
                views.push({ ev, inst: { startMs: ms, id: `${ev.id}_${stampOf(ev, ms, etz)}` } });
            else if (occ.length || (ev.deleted && since !== undefined)) views.push({ ev });
          } else if ((ev.endMs > from || ev.startMs >= from) && ev.startMs < to) views.push({ ev });
        }
        const startOf = (v: View) => v.inst?.startMs ?? v.ev.startMs;
        views.sort((a, b) =>
          orderBy === 'updated'
            ? a.ev.updatedMs - b.ev.updatedMs || startOf(a) - startOf(b)
            : startOf(a) - startOf(b) || a.ev.id.localeCompare(b.ev.id),
        );
        const page = ctx.paginate(req, views, {
          defaultSize: 250,
          maxSize: 2500,
          tokenParam: 'pageToken',
          sizeParam: 'maxResults',
        });
        const updated = Math.max(
          Date.parse(cal.created),
          ...slice()
            .events.filter((e) => e.calendarId === cal.id)
            .map((e) => e.updatedMs),
        );
        return {
          kind: 'calendar#events',
          etag: etagOf(updated),
          summary: cal.summary,
          updated: zoomTime(new Date(updated)),
          timeZone: tz ?? cal.timeZone,
          accessRole: cal.accessRole,
          defaultReminders: [{ method: 'popup', minutes: 10 }],
          ...(page.nextPageToken
            ? { nextPageToken: page.nextPageToken }
            : { nextSyncToken: Buffer.from(String(nowMs())).toString('base64') }),
          items: page.items.map((v) => renderEvent(ctx, cal, v, tz)),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.getEvent,
      label: 'LIGHT',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        const tz = q(req, 'timeZone');
        if (tz !== undefined && !isTimeZone(tz)) throw calErr.bad(['timeZone']);
        return renderEvent(ctx, cal, findView(cal, p(req, 'eventId')), tz);
      },
    });

    const create = (cal: CalendarRec, f: EventInput): EventRec => {
      const missing = [...(f.start ? [] : ['start']), ...(f.end ? [] : ['end'])];
      if (missing.length) throw calErr.bad(missing);
      const id = [...randomBytes(26)].map((b) => EVENT_ID_ALPHABET[b % 32] ?? 'a').join('');
      const t = nowMs();
      const organizer = cal.primary ? ctx.demo.email : cal.id;
      const ev: EventRec = {
        id,
        calendarId: cal.id,
        summary: f.summary ?? '',
        description: f.description,
        location: f.location,
        colorId: f.colorId,
        allDay: false,
        startMs: 0,
        endMs: 0,
        attendees: (f.attendees ?? []).map((a) =>
          a.email.toLowerCase() === ctx.demo.email.toLowerCase() ? { ...a, responseStatus: 'accepted' } : a,
        ),
        recurrence: f.recurrence,
        reminders: f.reminders ?? { useDefault: true },
        status: f.status ?? 'confirmed',
        transparency: f.transparency ?? 'opaque',
        visibility: f.visibility ?? 'default',
        guestsCanInviteOthers: f.guestsCanInviteOthers ?? true,
        guestsCanModify: f.guestsCanModify ?? false,
        guestsCanSeeOtherGuests: f.guestsCanSeeOtherGuests ?? true,
        creator: ctx.demo.email,
        organizer,
        created: zoomTime(new Date(t)),
        updated: zoomTime(new Date(t)),
        updatedMs: t,
        sequence: 0,
      };
      applyTimes(ev, f.start as TimeInput, f.end as TimeInput, cal.timeZone);
      slice().events.push(ev);
      ctx.changed();
      emit('event_create', cal, ev.id);
      return ev;
    };

    ctx.route({
      method: 'POST',
      url: '/calendars/:calId/events',
      scopes: CAL_SCOPES.createEvent,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        writable(cal);
        const ev = create(cal, readEventInput(body(req)));
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'POST',
      url: '/calendars/:calId/events/quickAdd',
      scopes: CAL_SCOPES.quickAdd,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const text = q(req, 'text');
        if (text === undefined || text.trim() === '' || text.length > 1024) throw calErr.bad(['text']);
        writable(cal);
        const parsed = parseQuickAdd(text, ctx.now(), cal.timeZone);
        const ev = create(cal, {
          summary: parsed.summary,
          ...(parsed.location ? { location: parsed.location } : {}),
          start: parsed.start,
          end: parsed.end,
          attendees: parsed.attendees.map((email) => ({ email, responseStatus: 'needsAction' })),
        });
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'PATCH',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.updateEvent,
      label: 'HEAVY',
      handler: (req) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const v = findView(cal, p(req, 'eventId'));
        if (v.inst) throw calErr.notFound();
        writable(cal);
        const ev = v.ev;
        const f = readEventInput(body(req));
        if (f.start || f.end || f.recurrence) {
          const before = [ev.startMs, ev.endMs, ev.allDay];
          const probe: EventRec = { ...ev, recurrence: f.recurrence ?? ev.recurrence };
          applyTimes(
            probe,
            f.start ?? timeInputOf(ev, 'start', cal.timeZone),
            f.end ?? timeInputOf(ev, 'end', cal.timeZone),
            cal.timeZone,
          );
          Object.assign(ev, {
            allDay: probe.allDay,
            startDate: probe.startDate,
            endDate: probe.endDate,
            startTz: probe.startTz,
            endTz: probe.endTz,
            startMs: probe.startMs,
            endMs: probe.endMs,
            recurrence: probe.recurrence,
          });
          if (before[0] !== ev.startMs || before[1] !== ev.endMs || before[2] !== ev.allDay) ev.sequence += 1;
        }
        if (f.summary !== undefined) ev.summary = f.summary;
        if (f.description !== undefined) ev.description = f.description;
        if (f.location !== undefined) ev.location = f.location;
        if (f.colorId !== undefined) ev.colorId = f.colorId;
        if (f.attendees) {
          const old = new Map(ev.attendees.map((a) => [a.email.toLowerCase(), a]));
          ev.attendees = f.attendees.map((a) => {
            const prev = old.get(a.email.toLowerCase());
            // An attendee's answer survives a patch that does not set it.
            return prev && a.responseStatus === 'needsAction'
              ? { ...a, responseStatus: prev.responseStatus }
              : a;
          });
        }
        if (f.reminders) ev.reminders = f.reminders;
        if (f.status) ev.status = f.status;
        if (f.transparency) ev.transparency = f.transparency;
        if (f.visibility) ev.visibility = f.visibility;
        if (f.guestsCanInviteOthers !== undefined) ev.guestsCanInviteOthers = f.guestsCanInviteOthers;
        if (f.guestsCanModify !== undefined) ev.guestsCanModify = f.guestsCanModify;
        if (f.guestsCanSeeOtherGuests !== undefined) ev.guestsCanSeeOtherGuests = f.guestsCanSeeOtherGuests;
        touch(ev);
        ctx.changed();
        emit('event_update', cal, ev.id);
        return renderEvent(ctx, cal, { ev });
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/calendars/:calId/events/:eventId',
      scopes: CAL_SCOPES.deleteEvent,
      label: 'HEAVY',
      handler: (req, reply) => {
        const cal = findCal(p(req, 'calId'));
        checkSendUpdates(req);
        const v = findView(cal, p(req, 'eventId'));
        writable(cal);
        if (v.inst) {
          // Deleting one instance of a series excludes that date from the series.
          v.ev.recurrence = [
            ...(v.ev.recurrence ?? []),
            `EXDATE:${new Date(v.inst.startMs).toISOString().replace(/[-:]|\.\d{3}/g, '')}`,
          ];
        } else {
          v.ev.deleted = true;
          v.ev.status = 'cancelled';
        }
        touch(v.ev);
        ctx.changed();
        emit('event_delete', cal, v.inst?.id ?? v.ev.id);
        return reply.code(204).send();
      },
    });
  },
});
