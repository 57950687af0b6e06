/**
 * A stored event's start time in its two forms: UTC (`2030-12-20T17:00:00.000Z`) or a local
 * wall-clock time without zone (`2030-12-20T11:00:00`) read in the event's IANA time zone.
 * Turns either form into its instant and an instant back into a given form, so the store keeps
 * the form the caller chose while the platform, which answers in UTC, holds the same moment.
 */
import { wallClockMs } from '../core/wall-clock.js';

export const UTC_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;
export const LOCAL_START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

export const isUtcStart = (v: string): boolean => UTC_START.test(v);

/** The form a start is stored and answered in: UTC gains its milliseconds, a local time stays. */
export const normalStart = (v: string): string => (isUtcStart(v) ? new Date(v).toISOString() : v);

/** The platform's UTC form, without milliseconds. */
export const platformUtc = (v: string): string => new Date(v).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The instant a start names: UTC as is, a local time in `tz`; NaN when it names none. */
export function instantOf(start: string, tz: string | null | undefined): number {
  if (isUtcStart(start)) return Date.parse(start);
  if (!LOCAL_START.test(start) || !tz) return Number.NaN;
  const naive = Date.parse(`${start}Z`);
  if (Number.isNaN(naive)) return naive;
  // The offset at the guess, then at the corrected guess: right on both sides of a DST change,
  // and the first pass of an hour the clocks repeat.
  const before = wallClockMs(naive, tz) - naive;
  const once = naive - before;
  const after = wallClockMs(once, tz) - once;
  const instant = naive - after;
  // A time the clocks skip reads as that time after the change (Temporal's 'compatible'):
  // the offset from before the jump, which is the smaller of the two.
  return wallClockMs(instant, tz) === naive ? instant : naive - Math.min(before, after);
}

/** Instant `ms` in the form of `like`: UTC with milliseconds, or the local time in `tz`. */
export function inFormOf(like: string, ms: number, tz: string | null): string {
  if (isUtcStart(like) || !tz) return new Date(ms).toISOString();
  return new Date(wallClockMs(ms, tz)).toISOString().slice(0, 19);
}
