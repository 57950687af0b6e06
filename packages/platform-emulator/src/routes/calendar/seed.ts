/**
 * The calendar emulator's seed: the demo user's three calendars and their events, recurring
 * ones included, placed around the seed's clock.
 */
import type { SeedContext } from '../../context.js';
import type { Attendee, CalendarRec, CalendarSlice, EventRec, ResponseStatus } from './records.js';
import { addDays, dateMs } from './time.js';

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
export const EVENT_ID_ALPHABET = 'abcdefghijklmnopqrstuv0123456789';
const eventIdFor = (s: SeedContext) => s.rng.id(26, EVENT_ID_ALPHABET);

export function seedCalendar(s: SeedContext): CalendarSlice {
  const created = s.at(-400, 15, 0);
  const ids: Record<CalKey, string> = {
    primary: s.demo.email,
    freight: calendarIdFor(s),
    learning: calendarIdFor(s),
  };
  const calendars = seedCalendars(s, ids, created);
  const demo: Person = { email: s.demo.email, name: `${s.demo.firstName} ${s.demo.lastName}` };
  const events: EventRec[] = SEED_EVENTS.map((e) => eventOf(s, e, ids, demo));
  return { calendars, events };
}

/** The demo user's primary calendar and the two shared ones. */
function seedCalendars(s: SeedContext, ids: Record<CalKey, string>, created: string): CalendarRec[] {
  const tz = s.demo.timezone;
  return [
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
}

function eventOf(s: SeedContext, e: SeedEvent, ids: Record<CalKey, string>, demo: Person): EventRec {
  const tz = s.demo.timezone;
  const cal = ids[e.cal];
  const organizer =
    e.cal === 'learning' ? (people['elena']?.email ?? demo.email) : e.cal === 'primary' ? demo.email : cal;
  const start = s.at(e.day, e.at[0], e.at[1]);
  const createdAt = s.at(
    Math.min(e.day, 0) - s.rng.int(3, 12),
    s.rng.int(13, 22),
    s.rng.pick([0, 15, 30, 45]),
  );
  const attendees = attendeesOf(s, e, demo, organizer);
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
}

/** The demo user and the event's guests; the organizer and rooms have accepted, the rest answer at random. */
function attendeesOf(s: SeedContext, e: SeedEvent, demo: Person, organizer: string): Attendee[] {
  return [demo, ...e.with.map((k) => people[k]).filter((x): x is Person => !!x)].map((x) => {
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
  });
}
