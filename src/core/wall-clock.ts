/**
 * The wall clock of an IANA time zone at an instant, through one cached Intl formatter per
 * zone: the primitive with which the gateway's stored events and the emulator's meetings and
 * calendar turn local times into instants and back.
 */

export interface WallClock {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
  ss: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
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
    // Zone names arrive from callers in any spelling (Intl accepts any case), so the cache is
    // bounded: past the ~600 real names it starts over rather than grow.
    if (formats.size >= 1024) formats.clear();
    formats.set(tz, f);
  }
  return f;
}

/** What a clock in `tz` reads at instant `ms`. */
export function wallClockAt(ms: number, tz: string): WallClock {
  const p: Record<string, string> = {};
  for (const part of format(tz).formatToParts(ms)) p[part.type] = part.value;
  return {
    y: Number(p['year']),
    m: Number(p['month']),
    d: Number(p['day']),
    hh: Number(p['hour']),
    mm: Number(p['minute']),
    ss: Number(p['second']),
  };
}

/** That reading taken as UTC, in milliseconds: its difference from `ms` is the zone's offset. */
export function wallClockMs(ms: number, tz: string): number {
  const w = wallClockAt(ms, tz);
  return Date.UTC(w.y, w.m - 1, w.d, w.hh, w.mm, w.ss) + (((ms % 1000) + 1000) % 1000);
}
