/**
 * Stored events for the scale bench, made up but shaped like a year of bookings: topics from
 * word lists, the brand's funnels, start times over a year around now, an agenda on some, a
 * registration form on about 30%. Event `i` is the same whichever batch asks for it (its own
 * seeded generator), so a store grown in steps holds the same events as one loaded at once.
 * A fixed number of events carry the search row's two words, so the search matches the same
 * few dozen events at every size: what grows is the index it looks through, not the answer.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { StoredEvent } from '../src/store/store.js';
import { REPO } from './lib.js';

/** The brand's funnel keys (brand/themes.json), so the events filter and create use live ones. */
export const FUNNELS: string[] = Object.keys(
  (JSON.parse(readFileSync(path.join(REPO, 'brand/themes.json'), 'utf8')) as { funnels: object }).funnels,
);

/** The search row's query: a word in about 3% of topics and one only the planted events have. */
export const SEARCH_QUERY = 'ledger kestrel';
/** How many events carry both words, at every size. */
export const SEARCH_MATCHES = 36;

const FORMATS = [
  'Webinar',
  'Workshop',
  'Consultation',
  'Discovery call',
  'Info session',
  'Open house',
  'Onboarding',
  'Q&A',
  'Masterclass',
  'Demo',
  'Strategy session',
  'Review',
  'Kickoff',
  'Office hours',
  'Clinic',
  'Briefing',
  'Walkthrough',
  'Roundtable',
  'Training',
  'Check-in',
];
const SUBJECTS = [
  'mortgage pre-approval',
  'first-time buyers',
  'fleet maintenance',
  'route planning',
  'cash flow',
  'payroll',
  'tax season',
  'renovation budget',
  'kitchen remodel',
  'roofing',
  'solar panels',
  'freight rates',
  'cold chain',
  'driver safety',
  'early reading',
  'math readiness',
  'school admissions',
  'lead generation',
  'email funnels',
  'paid search',
  'brand refresh',
  'rental yields',
  'property management',
  'home insurance',
  'refinancing',
  'small business loans',
  'investor relations',
  'quarterly numbers',
  'hiring plan',
  'customer retention',
  'ledger cleanup',
];
const AUDIENCES = [
  'for homeowners',
  'for new clients',
  'for dispatchers',
  'for parents',
  'for contractors',
  'for investors',
  'for franchisees',
  'for landlords',
  'for owner-operators',
  'for teachers',
  'for partners',
  'for agents',
  'for tenants',
  'for suppliers',
  'for the sales team',
  'for returning customers',
];
const CITIES = [
  'Austin',
  'Denver',
  'Phoenix',
  'Tampa',
  'Raleigh',
  'Boise',
  'Columbus',
  'Nashville',
  'Portland',
  'Omaha',
  'Tucson',
  'Richmond',
  'Madison',
  'Spokane',
  'Savannah',
  'Albany',
];
const AGENDA_OPENERS = ['We cover', 'A walk through', 'Questions on', 'Where we stand on', 'Next steps for'];
const AGENDA_ITEMS = [
  'numbers',
  'timelines',
  'documents to bring',
  'pricing',
  'common mistakes',
  'a live example',
  'who to call',
  'decisions',
  'the checklist',
  'open questions',
];
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
];
const DURATIONS = [15, 30, 45, 60, 60, 60, 90, 120];

const DAY = 86_400_000;

/** mulberry32 seeded from the event's index: a few numbers in [0, 1) per event, no shared state. */
function random(i: number): () => number {
  let a = (Math.imul(i + 1, 0x9e3779b1) ^ 0x5bd1e995) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Event `i` of a store whose first load is `baseSize` events, relative to `now` (ms). The
 * planted search matches sit at evenly spaced indices of that first load.
 */
export function storedEvent(i: number, now: number, baseSize: number): StoredEvent {
  const r = random(i);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const step = Math.max(1, Math.floor(baseSize / SEARCH_MATCHES));
  const planted = i % step === 0 && i / step < SEARCH_MATCHES;
  // Half a year either side of now, on quarter hours.
  const start = Math.round((now + (r() - 0.5) * 365 * DAY) / 900_000) * 900_000;
  const created = Math.min(now, start - Math.ceil(r() * 45) * DAY);
  const past = start < now;
  const subject = planted ? 'Kestrel ledger cleanup' : pick(SUBJECTS);
  const format = pick(FORMATS);
  const topicShape = r();
  const topic =
    topicShape < 0.4
      ? `${format}: ${subject}`
      : topicShape < 0.75
        ? `${format}: ${subject} ${pick(AUDIENCES)}`
        : `${subject[0]?.toUpperCase() ?? ''}${subject.slice(1)} ${format.toLowerCase()} (${pick(CITIES)})`;
  const agenda =
    r() < 0.4
      ? `${pick(AGENDA_OPENERS)} ${subject}: ${pick(AGENDA_ITEMS)}, ${pick(AGENDA_ITEMS)}, then Q&A.`
      : null;
  const videoId = `9${String(i).padStart(12, '0')}`;
  const createdAt = new Date(created).toISOString();
  return {
    videoId,
    topic,
    kind: 'meeting',
    startTime: new Date(start).toISOString(),
    timezone: r() < 0.6 ? pick(ZONES) : null,
    duration: pick(DURATIONS),
    agenda,
    funnel: r() < 0.85 ? pick(FUNNELS) : null,
    status: r() < 0.05 ? 'cancelled' : past ? 'ended' : 'scheduled',
    registration: r() < 0.3,
    joinUrl: `https://video.example.invalid/j/${videoId}`,
    createdAt,
    updatedAt: createdAt,
  };
}

/** Events `from` (inclusive) to `to` (exclusive). */
export function storedEvents(from: number, to: number, now: number, baseSize: number): StoredEvent[] {
  const out: StoredEvent[] = [];
  for (let i = from; i < to; i++) out.push(storedEvent(i, now, baseSize));
  return out;
}
