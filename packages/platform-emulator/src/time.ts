/**
 * Date handling the platform's way: `yyyy-MM-ddTHH:mm:ssZ` in UTC, or a local time without zone
 * plus a `timezone` name, which is converted to UTC with the IANA rules.
 */
import { wallClockMs } from './wall-clock.js';

const UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const LOCAL_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Offset of `tz` from UTC at the given instant, in minutes. */
function offsetMinutes(tz: string, at: Date): number {
  return Math.round((wallClockMs(at.getTime(), tz) - at.getTime()) / 60_000);
}

/** Parses a start time as the platform accepts it; undefined when it is not valid. */
export function parseStartTime(value: string, timezone: string | undefined): Date | undefined {
  if (UTC_RE.test(value)) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  if (LOCAL_RE.test(value)) {
    const tz = timezone ?? 'UTC';
    if (!isTimeZone(tz)) return undefined;
    const naive = new Date(`${value}Z`);
    if (Number.isNaN(naive.getTime())) return undefined;
    // Two passes handle the offset changing across a DST boundary.
    let guess = new Date(naive.getTime() - offsetMinutes(tz, naive) * 60_000);
    guess = new Date(naive.getTime() - offsetMinutes(tz, guess) * 60_000);
    return guess;
  }
  return undefined;
}

/** The platform's UTC form, without milliseconds. */
export const zoomTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
