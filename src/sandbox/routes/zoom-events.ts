/**
 * Zoom Events: two hubs (one the demo user hosts, one a colleague hosts where the demo user
 * attends), upcoming, past, draft and cancelled events with sessions and registrants, and event
 * creation. A created event is a draft, as on the platform (publishing is a separate action the
 * emulator does not offer), so no `zoom_events.event_published` webhook is sent.
 */
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { SandboxContext, SeedContext } from '../context.js';
import { isTimeZone, zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';

export interface HubRec {
  hub_id: string;
  name: string;
  description: string;
  access_level: 'INTERNAL' | 'PUBLIC';
  slug: string;
  hidden_hub: boolean;
  hub_active: boolean;
  auto_list_events: boolean;
  landing_hub: boolean;
  host_email: string;
}

export interface RecurrenceRec {
  type?: number;
  repeat_interval?: number;
  weekly_days?: number[];
  monthly_days?: number[];
  monthly_week_day?: number;
  monthly_week?: number;
  end_times?: number;
  end_date_time?: string;
  duration?: number;
}

export interface EventRec {
  event_id: string;
  name: string;
  description: string;
  timezone: string;
  event_type: 'SIMPLE_EVENT' | 'CONFERENCE' | 'RECURRING';
  recurrence?: RecurrenceRec;
  access_level: 'PUBLIC' | 'PRIVATE_UNRESTRICTED' | 'PRIVATE_RESTRICTED';
  meeting_type?: 'MEETING' | 'WEBINAR';
  categories: string[];
  tags: string[];
  calendar: { start_time: string; end_time: string }[];
  status: 'PUBLISHED' | 'DRAFT' | 'CANCELLED';
  hub_id: string;
  host_email: string;
  contact_name: string;
  contact_email: string;
  lobby_start_time?: string;
  lobby_end_time?: string;
  blocked_countries: string[];
  attendance_type: 'virtual' | 'in-person' | 'hybrid';
  physical_location?: string;
  tagline: string;
}

export interface SessionRec {
  session_id: string;
  name: string;
  description: string;
  type: 0 | 2 | 4;
  meeting_id?: number;
  webinar_id?: number;
  start_time: string;
  end_time: string;
  timezone: string;
  speakers: { name: string; company: string; title: string }[];
  featured: boolean;
  attendance_type: 'virtual' | 'in-person' | 'hybrid';
  physical_location?: string;
  track_labels: string[];
}

export interface EventRegistrantRec {
  email: string;
  registration_status:
    'REGISTERED' | 'INVITED' | 'GIFTED' | 'DIRECT_JOIN' | 'PRE_REGISTERED' | 'PRE_REGISTER_INVITED';
  tickets: {
    ticket_id: string;
    role: 'ATTENDEE' | 'SPEAKER' | 'ALTERNATIVE_HOST' | 'PANELIST' | 'GUEST';
    authentication_method: 'zoom_account' | 'no_auth' | 'email_opt';
  }[];
}

export interface ZoomEventsSlice {
  hubs: HubRec[];
  events: EventRec[];
  sessions: Record<string, SessionRec[]>;
  registrants: Record<string, EventRegistrantRec[]>;
}

const SCOPES = {
  list: [
    'zoom_events:read:list_events',
    'zoom_events:read:list_events:admin',
    'zoom_events_basic:read',
    'zoom_events_basic:read:admin',
  ],
  get: [
    'zoom_events:read:event',
    'zoom_events:read:event:admin',
    'zoom_events_basic:read',
    'zoom_events_basic:read:admin',
  ],
  create: [
    'zoom_events:write:event',
    'zoom_events:write:event:admin',
    'zoom_events_basic:write',
    'zoom_events_basic:write:admin',
  ],
  registrants: [
    'zoom_events:read:list_registrants',
    'zoom_events:read:list_registrants:admin',
    'zoom_events_registrants:read',
    'zoom_events_registrants:read:admin',
  ],
  sessions: [
    'zoom_events:read:list_sessions',
    'zoom_events:read:list_sessions:admin',
    'zoom_events_sessions:read',
    'zoom_events_sessions:read:admin',
  ],
  hubs: [
    'zoom_events:read:list_hubs',
    'zoom_events:read:list_hubs:admin',
    'zoom_events_hubs:read',
    'zoom_events_hubs:read:admin',
  ],
};

const EVENT_TYPES = ['SIMPLE_EVENT', 'CONFERENCE', 'RECURRING'] as const;
const ACCESS_LEVELS = ['PUBLIC', 'PRIVATE_UNRESTRICTED', 'PRIVATE_RESTRICTED'] as const;
const ATTENDANCE = ['virtual', 'in-person', 'hybrid'] as const;
const CATEGORIES = [
  'Education & Family',
  'Business & Networking',
  'Entertainment & Visual Arts',
  'Food & Drink',
  'Fitness & Health',
  'Home & Lifestyle',
  'Community & Spirituality',
  'Other',
];
const STATUS_TYPES = ['upcoming', 'past', 'draft', 'cancelled'] as const;

const eventNotFound = () => new ZoomError(404, 2002, 'Event not found.');
const UTC_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const GUESTS: [string, string][] = [
  ['Taylor', 'Lopez'],
  ['Morgan', 'Kim'],
  ['Casey', 'Patel'],
  ['Riley', 'Nguyen'],
  ['Jamie', 'Smith'],
  ['Dana', 'Garcia'],
  ['Alex', 'Chen'],
  ['Robin', 'Diaz'],
  ['Quinn', 'Foster'],
  ['Harper', 'Brooks'],
  ['Reese', 'Ward'],
  ['Skyler', 'Hayes'],
];
const MAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];

function seedEvents(s: SeedContext): ZoomEventsSlice {
  const id = () => s.rng.id(22, ID_ALPHABET);
  const me = s.demo.email;
  const elena = 'elena.sokolova@meridianfleet.example';
  const hubs: HubRec[] = [
    {
      hub_id: id(),
      name: 'Meridian Fleet Events',
      description: 'Open houses, customer nights and live demos from the Meridian Fleet family of companies.',
      access_level: 'PUBLIC',
      slug: 'meridianfleet',
      hidden_hub: false,
      hub_active: true,
      auto_list_events: true,
      landing_hub: true,
      host_email: me,
    },
    {
      hub_id: id(),
      name: 'Meridian Learning Hub',
      description: 'Internal training, instructor summits and all-hands for Meridian Fleet employees.',
      access_level: 'INTERNAL',
      slug: 'meridianlearning',
      hidden_hub: false,
      hub_active: true,
      auto_list_events: true,
      landing_hub: false,
      host_email: elena,
    },
  ];
  const [fleetHub, learningHub] = hubs as [HubRec, HubRec];
  const events: EventRec[] = [];
  const sessions: Record<string, SessionRec[]> = {};
  const registrants: Record<string, EventRegistrantRec[]> = {};

  interface Plan {
    name: string;
    description: string;
    tagline: string;
    type: EventRec['event_type'];
    meeting?: 'MEETING' | 'WEBINAR';
    access: EventRec['access_level'];
    attendance: EventRec['attendance_type'];
    location?: string;
    hub: HubRec;
    host: string;
    contact: [string, string];
    status: EventRec['status'];
    day: number;
    hh: number;
    hours: number;
    categories: string[];
    tags: string[];
    sessions: {
      name: string;
      description: string;
      offset: number;
      minutes: number;
      speaker?: [string, string, string];
      track?: string;
    }[];
    guests: number;
    /** The demo user holds an attendee ticket. */
    attending?: boolean;
  }
  const plans: Plan[] = [
    {
      name: 'Meridian Mortgage first-time buyer night',
      description:
        'An evening for first-time home buyers: budgets, down-payment programs, pre-approval and what happens at closing. Bring your questions for our loan officers.',
      tagline: 'Your first home, step by step',
      type: 'SIMPLE_EVENT',
      meeting: 'WEBINAR',
      access: 'PUBLIC',
      attendance: 'hybrid',
      location: 'Meridian Mortgage, 200 W Madison St, Chicago, IL',
      hub: fleetHub,
      host: me,
      contact: ['Sam Okafor', 'sam.okafor@meridianfleet.example'],
      status: 'PUBLISHED',
      day: 9,
      hh: 23,
      hours: 2,
      categories: ['Home & Lifestyle', 'Education & Family'],
      tags: ['mortgage', 'first-time buyers'],
      sessions: [
        {
          name: 'First-time buyer night',
          description: 'Budgets, programs, pre-approval and closing, with live Q&A.',
          offset: 0,
          minutes: 120,
          speaker: ['Sam Okafor', 'Meridian Mortgage', 'Loan Officer'],
        },
      ],
      guests: 9,
    },
    {
      name: 'GrowthOS live demo day',
      description:
        'See GrowthOS run a real campaign end to end: audience building, landing pages, lead routing and the weekly funnel review.',
      tagline: 'Marketing that books meetings',
      type: 'CONFERENCE',
      access: 'PUBLIC',
      attendance: 'virtual',
      hub: fleetHub,
      host: me,
      contact: ['Jordan Reyes', 'jordan.reyes@meridianfleet.example'],
      status: 'PUBLISHED',
      day: 16,
      hh: 15,
      hours: 3,
      categories: ['Business & Networking'],
      tags: ['growthos', 'demo', 'marketing'],
      sessions: [
        {
          name: 'Keynote: the speed-to-lead advantage',
          description: 'Why the first five minutes decide the deal.',
          offset: 0,
          minutes: 45,
          speaker: ['Avery Quinn', 'Meridian Operating Group', 'Head of Operations'],
          track: 'Main stage',
        },
        {
          name: 'Live build: a campaign in 30 minutes',
          description: 'Audience, landing page and routing, built live.',
          offset: 60,
          minutes: 45,
          speaker: ['Jordan Reyes', 'GrowthOS', 'Account Executive'],
          track: 'Product',
        },
        {
          name: 'Customer panel: freight and lending',
          description: 'Meridian Freight and Meridian Capital teams on what changed.',
          offset: 120,
          minutes: 45,
          speaker: ['Marcus Bell', 'Meridian Freight', 'Dispatch Manager'],
          track: 'Customers',
        },
      ],
      guests: 12,
    },
    {
      name: 'Meridian Early Learning open house',
      description:
        'Tour our classrooms, meet the teachers and learn about enrollment for infants, toddlers, preschool and pre-K.',
      tagline: 'Come see where the day begins',
      type: 'SIMPLE_EVENT',
      meeting: 'MEETING',
      access: 'PUBLIC',
      attendance: 'in-person',
      location: 'Meridian Early Learning, 1450 N Halsted St, Chicago, IL',
      hub: fleetHub,
      host: me,
      contact: ['Elena Sokolova', elena],
      status: 'PUBLISHED',
      day: 5,
      hh: 15,
      hours: 2,
      categories: ['Education & Family'],
      tags: ['early learning', 'open house', 'enrollment'],
      sessions: [
        { name: 'Open house tours', description: 'Guided tours every 30 minutes.', offset: 0, minutes: 120 },
      ],
      guests: 7,
    },
    {
      name: 'Meridian Freight driver recruiting fair',
      description:
        'Meet our dispatchers and drivers, learn about home-time schedules, pay and the FleetWorks-maintained fleet, and interview on the spot.',
      tagline: 'Drive for a fleet that runs on time',
      type: 'CONFERENCE',
      access: 'PUBLIC',
      attendance: 'hybrid',
      location: 'Meridian Freight terminal, 2100 Channahon Rd, Joliet, IL',
      hub: fleetHub,
      host: me,
      contact: ['Marcus Bell', 'marcus.bell@meridianfleet.example'],
      status: 'PUBLISHED',
      day: -12,
      hh: 15,
      hours: 4,
      categories: ['Business & Networking'],
      tags: ['freight', 'recruiting', 'CDL'],
      sessions: [
        {
          name: 'Life on the road at Meridian Freight',
          description: 'Routes, home time and pay.',
          offset: 0,
          minutes: 60,
          speaker: ['Marcus Bell', 'Meridian Freight', 'Dispatch Manager'],
        },
        { name: 'Inside FleetWorks', description: 'How we keep the trucks ready.', offset: 90, minutes: 45 },
        {
          name: 'On-site interviews',
          description: 'Bring your CDL and your questions.',
          offset: 150,
          minutes: 90,
        },
      ],
      guests: 10,
    },
    {
      name: 'Meridian Capital small-business lending webinar',
      description:
        'Working capital, equipment lines and expansion loans: what lenders look at and how to prepare your numbers.',
      tagline: 'Funding for the next stage',
      type: 'SIMPLE_EVENT',
      meeting: 'WEBINAR',
      access: 'PUBLIC',
      attendance: 'virtual',
      hub: fleetHub,
      host: me,
      contact: ['Sam Okafor', 'sam.okafor@meridianfleet.example'],
      status: 'PUBLISHED',
      day: -20,
      hh: 17,
      hours: 1,
      categories: ['Business & Networking'],
      tags: ['lending', 'small business'],
      sessions: [
        {
          name: 'Small-business lending 101',
          description: 'Products, underwriting and preparation.',
          offset: 0,
          minutes: 60,
          speaker: ['Sam Okafor', 'Meridian Capital', 'Loan Officer'],
        },
      ],
      guests: 8,
    },
    {
      name: 'Meridian Housing resident town hall',
      description: "Updates on renovations, the new resident app and next year's community calendar.",
      tagline: 'Your building, your voice',
      type: 'SIMPLE_EVENT',
      meeting: 'MEETING',
      access: 'PRIVATE_UNRESTRICTED',
      attendance: 'virtual',
      hub: fleetHub,
      host: me,
      contact: ['Priya Natarajan', 'priya.natarajan@meridianfleet.example'],
      status: 'DRAFT',
      day: 30,
      hh: 0,
      hours: 1,
      categories: ['Community & Spirituality'],
      tags: ['housing', 'residents'],
      sessions: [
        { name: 'Resident town hall', description: 'Updates and open Q&A.', offset: 0, minutes: 60 },
      ],
      guests: 0,
    },
    {
      name: 'FleetWorks EV maintenance workshop',
      description:
        'Hands-on introduction to high-voltage safety and battery-electric truck maintenance. Postponed until the new bay is ready.',
      tagline: 'Ready for the electric fleet',
      type: 'SIMPLE_EVENT',
      meeting: 'MEETING',
      access: 'PUBLIC',
      attendance: 'in-person',
      location: 'FleetWorks south bay, 2150 Channahon Rd, Joliet, IL',
      hub: fleetHub,
      host: me,
      contact: ['Marcus Bell', 'marcus.bell@meridianfleet.example'],
      status: 'CANCELLED',
      day: 3,
      hh: 14,
      hours: 3,
      categories: ['Education & Family'],
      tags: ['fleetworks', 'EV'],
      sessions: [
        {
          name: 'EV maintenance workshop',
          description: 'High-voltage safety and battery service.',
          offset: 0,
          minutes: 180,
        },
      ],
      guests: 3,
    },
    {
      name: 'Meridian Learning CDL instructor summit',
      description:
        'Instructors from every Meridian Learning campus share curriculum updates, the new ELDT rules and road-test results.',
      tagline: 'Better instructors, safer drivers',
      type: 'CONFERENCE',
      access: 'PRIVATE_RESTRICTED',
      attendance: 'virtual',
      hub: learningHub,
      host: elena,
      contact: ['Elena Sokolova', elena],
      status: 'PUBLISHED',
      day: 12,
      hh: 14,
      hours: 3,
      categories: ['Education & Family'],
      tags: ['learning', 'CDL', 'instructors'],
      sessions: [
        {
          name: 'ELDT rule changes',
          description: 'What changes in the entry-level driver training rules.',
          offset: 0,
          minutes: 60,
          speaker: ['Elena Sokolova', 'Meridian Learning', 'Program Director'],
        },
        {
          name: 'Road-test results by campus',
          description: 'Pass rates and what the best campuses do differently.',
          offset: 75,
          minutes: 60,
        },
      ],
      guests: 6,
      attending: true,
    },
    {
      name: 'Meridian Operating Group quarterly all-hands',
      description:
        'Quarterly results, priorities for next quarter and recognition for the teams across Meridian Fleet.',
      tagline: 'One fleet, one plan',
      type: 'SIMPLE_EVENT',
      meeting: 'WEBINAR',
      access: 'PRIVATE_RESTRICTED',
      attendance: 'virtual',
      hub: learningHub,
      host: elena,
      contact: ['Priya Natarajan', 'priya.natarajan@meridianfleet.example'],
      status: 'PUBLISHED',
      day: -8,
      hh: 16,
      hours: 1,
      categories: ['Business & Networking'],
      tags: ['all-hands'],
      sessions: [
        {
          name: 'Quarterly all-hands',
          description: 'Results, priorities and recognition.',
          offset: 0,
          minutes: 60,
          speaker: ['Priya Natarajan', 'Meridian Operating Group', 'Operations Lead'],
        },
      ],
      guests: 11,
      attending: true,
    },
  ];

  for (const pl of plans) {
    const start = s.at(pl.day, pl.hh, 0);
    const end = s.at(pl.day, pl.hh + pl.hours, 0);
    const ev: EventRec = {
      event_id: id(),
      name: pl.name,
      description: pl.description,
      timezone: s.demo.timezone,
      event_type: pl.type,
      ...(pl.meeting ? { meeting_type: pl.meeting } : {}),
      access_level: pl.access,
      categories: pl.categories,
      tags: pl.tags,
      calendar: [{ start_time: start, end_time: end }],
      status: pl.status,
      hub_id: pl.hub.hub_id,
      host_email: pl.host,
      contact_name: pl.contact[0],
      contact_email: pl.contact[1],
      ...(pl.type === 'CONFERENCE' ? { lobby_start_time: s.at(pl.day, pl.hh, 0), lobby_end_time: end } : {}),
      blocked_countries: [],
      attendance_type: pl.attendance,
      ...(pl.location ? { physical_location: pl.location } : {}),
      tagline: pl.tagline,
    };
    events.push(ev);
    sessions[ev.event_id] = pl.sessions.map((ss) => {
      const at = Date.parse(start) + ss.offset * 60_000;
      const type: 0 | 2 | 4 = pl.attendance === 'in-person' ? 4 : pl.meeting === 'WEBINAR' ? 2 : 0;
      const number = Number(`8${s.rng.digits(10)}`);
      return {
        session_id: id(),
        name: ss.name,
        description: ss.description,
        type,
        // Published events have a meeting or webinar behind each session; drafts do not yet.
        ...(pl.status !== 'DRAFT' && type === 0 ? { meeting_id: number } : {}),
        ...(pl.status !== 'DRAFT' && type === 2 ? { webinar_id: number } : {}),
        start_time: zoomTime(new Date(at)),
        end_time: zoomTime(new Date(at + ss.minutes * 60_000)),
        timezone: s.demo.timezone,
        speakers: ss.speaker ? [{ name: ss.speaker[0], company: ss.speaker[1], title: ss.speaker[2] }] : [],
        featured: ss.offset === 0,
        attendance_type: pl.attendance,
        ...(pl.location ? { physical_location: pl.location } : {}),
        track_labels: ss.track ? [ss.track] : [],
      };
    });
    const regs: EventRegistrantRec[] = [];
    if (pl.attending)
      regs.push({
        email: me,
        registration_status: 'REGISTERED',
        tickets: [{ ticket_id: id(), role: 'ATTENDEE', authentication_method: 'zoom_account' }],
      });
    for (let i = 0; i < pl.guests; i++) {
      const [first, last] = GUESTS[(i + pl.name.length) % GUESTS.length] as [string, string];
      regs.push({
        email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@${s.rng.pick(MAIL_DOMAINS)}`,
        registration_status: i % 5 === 4 ? 'INVITED' : 'REGISTERED',
        tickets: [
          {
            ticket_id: id(),
            role: 'ATTENDEE',
            authentication_method: s.rng.pick(['email_opt', 'no_auth'] as const),
          },
        ],
      });
    }
    for (const sp of pl.sessions) {
      const speaker = sp.speaker;
      if (!speaker || speaker[0] === `${s.demo.firstName} ${s.demo.lastName}`) continue;
      const email = `${speaker[0].toLowerCase().replace(' ', '.')}@meridianfleet.example`;
      if (!regs.some((r) => r.email === email))
        regs.push({
          email,
          registration_status: 'REGISTERED',
          tickets: [{ ticket_id: id(), role: 'SPEAKER', authentication_method: 'zoom_account' }],
        });
    }
    registrants[ev.event_id] = regs;
  }
  return { hubs, events, sessions, registrants };
}

interface Draft {
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
function readEvent(b: Record<string, unknown>): Draft {
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
  opt('recurrence', (v) => {
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
  });
  if (b['event_type'] === 'RECURRING' && !('recurrence' in b)) bad('recurrence');
  if (errors.length) throw zerr.validation(errors);

  const calendar: { start_time: string; end_time: string }[] = [];
  for (const c of (b['calendar'] as Record<string, unknown>[] | undefined) ?? []) {
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

export const zoomEventsModule = defineModule<ZoomEventsSlice>({
  name: 'zoomEvents',
  seed: seedEvents,
  register(ctx: SandboxContext) {
    const slice = () => ctx.slice<ZoomEventsSlice>('zoomEvents');
    const me = () => ctx.demo.email.toLowerCase();
    /** A host's user id: the demo user's, a colleague's from the users slice, or '' if unknown. */
    const userIdOf = (email: string) => {
      if (email.toLowerCase() === me()) return ctx.demo.id;
      const users = ctx.slice<UsersSlice | undefined>('users');
      return users?.colleagues.find((c) => c.email.toLowerCase() === email.toLowerCase())?.id ?? '';
    };
    const isHost = (e: EventRec) => e.host_email.toLowerCase() === me();
    const isAttendee = (e: EventRec) =>
      !isHost(e) && (slice().registrants[e.event_id] ?? []).some((r) => r.email.toLowerCase() === me());
    const canSee = (e: EventRec) => isHost(e) || isAttendee(e);
    const startOf = (e: EventRec) => e.calendar[0]?.start_time;
    const endOf = (e: EventRec) =>
      e.calendar.reduce<string | undefined>(
        (m, c) => (m === undefined || c.end_time > m ? c.end_time : m),
        undefined,
      );

    /** The event object; `recurrence` as the reads document it (weekly_days a string, monthly_days one day). */
    const eventObject = (e: EventRec, form: 'read' | 'create') => {
      const start = startOf(e);
      const end = endOf(e);
      let recurrence: Record<string, unknown> | undefined;
      if (e.recurrence) {
        const { weekly_days, monthly_days, ...rest } = e.recurrence;
        recurrence =
          form === 'create'
            ? { ...e.recurrence }
            : {
                ...rest,
                ...(weekly_days ? { weekly_days: weekly_days.join(',') } : {}),
                ...(monthly_days?.[0] !== undefined ? { monthly_days: monthly_days[0] } : {}),
              };
      }
      return {
        event_id: e.event_id,
        name: e.name,
        description: e.description,
        timezone: e.timezone,
        event_type: e.event_type,
        ...(recurrence ? { recurrence } : {}),
        access_level: e.access_level,
        ...(e.meeting_type ? { meeting_type: e.meeting_type } : {}),
        categories: e.categories,
        tags: e.tags,
        calendar: e.calendar,
        status: e.status,
        hub_id: e.hub_id,
        ...(start ? { start_time: start } : {}),
        ...(end ? { end_time: end } : {}),
        contact_name: e.contact_name,
        contact_email: e.contact_email,
        ...(e.lobby_start_time ? { lobby_start_time: e.lobby_start_time } : {}),
        ...(e.lobby_end_time ? { lobby_end_time: e.lobby_end_time } : {}),
        event_url: `${ctx.baseUrl}/ev/${e.event_id}`,
        blocked_countries: e.blocked_countries,
        attendance_type: e.attendance_type,
        ...(e.physical_location ? { physical_location: e.physical_location } : {}),
        tagline: e.tagline,
      };
    };
    const findEvent = (id: string) => {
      const e = slice().events.find((x) => x.event_id === id);
      if (!e) throw eventNotFound();
      if (!canSee(e)) throw new ZoomError(403, 260200, 'Event access denied.');
      return e;
    };

    ctx.route({
      method: 'GET',
      url: '/zoom_events/events',
      scopes: SCOPES.list,
      label: 'LIGHT',
      handler: (req) => {
        const role = q(req, 'role_type') ?? 'attendee';
        if (role !== 'host' && role !== 'attendee') throw zerr.badParam('role_type');
        const status = q(req, 'event_status_type') ?? 'upcoming';
        if (!(STATUS_TYPES as readonly string[]).includes(status)) throw zerr.badParam('event_status_type');
        // "For the ATTENDEE role type, only upcoming and past are valid status types."
        if (role === 'attendee' && status !== 'upcoming' && status !== 'past')
          throw zerr.badParam('event_status_type');
        const now = zoomTime(ctx.now());
        const ended = (e: EventRec) => (endOf(e) ?? '9999') < now;
        const pick: Record<(typeof STATUS_TYPES)[number], (e: EventRec) => boolean> = {
          upcoming: (e) => e.status === 'PUBLISHED' && !ended(e),
          past: (e) => e.status === 'PUBLISHED' && ended(e),
          draft: (e) => e.status === 'DRAFT',
          cancelled: (e) => e.status === 'CANCELLED',
        };
        const filter = pick[status as (typeof STATUS_TYPES)[number]];
        const items = slice()
          .events.filter((e) => (role === 'host' ? isHost(e) : isAttendee(e)))
          .filter(filter)
          .sort((a, b) => {
            const x = startOf(a) ?? '9999';
            const y = startOf(b) ?? '9999';
            return status === 'past' ? y.localeCompare(x) : x.localeCompare(y);
          });
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          total_records: page.totalRecords,
          next_page_token: page.nextPageToken,
          events: page.items.map((e) => eventObject(e, 'read')),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zoom_events/events/:eventId',
      scopes: SCOPES.get,
      label: 'LIGHT',
      handler: (req) => {
        const e = findEvent(p(req, 'eventId'));
        return { ...eventObject(e, 'read'), host_id: userIdOf(e.host_email) };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/zoom_events/events',
      scopes: SCOPES.create,
      label: 'LIGHT',
      handler: (req, reply) => {
        const d = readEvent(body(req));
        const hub = slice().hubs.find((h) => h.hub_id === d.hub_id);
        if (!hub || hub.host_email.toLowerCase() !== me())
          throw new ZoomError(403, 26201, 'No permission to create the event under the hub ID.');
        const e: EventRec = {
          event_id: ctx.newId('alnum', 22) as string,
          name: d.name,
          description: d.description,
          timezone: d.timezone,
          event_type: d.event_type,
          ...(d.recurrence ? { recurrence: d.recurrence } : {}),
          access_level: d.access_level,
          ...(d.meeting_type ? { meeting_type: d.meeting_type } : {}),
          categories: d.categories,
          tags: d.tags,
          calendar: d.calendar,
          // Events are created as drafts; publishing is a separate step.
          status: 'DRAFT',
          hub_id: hub.hub_id,
          host_email: ctx.demo.email,
          contact_name: d.contact_name ?? `${ctx.demo.firstName} ${ctx.demo.lastName}`,
          contact_email: ctx.demo.email,
          ...(d.lobby_start_time ? { lobby_start_time: d.lobby_start_time } : {}),
          ...(d.lobby_end_time ? { lobby_end_time: d.lobby_end_time } : {}),
          blocked_countries: d.blocked_countries,
          attendance_type: d.attendance_type,
          ...(d.physical_location ? { physical_location: d.physical_location } : {}),
          tagline: d.tagline,
        };
        const s = slice();
        s.events.push(e);
        // A single-session event gets its one session, as the event builder makes it.
        const first = e.calendar[0];
        s.sessions[e.event_id] =
          e.event_type === 'SIMPLE_EVENT' && first
            ? [
                {
                  session_id: ctx.newId('alnum', 22) as string,
                  name: e.name,
                  description: e.description,
                  type: e.attendance_type === 'in-person' ? 4 : e.meeting_type === 'WEBINAR' ? 2 : 0,
                  start_time: first.start_time,
                  end_time: first.end_time,
                  timezone: e.timezone,
                  speakers: [],
                  featured: true,
                  attendance_type: e.attendance_type,
                  ...(e.physical_location ? { physical_location: e.physical_location } : {}),
                  track_labels: [],
                },
              ]
            : [];
        s.registrants[e.event_id] = [];
        ctx.changed();
        return reply.code(201).send(eventObject(e, 'create'));
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zoom_events/events/:eventId/registrants',
      scopes: SCOPES.registrants,
      label: 'LIGHT',
      handler: (req) => {
        const e = findEvent(p(req, 'eventId'));
        if (!isHost(e)) throw new ZoomError(403, 260200, 'Event access denied.');
        const items = slice().registrants[e.event_id] ?? [];
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          total_records: page.totalRecords,
          next_page_token: page.nextPageToken,
          registrants: page.items.map((r) => ({
            email: r.email,
            registration_status: r.registration_status,
            tickets: r.tickets.map((t) => ({
              ...t,
              qr_code_url: `${ctx.baseUrl}/ev/${e.event_id}/ticket/${t.ticket_id}/qr.png`,
            })),
          })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zoom_events/events/:eventId/sessions',
      scopes: SCOPES.sessions,
      label: 'LIGHT',
      handler: (req) => {
        const e = findEvent(p(req, 'eventId'));
        const items = (slice().sessions[e.event_id] ?? [])
          .slice()
          .sort((a, b) => a.start_time.localeCompare(b.start_time));
        return {
          total_records: items.length,
          sessions: items.map((x) => ({
            session_id: x.session_id,
            name: x.name,
            description: x.description,
            type: x.type,
            ...(x.meeting_id !== undefined ? { meeting_id: x.meeting_id } : {}),
            ...(x.webinar_id !== undefined ? { webinar_id: x.webinar_id } : {}),
            start_time: x.start_time,
            end_time: x.end_time,
            timezone: x.timezone,
            session_speakers: x.speakers.map((sp, i) => ({
              speaker_id: `${x.session_id.slice(0, 12)}sp${i}`,
              name: sp.name,
              company: sp.company,
              title: sp.title,
              access_to_edit_session: false,
              show_in_session_detail: true,
              has_alternative_host_permission: false,
              meeting_role: x.type === 2 ? 2 : 1,
            })),
            featured: x.featured,
            visible_in_landing_page: true,
            featured_in_lobby: x.featured,
            visible_in_lobby: true,
            is_simulive: false,
            chat_channel: true,
            led_by_sponsor: false,
            track_labels: x.track_labels,
            audience_labels: [],
            product_labels: [],
            level: [],
            alternative_host: [],
            panelist: [],
            interpreter_languages: [],
            sign_interpreter_languages: [],
            attendance_type: x.attendance_type,
            ...(x.physical_location ? { physical_location: x.physical_location } : {}),
            session_reservation: { allow_reservations: false, max_capacity: 0 },
          })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zoom_events/hubs',
      scopes: SCOPES.hubs,
      label: 'LIGHT',
      handler: (req) => {
        const role = q(req, 'role_type');
        if (role !== 'host' && role !== 'attendee') throw zerr.badParam('role_type');
        const s = slice();
        const related = new Set(s.events.filter(isAttendee).map((e) => e.hub_id));
        const hubs = s.hubs.filter((h) =>
          role === 'host' ? h.host_email.toLowerCase() === me() : related.has(h.hub_id),
        );
        return {
          total_records: hubs.length,
          hubs: hubs.map((h) => ({
            hub_id: h.hub_id,
            access_level: h.access_level,
            name: h.name,
            description: h.description,
            public_url: `${ctx.baseUrl}/eh/${h.slug}`,
            hidden_hub: h.hidden_hub,
            hub_active: h.hub_active,
            auto_list_events: h.auto_list_events,
            landing_hub: h.landing_hub,
          })),
        };
      },
    });
  },
});
