/** Zoom Events: the seeded event plans (names, schedules, sessions, guest counts) that seed.ts expands. */
import type { EventRec, HubRec } from './types.js';

export interface Plan {
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
/**
 * A plan as written in the table: its hub, its host and (when it is Elena) its contact by name,
 * made real by `seedPlans`.
 */
export type PlanRow = Omit<Plan, 'hub' | 'host' | 'contact'> & {
  hub: 'fleet' | 'learning';
  host: 'me' | 'elena';
  /** `elena`: Elena Sokolova at her address. */
  contact: [string, string] | 'elena';
};

export const PLAN_ROWS: PlanRow[] = [
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
    hub: 'fleet',
    host: 'me',
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
    hub: 'fleet',
    host: 'me',
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
    hub: 'fleet',
    host: 'me',
    contact: 'elena',
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
    hub: 'fleet',
    host: 'me',
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
    hub: 'fleet',
    host: 'me',
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
    hub: 'fleet',
    host: 'me',
    contact: ['Priya Natarajan', 'priya.natarajan@meridianfleet.example'],
    status: 'DRAFT',
    day: 30,
    hh: 0,
    hours: 1,
    categories: ['Community & Spirituality'],
    tags: ['housing', 'residents'],
    sessions: [{ name: 'Resident town hall', description: 'Updates and open Q&A.', offset: 0, minutes: 60 }],
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
    hub: 'fleet',
    host: 'me',
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
    hub: 'learning',
    host: 'elena',
    contact: 'elena',
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
    hub: 'learning',
    host: 'elena',
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

export function seedPlans(me: string, elena: string, fleetHub: HubRec, learningHub: HubRec): Plan[] {
  // Fresh arrays: the slice keeps categories and tags, and must never share the table's.
  return PLAN_ROWS.map((row) => ({
    ...row,
    categories: [...row.categories],
    tags: [...row.tags],
    hub: row.hub === 'fleet' ? fleetHub : learningHub,
    host: row.host === 'me' ? me : elena,
    contact: row.contact === 'elena' ? ['Elena Sokolova', elena] : row.contact,
  }));
}
