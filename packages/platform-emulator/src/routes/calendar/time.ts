/**
 * Time for the calendar emulator: IANA zones, RFC 3339, local wall-clock time to instants and
 * back, and the date and date-time validity checks its inputs need.
 */
import { wallClockAt, type WallClock } from '../../wall-clock.js';
import { parseStartTime } from '../../time.js';

export const DAY = 86_400_000;
export const pad = (n: number, w = 2) => String(n).padStart(w, '0');

interface LocalParts extends WallClock {
  /** 0 = Sunday. */
  wd: number;
}

export function localParts(ms: number, tz: string): LocalParts {
  const w = wallClockAt(ms, tz);
  return { ...w, wd: new Date(Date.UTC(w.y, w.m - 1, w.d)).getUTCDay() };
}

export const ymd = (x: { y: number; m: number; d: number }) => `${pad(x.y, 4)}-${pad(x.m)}-${pad(x.d)}`;

/** The instant of a local wall-clock time in `tz` (fields may overflow: 24:00 is the next day). */
export function localMs(
  y: number,
  m: number,
  d: number,
  hh: number,
  mm: number,
  ss: number,
  tz: string,
): number {
  const naive = new Date(Date.UTC(y, m - 1, d, hh, mm, ss)).toISOString().slice(0, 19);
  return parseStartTime(naive, tz)?.getTime() ?? Date.parse(`${naive}Z`);
}

export const dateMs = (date: string, tz: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return localMs(y, m, d, 0, 0, 0, tz);
};

export const addDays = (date: string, n: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** RFC 3339 in `tz`'s wall clock, with its offset ("Z" for UTC), as the platform writes dateTime. */
export function rfc3339(ms: number, tz: string): string {
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

export function validFields(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
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
export function parseRfc3339(v: string): number | undefined {
  const m = RFC3339_RE.exec(v);
  if (!m) return undefined;
  const n = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validFields(...n)) return undefined;
  const t = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${(m[8] ?? 'Z').toUpperCase()}`);
  return Number.isNaN(t) ? undefined : t;
}

/** An event dateTime: RFC 3339 with an offset, or a local time when a time zone is given. */
export function parseDateTime(v: string, tz: string | undefined): number | undefined {
  if (RFC3339_RE.test(v)) return parseRfc3339(v);
  const m = LOCAL_RE.exec(v);
  if (!m || !tz) return undefined;
  const n = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (!validFields(...n)) return undefined;
  return localMs(...n, tz);
}

export const validDate = (v: string) => {
  const m = DATE_RE.exec(v);
  return !!m && validFields(Number(m[1]), Number(m[2]), Number(m[3]));
};
