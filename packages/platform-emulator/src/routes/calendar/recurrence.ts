/**
 * Recurrence for the calendar emulator: RRULE (DAILY / WEEKLY with BYDAY / MONTHLY / YEARLY,
 * INTERVAL, COUNT, UNTIL) and EXDATE, expanded into occurrence instants.
 */
import { isTimeZone } from '../../time.js';
import type { CalendarRec, EventRec } from './records.js';
import { DAY, localMs, localParts, validFields, ymd } from './time.js';

interface Rule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
  interval: number;
  count?: number;
  untilMs?: number;
  byDay?: number[];
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

export function parseIcsStamp(v: string, tz: string): number | undefined {
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

export const validRecurrenceLine = (line: string) =>
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

export const eventTz = (ev: EventRec, cal: CalendarRec) => ev.startTz ?? cal.timeZone;

/** Start instants of a recurring event's instances overlapping [fromMs, toMs). */
export function occurrences(ev: EventRec, tz: string, fromMs: number, toMs: number): number[] {
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

export const stampOf = (ev: EventRec, ms: number, tz: string) =>
  ev.allDay
    ? ymd(localParts(ms, tz)).replace(/-/g, '')
    : new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');
