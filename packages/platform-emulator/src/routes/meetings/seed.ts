/**
 * The meetings emulator's seed: 18 past and 12 upcoming meetings of the demo user around the
 * anchor day, with registrants on those that take registration.
 */
import type { SeedContext } from '../../context.js';
import type { MeetingRec, MeetingsSlice, RegistrantRec } from './records.js';

const TOPICS = [
  'GrowthOS funnel review',
  'Freight lane planning',
  'Capital pipeline stand-up',
  'Mortgage rate-lock huddle',
  'Housing leasing sync',
  'Contracting site walk debrief',
  'FleetWorks maintenance review',
  'Early Learning enrollment open house',
  'Learning: CDL cohort kickoff',
  'MOG weekly operating review',
  'Brand council',
  'Partner onboarding: Lakeshore Logistics',
];

const uuidFor = (s: SeedContext) => {
  const raw = s.rng.id(22, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
  return raw.endsWith('==') ? raw : `${raw.slice(0, 22)}==`.slice(0, 24);
};

export function seedMeetings(s: SeedContext): MeetingsSlice {
  const meetings: MeetingRec[] = [];
  const registrants: Record<string, RegistrantRec[]> = {};
  // 18 past and 12 upcoming meetings around the anchor day.
  const days = [
    -27, -24, -21, -19, -16, -14, -12, -10, -9, -7, -6, -5, -4, -3, -2, -2, -1, -1, 1, 1, 2, 3, 4, 6, 7, 9,
    11, 14, 18, 21,
  ];
  days.forEach((d, i) => {
    const id = Number(`8${s.rng.digits(10)}`);
    const past = d < 0;
    const approval = i % 4 === 0 ? 0 : 2;
    const m: MeetingRec = {
      id,
      uuid: uuidFor(s),
      topic: TOPICS[i % TOPICS.length] ?? 'Meeting',
      type: i === 5 ? 8 : 2,
      start_time: s.at(d, s.rng.pick([14, 15, 16, 17, 19, 20]), s.rng.pick([0, 30])),
      duration: s.rng.pick([30, 45, 60, 90]),
      timezone: s.demo.timezone,
      agenda: `Agenda for ${TOPICS[i % TOPICS.length] ?? 'the meeting'}: status, numbers, decisions, next steps.`,
      created_at: s.at(d - 7, 12, 0),
      password: s.rng.id(6, 'abcdefghjkmnpqrstuvwxyz23456789'),
      status: past ? 'ended' : 'waiting',
      approval_type: approval,
      settings: {
        host_video: true,
        participant_video: false,
        join_before_host: false,
        mute_upon_entry: true,
        waiting_room: true,
        auto_recording: past ? 'cloud' : 'none',
        approval_type: approval,
        audio: 'both',
      },
      creation_source: i % 3 === 0 ? 'open_api' : 'web_portal',
      participants: past ? s.rng.int(3, 14) : 0,
      has_summary: past,
    };
    meetings.push(m);
    if (approval === 0) {
      registrants[String(id)] = Array.from({ length: s.rng.int(1, 4) }, (_, n) => ({
        id: s.rng.id(22),
        email: `guest${i}${n}@example.com`,
        first_name: s.rng.pick(['Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery']),
        last_name: s.rng.pick(['Lopez', 'Kim', 'Patel', 'Nguyen', 'Smith', 'Garcia']),
        status: 'approved' as const,
        create_time: s.at(d - 3, 10, n * 5),
        custom_questions: [],
      }));
    }
  });
  return { meetings, registrants };
}
