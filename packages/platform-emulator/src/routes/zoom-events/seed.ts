/** Zoom Events: seed data generator (hubs, events, sessions and registrants for the demo account). */
import type { SeedContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { seedPlans, type Plan } from './seed-plans.js';
import type { EventRec, EventRegistrantRec, HubRec, SessionRec, ZoomEventsSlice } from './types.js';

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

type NewId = () => string;

export function seedEvents(s: SeedContext): ZoomEventsSlice {
  const id = () => s.rng.id(22, ID_ALPHABET);
  const me = s.demo.email;
  const elena = 'elena.sokolova@meridianfleet.example';
  const hubs = seedHubs(id, me, elena);
  const [fleetHub, learningHub] = hubs as [HubRec, HubRec];
  const events: EventRec[] = [];
  const sessions: Record<string, SessionRec[]> = {};
  const registrants: Record<string, EventRegistrantRec[]> = {};

  const plans = seedPlans(me, elena, fleetHub, learningHub);

  for (const pl of plans) {
    const ev = eventOf(s, id, pl);
    events.push(ev);
    sessions[ev.event_id] = sessionsOf(s, id, pl);
    registrants[ev.event_id] = registrantsOf(s, id, pl);
  }
  return { hubs, events, sessions, registrants };
}

/** The two hubs: the demo user's public one and Elena's internal learning hub. */
function seedHubs(id: NewId, me: string, elena: string): HubRec[] {
  return [
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
}

function eventOf(s: SeedContext, id: NewId, pl: Plan): EventRec {
  const start = s.at(pl.day, pl.hh, 0);
  const end = s.at(pl.day, pl.hh + pl.hours, 0);
  return {
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
}

/** The plan's sessions; published ones have a meeting or webinar behind each. */
function sessionsOf(s: SeedContext, id: NewId, pl: Plan): SessionRec[] {
  const start = s.at(pl.day, pl.hh, 0);
  return pl.sessions.map((ss) => {
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
}

/** The demo user's ticket when attending, the guests, and each speaker not already registered. */
function registrantsOf(s: SeedContext, id: NewId, pl: Plan): EventRegistrantRec[] {
  const me = s.demo.email;
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
  return regs;
}
