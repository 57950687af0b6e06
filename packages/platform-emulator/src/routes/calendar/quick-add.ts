/**
 * quickAdd for the calendar emulator: a small deterministic parser for texts like "Lunch with
 * Sam tomorrow at 1pm".
 */
import type { TimeInput } from './event-input.js';
import { addDays, localMs, localParts, pad, rfc3339, validFields, ymd } from './time.js';

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

/** The text still to read; `take` removes what a pattern matched and notes that something was. */
class Rest {
  text: string;
  took = false;
  constructor(text: string) {
    this.text = ` ${text.replace(/\s+/g, ' ').trim()} `;
  }
  take(re: RegExp): RegExpExecArray | null {
    const m = re.exec(this.text);
    if (m) {
      this.text = `${this.text.slice(0, m.index)} ${this.text.slice(m.index + m[0].length)}`;
      this.took = true;
    }
    return m;
  }
}

type Today = ReturnType<typeof localParts>;

/** Parses a quickAdd text in `tz` relative to `now`; a text without a time starts at the next full hour. */
export function parseQuickAdd(text: string, now: Date, tz: string): QuickAdd {
  const rest = new Rest(text);
  const attendees: string[] = [];
  for (
    let m = rest.take(/<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>?/);
    m;
    m = rest.take(/<?([\w.+-]+@[\w-]+(?:\.[\w-]+)+)>?/)
  ) {
    if (m[1]) attendees.push(m[1]);
  }
  const today = localParts(now.getTime(), tz);
  const { date, defaultHour } = takeDate(rest, today);
  const time = takeTime(rest);
  const durationMin = takeDuration(rest, time.durationMin);
  const startMin =
    time.startMin === undefined && defaultHour !== undefined ? defaultHour * 60 : time.startMin;
  const { summary, location } = takeSummary(rest, text);
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
  const startMs = startOf(now, tz, today, date, startMin);
  return ret(
    { dateTime: rfc3339(startMs, tz), timeZone: tz },
    { dateTime: rfc3339(startMs + durationMin * 60_000, tz), timeZone: tz },
  );
}

/** The day named (a date, today/tomorrow, in N days, a weekday, a month and day); tonight also means 7pm. */
function takeDate(rest: Rest, today: Today): { date: string | undefined; defaultHour: number | undefined } {
  const take = (re: RegExp) => rest.take(re);
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

  return { date, defaultHour };
}

/** The time or time range named; the range also gives the duration. */
function takeTime(rest: Rest): { startMin: number | undefined; durationMin: number } {
  const take = (re: RegExp) => rest.take(re);
  let startMin: number | undefined;
  let durationMin = 60;
  let m: RegExpExecArray | null;
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
  return { startMin, durationMin };
}

/** "for 90 minutes", "for an hour", "for half an hour"; else `durationMin` as it was. */
function takeDuration(rest: Rest, durationMin: number): number {
  const take = (re: RegExp) => rest.take(re);
  let m: RegExpExecArray | null;
  if ((m = take(/\sfor\s+(\d+(?:\.\d+)?)\s*(h|hrs?|hours?|m|mins?|minutes?)(?=[\s,.])/i))) {
    const n = Number(m[1]) * (/^h/i.test(m[2] ?? '') ? 60 : 1);
    if (n > 0 && n <= 24 * 60) durationMin = Math.round(n);
  } else if ((m = take(/\sfor\s+(?:an?|one)\s+hour(?=[\s,.])/i))) {
    durationMin = 60;
  } else if ((m = take(/\sfor\s+(?:half\s+an\s+hour|a\s+half\s+hour|30\s*min)(?=[\s,.])/i))) {
    durationMin = 30;
  }
  return durationMin;
}

/** What is left is the summary, with "at <Place>" at its end as the location. */
function takeSummary(rest: Rest, text: string): { summary: string; location: string | undefined } {
  const took = rest.took;
  let summary = rest.text.replace(/\s+/g, ' ').trim();
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

  return { summary, location };
}

/** The start: the time on the date named, or today's (tomorrow's once passed), or the next full hour. */
function startOf(
  now: Date,
  tz: string,
  today: Today,
  date: string | undefined,
  startMin: number | undefined,
): number {
  const todayStr = ymd(today);
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
  return startMs;
}
