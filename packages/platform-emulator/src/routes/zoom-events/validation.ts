/** Zoom Events: validation of the create-event body into a Draft. */
import { zerr, ZoomError } from '../../context.js';
import { isTimeZone, zoomTime } from '../../time.js';
import { ACCESS_LEVELS, ATTENDANCE, CATEGORIES, EVENT_TYPES, UTC_RE } from './constants.js';
import type { EventRec, RecurrenceRec } from './types.js';

export interface Draft {
  name: string;
  description: string;
  timezone: string;
  event_type: EventRec['event_type'];
  access_level: EventRec['access_level'];
  hub_id: string;
  attendance_type: EventRec['attendance_type'];
  meeting_type?: 'MEETING' | 'WEBINAR';
  recurrence?: RecurrenceRec;
  categories: string[];
  tags: string[];
  calendar: { start_time: string; end_time: string }[];
  contact_name?: string;
  lobby_start_time?: string;
  lobby_end_time?: string;
  blocked_countries: string[];
  physical_location?: string;
  tagline: string;
}

const isStr = (v: unknown): v is string => typeof v === 'string';
const strArray = (v: unknown, max: number): v is string[] =>
  Array.isArray(v) && v.length <= max && v.every(isStr);
const INT_FIELDS = [
  'type',
  'repeat_interval',
  'monthly_week_day',
  'monthly_week',
  'end_times',
  'duration',
] as const;

/** Validates a create body: 400 code 300 for field problems, then the documented schedule codes. */
export function readEvent(b: Record<string, unknown>): Draft {
  const errors: { field: string; message: string }[] = [];
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  const need = (k: string, ok: (v: unknown) => boolean) => {
    if (!ok(b[k])) bad(k);
  };
  need('name', (v) => isStr(v) && v.trim() !== '' && v.length <= 200);
  need('description', (v) => isStr(v) && v.length <= 10_000);
  need('timezone', (v) => isStr(v) && isTimeZone(v));
  need('event_type', (v) => (EVENT_TYPES as readonly unknown[]).includes(v));
  need('access_level', (v) => (ACCESS_LEVELS as readonly unknown[]).includes(v));
  need('hub_id', (v) => isStr(v) && v !== '');
  need('attendance_type', (v) => (ATTENDANCE as readonly unknown[]).includes(v));
  const opt = (k: string, ok: (v: unknown) => boolean) => {
    if (k in b && !ok(b[k])) bad(k);
  };
  opt('meeting_type', (v) => v === 'MEETING' || v === 'WEBINAR');
  if (b['event_type'] === 'SIMPLE_EVENT' && !('meeting_type' in b)) bad('meeting_type');
  opt('categories', (v) => strArray(v, 20) && v.every((c) => CATEGORIES.includes(c)));
  opt('tags', (v) => strArray(v, 200));
  opt('blocked_countries', (v) => strArray(v, 200) && v.every((c) => /^[A-Z]{2}$/.test(c)));
  opt('contact_name', isStr);
  opt('physical_location', isStr);
  opt('tagline', isStr);
  opt('lobby_start_time', (v) => isStr(v) && UTC_RE.test(v));
  opt('lobby_end_time', (v) => isStr(v) && UTC_RE.test(v));
  opt(
    'calendar',
    (v) =>
      Array.isArray(v) &&
      v.length <= 6 &&
      v.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c)),
  );
  opt('recurrence', validRecurrence);
  if (b['event_type'] === 'RECURRING' && !('recurrence' in b)) bad('recurrence');
  if (errors.length) throw zerr.validation(errors);

  const calendar = readCalendar(b['calendar']);
  const r = b['recurrence'] as Record<string, unknown> | undefined;
  const recurrence: RecurrenceRec | undefined = r
    ? Object.fromEntries(
        Object.entries(r).filter(([k]) =>
          [...INT_FIELDS, 'weekly_days', 'monthly_days', 'end_date_time'].includes(k),
        ),
      )
    : undefined;
  return {
    name: b['name'] as string,
    description: b['description'] as string,
    timezone: b['timezone'] as string,
    event_type: b['event_type'] as Draft['event_type'],
    access_level: b['access_level'] as Draft['access_level'],
    hub_id: b['hub_id'] as string,
    attendance_type: b['attendance_type'] as Draft['attendance_type'],
    ...(isStr(b['meeting_type']) ? { meeting_type: b['meeting_type'] as 'MEETING' | 'WEBINAR' } : {}),
    ...(recurrence ? { recurrence } : {}),
    categories: (b['categories'] as string[] | undefined) ?? [],
    tags: (b['tags'] as string[] | undefined) ?? [],
    calendar,
    ...(isStr(b['contact_name']) ? { contact_name: b['contact_name'] } : {}),
    ...(isStr(b['lobby_start_time']) ? { lobby_start_time: zoomTime(new Date(b['lobby_start_time'])) } : {}),
    ...(isStr(b['lobby_end_time']) ? { lobby_end_time: zoomTime(new Date(b['lobby_end_time'])) } : {}),
    blocked_countries: (b['blocked_countries'] as string[] | undefined) ?? [],
    ...(isStr(b['physical_location']) ? { physical_location: b['physical_location'] } : {}),
    tagline: isStr(b['tagline']) ? b['tagline'] : '',
  };
}

/** A recurrence object: integer fields, a known type, weekdays 1-7, month days 1-31, a UTC end. */
function validRecurrence(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  if (INT_FIELDS.some((k) => k in r && !Number.isInteger(r[k]))) return false;
  if ('type' in r && ![1, 2, 3].includes(r['type'] as number)) return false;
  if (
    'weekly_days' in r &&
    !(
      Array.isArray(r['weekly_days']) &&
      r['weekly_days'].every((d) => Number.isInteger(d) && d >= 1 && d <= 7)
    )
  )
    return false;
  if (
    'monthly_days' in r &&
    !(
      Array.isArray(r['monthly_days']) &&
      r['monthly_days'].every((d) => Number.isInteger(d) && d >= 1 && d <= 31)
    )
  )
    return false;
  return !('end_date_time' in r) || (isStr(r['end_date_time']) && UTC_RE.test(r['end_date_time']));
}

/** The schedule's days, each with a start before its end, together at most 6 days. */
function readCalendar(raw: unknown): { start_time: string; end_time: string }[] {
  const calendar: { start_time: string; end_time: string }[] = [];
  for (const c of (raw as Record<string, unknown>[] | undefined) ?? []) {
    const s = c['start_time'];
    const e = c['end_time'];
    if (!isStr(s) || !isStr(e))
      throw new ZoomError(400, 26204, 'Calender must contains start_time and end_time.');
    if (!UTC_RE.test(s) || !UTC_RE.test(e))
      throw zerr.validation([{ field: 'calendar', message: 'Invalid field.' }]);
    if (Date.parse(e) <= Date.parse(s))
      throw new ZoomError(400, 26203, 'Event end_time must be after event start_time.');
    calendar.push({ start_time: zoomTime(new Date(s)), end_time: zoomTime(new Date(e)) });
  }
  if (calendar.length) {
    const first = Math.min(...calendar.map((c) => Date.parse(c.start_time)));
    const last = Math.max(...calendar.map((c) => Date.parse(c.end_time)));
    if (last - first > 6 * 86_400_000)
      throw new ZoomError(400, 26202, 'Event schedule cannot be more than 6 days.');
  }
  return calendar;
}
