/**
 * Cloud recordings and transcripts. Recordings are not stored: every meeting of the meetings
 * slice that has ended with `settings.auto_recording: 'cloud'` has one, with file ids and
 * content derived from the meeting's UUID, so they are stable across restarts and resets. This
 * slice only remembers what the API changed (trashed and deleted recordings and files).
 *
 * Files are real, small bytes served by `GET /v2/rec/download/{fileId}`: an MP4 and an M4A
 * (ISO-BMFF boxes only), a WebVTT transcript, the chat TXT and the AI summary JSON, with a
 * dialogue about the meeting's topic that the hosted-MCP stand-in searches too.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { SandboxContext, SandboxRequest } from '../context.js';
import { createRng, type Rng } from '../prng.js';
import { zoomTime } from '../time.js';
import { findMeeting, type MeetingRec, type MeetingsSlice } from './meetings.js';

export interface RecordingsSlice {
  /** Meeting UUID → when the whole recording went to the trash. */
  trashed: Record<string, string>;
  /** File id → when that file went to the trash. */
  trashedFiles: Record<string, string>;
  /** Meeting UUIDs whose recording was deleted for good. */
  deleted: string[];
  /** File ids deleted for good (a deleted transcript is one of them). */
  deletedFiles: string[];
}

// ---------------------------------------------------------------------------------------------
// What was said: a short, topic-specific dialogue, chat and AI summary per meeting.
// ---------------------------------------------------------------------------------------------

export interface Cue {
  speaker: string;
  text: string;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
}

export interface MeetingContent {
  speakers: string[];
  transcript: Cue[];
  chat: { at: number; speaker: string; text: string }[];
  summary: {
    title: string;
    overview: string;
    details: { label: string; summary: string }[];
    next_steps: string[];
  };
}

interface Script {
  /** Index 0 is the host. */
  people: string[];
  lines: [number, string][];
  chat: [number, string][];
  overview: string;
  details: [string, string][];
  next: string[];
}

const HOST = 'Avery Quinn';
const num = (n: number) => n.toLocaleString('en-US');

const SCRIPTS: [RegExp, (v: Rng, m: MeetingRec) => Script][] = [
  [
    /growthos|funnel|marketing/i,
    (v) => {
      const leads = v.int(900, 1600);
      const lift = v.int(6, 18);
      const conv = v.int(9, 15);
      const budget = v.pick([4000, 5000, 6500, 8000]);
      return {
        people: [HOST, 'Jordan Reyes', 'Alex Chen'],
        lines: [
          [0, 'Let us start with the funnel. Alex, where did we land on leads last week?'],
          [
            2,
            `We closed the week at ${num(leads)} marketing-qualified leads, up ${lift} percent. Most of the lift came from the Meridian Mortgage refinance landing page.`,
          ],
          [
            1,
            `Lead to booked call is still the weak spot, about ${conv} percent. Prospects drop off on the long intake form.`,
          ],
          [0, 'Then let us cut the form to three fields and run it against the current version.'],
          [
            2,
            `Agreed. I also want to move ${num(budget)} dollars from display into search for the Meridian Freight driver recruiting campaign.`,
          ],
          [1, 'Search costs us roughly half as much per lead as display, so that shift makes sense.'],
          [0, 'Approved. We review the A/B results at next week’s funnel review.'],
        ],
        chat: [
          [2, 'Funnel dashboard: GrowthOS workspace > Funnel > Weekly'],
          [1, 'Refinance landing page copy is in the shared drive.'],
        ],
        overview: `GrowthOS reviewed the marketing funnel: ${num(leads)} MQLs (up ${lift}%), with lead-to-call conversion at ${conv}% as the bottleneck.`,
        details: [
          [
            'Funnel performance',
            `Leads grew ${lift}% on the Meridian Mortgage refinance page; lead-to-call conversion stays at ${conv}% because of the long intake form.`,
          ],
          [
            'Decisions',
            `Test a three-field form against the current one; move $${num(budget)} from display to search for freight driver recruiting.`,
          ],
        ],
        next: [
          'Alex Chen to launch the three-field form A/B test',
          `Jordan Reyes to shift $${num(budget)} from display to search`,
          'Avery Quinn to review the test results at the next funnel review',
        ],
      };
    },
  ],
  [
    /freight|lane|dispatch/i,
    (v) => {
      const loads = v.int(38, 64);
      const empty = v.int(9, 17);
      const rate = v.pick(['2.15', '2.30', '2.45']);
      const ontime = v.int(88, 96);
      return {
        people: [HOST, 'Marcus Bell', 'Dana Garcia'],
        lines: [
          [0, 'Marcus, walk us through the lanes.'],
          [
            1,
            `Dallas to Memphis is the busiest lane, ${loads} loads last week, but ${empty} of them came back empty.`,
          ],
          [2, `I can get a backhaul contract with two Memphis shippers at ${rate} dollars per mile.`],
          [0, 'What is our on-time rate on that lane?'],
          [1, `${ontime} percent. The misses were dock delays at the Memphis cross-dock.`],
          [0, 'Take the backhaul contract, and ask the cross-dock for fixed appointment windows.'],
          [2, 'I will also reprice the Houston lane; the fuel surcharge lags diesel by two weeks.'],
          [0, 'Good. Marcus, add two drivers to the Dallas pool before the peak.'],
        ],
        chat: [
          [2, `Backhaul quote: ${rate}/mile, 12-month term, 30-day out`],
          [1, 'Lane sheet updated in the dispatch folder.'],
        ],
        overview: `Meridian Freight planned its lanes: Dallas–Memphis ran ${loads} loads with ${empty} empty backhauls and ${ontime}% on time.`,
        details: [
          [
            'Lane performance',
            `Dallas–Memphis: ${loads} loads, ${empty} empty returns, ${ontime}% on time; misses came from Memphis cross-dock delays.`,
          ],
          [
            'Decisions',
            `Sign a backhaul contract at $${rate}/mile with two Memphis shippers; reprice the Houston lane fuel surcharge.`,
          ],
        ],
        next: [
          'Dana Garcia to sign the Memphis backhaul contract',
          'Marcus Bell to add two drivers to the Dallas pool',
          'Dana Garcia to reprice the Houston fuel surcharge',
        ],
      };
    },
  ],
  [
    /capital|pipeline|lending/i,
    (v) => {
      const amount = (v.int(62, 118) / 10).toFixed(1);
      const deals = v.int(14, 26);
      const days = v.int(4, 7);
      return {
        people: [HOST, 'Sam Okafor', 'Robin Diaz'],
        lines: [
          [0, 'Quick pipeline round. Sam?'],
          [
            1,
            `We are at ${amount} million dollars across ${deals} equipment loans; three are waiting on tax returns.`,
          ],
          [2, `Underwriting turnaround is ${days} days. Our goal is three.`],
          [1, 'FleetWorks referred two owner-operators who need tractor financing this month.'],
          [
            0,
            'Fast-track the FleetWorks referrals; they come with maintenance history, which lowers our risk.',
          ],
          [
            2,
            'The Lakeshore trailer lease goes over our concentration limit. I recommend we syndicate half of it.',
          ],
          [0, 'Agreed, syndicate half of Lakeshore. Robin, what would get turnaround to three days?'],
          [2, 'Pulling bank statements automatically instead of by email would save about a day.'],
        ],
        chat: [
          [1, 'Pipeline report is in the Capital shared folder, tab "Week"'],
          [2, 'Concentration limit memo attached.'],
        ],
        overview: `Meridian Capital's pipeline stands at $${amount}M across ${deals} equipment loans; underwriting takes ${days} days against a three-day goal.`,
        details: [
          [
            'Pipeline',
            `$${amount}M across ${deals} loans; three files are waiting on tax returns; two FleetWorks owner-operator referrals arrived.`,
          ],
          [
            'Risk',
            'The Lakeshore trailer lease exceeds the concentration limit; half of it will be syndicated.',
          ],
        ],
        next: [
          'Sam Okafor to fast-track the two FleetWorks referrals',
          'Robin Diaz to find a syndication partner for half of the Lakeshore lease',
          'Robin Diaz to scope automatic bank statement retrieval',
        ],
      };
    },
  ],
  [
    /mortgage|rate-lock|rate lock/i,
    (v) => {
      const locks = v.int(18, 34);
      const expiring = v.int(3, 7);
      const bps = v.pick([12, 15, 20]);
      return {
        people: [HOST, 'Sam Okafor', 'Casey Patel'],
        lines: [
          [1, `We locked ${locks} loans this week, and ${expiring} locks expire in the next ten days.`],
          [2, 'Two of those are waiting on appraisals that are past due.'],
          [1, `Rates moved up an eighth yesterday, and a 15-day extension costs ${bps} basis points.`],
          [
            0,
            'We cover extensions when the delay is ours, like the appraisals. The borrower pays when documents are late on their side.',
          ],
          [2, 'I will call the appraisal management company today and escalate both orders.'],
          [1, 'Also, Meridian Housing tenants keep asking about first-time buyer programs.'],
          [0, 'Let us run a joint first-time buyer workshop with Housing next month.'],
        ],
        chat: [
          [2, 'Appraisal orders #4471 and #4490 are the late ones'],
          [1, 'Rate sheet from this morning is in the lock desk channel.'],
        ],
        overview: `Meridian Mortgage locked ${locks} loans; ${expiring} locks expire within ten days, two of them held up by late appraisals.`,
        details: [
          [
            'Locks',
            `${locks} new locks; ${expiring} expiring soon; extensions cost ${bps} bps after rates rose an eighth.`,
          ],
          [
            'Policy',
            'Meridian covers extensions caused by its own delays (appraisals); borrowers pay when their documents are late.',
          ],
        ],
        next: [
          'Casey Patel to escalate the two late appraisals',
          'Sam Okafor to plan a first-time buyer workshop with Meridian Housing',
        ],
      };
    },
  ],
  [
    /housing|leasing|tenant/i,
    (v) => {
      const occ = v.int(91, 97);
      const vacant = v.int(6, 12);
      const renew = v.int(58, 71);
      const turn = v.int(12, 17);
      return {
        people: [HOST, 'Taylor Lopez', 'Jamie Smith'],
        lines: [
          [1, `Occupancy is ${occ} percent across the portfolio. Riverside has ${vacant} vacant units.`],
          [2, 'Four of those are in make-ready; Meridian Contracting is doing the flooring this week.'],
          [1, `Our renewal rate is ${renew} percent. Most people who leave mention the parking.`],
          [0, 'Let us run a referral credit at Riverside and get a quote for the extra parking lot.'],
          [2, `Turn time averages ${turn} days. The target is ten.`],
          [0, 'Ask Contracting to put Riverside first on their schedule.'],
        ],
        chat: [
          [1, 'Vacancy list: Riverside 2B, 3A, 3D, 4C and others in the leasing tracker'],
          [2, 'Flooring crew confirmed for Wednesday.'],
        ],
        overview: `Meridian Housing is at ${occ}% occupancy; Riverside has ${vacant} vacancies and turn time is ${turn} days against a ten-day target.`,
        details: [
          [
            'Occupancy',
            `${occ}% occupied; ${vacant} Riverside units vacant, four in make-ready; renewals at ${renew}%, parking is the main complaint.`,
          ],
          [
            'Decisions',
            'Offer a referral credit at Riverside; get a quote for extra parking; Contracting prioritizes Riverside turns.',
          ],
        ],
        next: [
          'Taylor Lopez to launch the Riverside referral credit',
          'Jamie Smith to get Riverside turns to the top of Contracting’s schedule',
          'Avery Quinn to request a parking lot quote',
        ],
      };
    },
  ],
  [
    /contracting|site walk|construction/i,
    (v) => {
      const pct = v.int(55, 78);
      const weeks = v.int(2, 4);
      return {
        people: [HOST, 'Riley Nguyen', 'Kofi Mensah'],
        lines: [
          [
            1,
            `The Elm Street build is ${pct} percent complete, and the framing inspection passed on Tuesday.`,
          ],
          [
            2,
            'The safety walk found two issues: a missing guardrail on the second floor and extension cords across the main walkway.',
          ],
          [0, 'Those get fixed before anyone goes back up.'],
          [1, `The window supplier slipped by ${weeks} weeks.`],
          [0, 'Then resequence: start interior drywall on the first floor while we wait for windows.'],
          [2, 'I will run a toolbox talk on fall protection Monday morning.'],
        ],
        chat: [
          [2, 'Photos from the site walk are uploaded to the Elm Street project folder'],
          [1, 'Revised schedule coming tonight.'],
        ],
        overview: `Meridian Contracting's Elm Street build is ${pct}% complete; the safety walk found two hazards and windows slipped ${weeks} weeks.`,
        details: [
          [
            'Progress',
            `Elm Street is ${pct}% complete; the framing inspection passed; windows are ${weeks} weeks late.`,
          ],
          [
            'Safety',
            'A missing second-floor guardrail and cords across the walkway must be fixed before work resumes upstairs.',
          ],
        ],
        next: [
          'Kofi Mensah to fix the guardrail and walkway hazards and run a fall-protection toolbox talk',
          'Riley Nguyen to resequence interior drywall ahead of the windows',
        ],
      };
    },
  ],
  [
    /fleetworks|maintenance|shop/i,
    (v) => {
      const pm = v.int(120, 180);
      const compliance = v.int(90, 98);
      const down = (v.int(60, 140) / 10).toFixed(1);
      return {
        people: [HOST, 'Morgan Kim', 'Marcus Bell'],
        lines: [
          [
            1,
            `We completed ${pm} preventive maintenance services this month; compliance is ${compliance} percent.`,
          ],
          [2, 'Truck 214 has had the same DEF sensor fault three times.'],
          [1, 'Then it is the wiring harness, not the sensor. We replace the harness this week.'],
          [0, 'What is our average downtime per repair?'],
          [1, `${down} hours, and most of it is waiting on parts.`],
          [0, 'Stock the top twenty parts at the Dallas shop, so we stop waiting on deliveries.'],
          [2, 'And the tire program: we should rotate at 25,000 miles instead of 30,000.'],
        ],
        chat: [
          [1, 'Top-20 parts list draft is in the FleetWorks inventory sheet'],
          [2, 'Truck 214 is back in the yard Thursday.'],
        ],
        overview: `FleetWorks completed ${pm} PM services at ${compliance}% compliance; average repair downtime is ${down} hours, mostly parts waits.`,
        details: [
          [
            'Maintenance',
            `${pm} preventive services at ${compliance}% compliance; truck 214 has a recurring DEF fault traced to the harness.`,
          ],
          ['Decisions', 'Stock the top 20 parts at the Dallas shop; rotate tires at 25,000 miles.'],
        ],
        next: [
          'Morgan Kim to replace the harness on truck 214',
          'Morgan Kim to stock the top 20 parts in Dallas',
          'Marcus Bell to update the tire rotation schedule',
        ],
      };
    },
  ],
  [
    /early learning|enrollment|open house|child/i,
    (v) => {
      const families = v.int(24, 41);
      const apps = v.int(9, 18);
      const waitlist = v.int(6, 14);
      return {
        people: [HOST, 'Hannah Brooks', 'Priya Natarajan'],
        lines: [
          [1, `We had ${families} families at the open house and ${apps} started an application.`],
          [0, 'Where do we have room?'],
          [
            1,
            `The toddler room has four openings. The infant room is full with ${waitlist} families on the waitlist.`,
          ],
          [
            2,
            'Several parents work at Meridian Freight and asked whether hours can start at six thirty for early shifts.',
          ],
          [0, 'Let us pilot a six thirty opening at the Dallas center and offer a sibling discount.'],
          [1, 'I will also send tuition assistance information to everyone who attended.'],
        ],
        chat: [
          [1, 'Open house sign-in sheet is in the Early Learning drive'],
          [2, 'Freight shift schedules attached for the early-hours pilot.'],
        ],
        overview: `Meridian Early Learning's open house drew ${families} families and ${apps} applications; the infant room waitlist is ${waitlist}.`,
        details: [
          [
            'Enrollment',
            `${apps} applications from ${families} families; four toddler openings; ${waitlist} families waiting for the infant room.`,
          ],
          [
            'Decisions',
            'Pilot a 6:30 a.m. opening at the Dallas center for Meridian Freight shift workers; offer a sibling discount.',
          ],
        ],
        next: [
          'Hannah Brooks to send tuition assistance information to attendees',
          'Priya Natarajan to staff the 6:30 a.m. pilot in Dallas',
        ],
      };
    },
  ],
  [
    /cdl|cohort|learning/i,
    (v) => {
      const students = v.int(14, 22);
      const pass = v.int(82, 93);
      return {
        people: [HOST, 'Elena Sokolova', 'Marcus Bell'],
        lines: [
          [
            1,
            `Welcome, everyone. We have ${students} students in this CDL cohort, and range time starts in week two.`,
          ],
          [2, 'Meridian Freight will interview every graduate, with a sign-on bonus after ninety days.'],
          [0, 'What was the pass rate for the last cohort?'],
          [1, `${pass} percent on the first attempt. Backing maneuvers are where people struggle.`],
          [1, 'We need a second range truck to give everyone more backing practice.'],
          [2, 'FleetWorks can lend us truck 118 for the range while it is between routes.'],
          [0, 'Do it. And let us track backing practice hours per student.'],
        ],
        chat: [
          [1, 'Cohort calendar and range schedule are in the Learning portal'],
          [2, 'Freight recruiting contact: recruiting@meridianfleet.example'],
        ],
        overview: `Meridian Learning kicked off a CDL cohort of ${students} students; the last cohort passed at ${pass}% on the first attempt.`,
        details: [
          [
            'Cohort',
            `${students} students; range time starts week two; backing maneuvers are the weak spot.`,
          ],
          [
            'Hiring',
            'Meridian Freight interviews every graduate, with a sign-on bonus after 90 days; FleetWorks lends truck 118 for range practice.',
          ],
        ],
        next: [
          'Elena Sokolova to add truck 118 to the range schedule',
          'Elena Sokolova to track backing practice hours per student',
          'Marcus Bell to schedule graduate interviews',
        ],
      };
    },
  ],
  [
    /\bmog\b|operating review|operating group/i,
    (v) => {
      const revenue = (v.int(180, 260) / 10).toFixed(1);
      const ahead = v.int(2, 6);
      const roles = v.int(5, 11);
      return {
        people: [HOST, 'Priya Natarajan', 'Sam Okafor'],
        lines: [
          [0, 'Operating review. Numbers first.'],
          [
            2,
            `Consolidated revenue is ${revenue} million dollars for the month, ${ahead} percent ahead of plan. Freight and Mortgage carried it.`,
          ],
          [
            1,
            `We have ${roles} open roles across the companies; diesel technicians at FleetWorks are the hardest to fill.`,
          ],
          [0, 'What is the status of moving payroll to shared services?'],
          [1, 'Four companies are on it. Contracting and Housing move next quarter.'],
          [0, 'Good. Let us raise the referral bonus for technicians and keep payroll on schedule.'],
        ],
        chat: [
          [2, 'Monthly flash report is in the MOG finance folder'],
          [1, 'Open roles tracker link is in the people-ops channel.'],
        ],
        overview: `The Meridian Operating Group review: revenue $${revenue}M, ${ahead}% ahead of plan; ${roles} open roles; payroll consolidation is on track.`,
        details: [
          [
            'Financials',
            `$${revenue}M consolidated revenue, ${ahead}% above plan, led by Freight and Mortgage.`,
          ],
          [
            'People',
            `${roles} open roles; FleetWorks diesel technicians are hardest to hire; payroll shared services cover four companies.`,
          ],
        ],
        next: [
          'Priya Natarajan to raise the technician referral bonus',
          'Priya Natarajan to move Contracting and Housing payroll next quarter',
          'Sam Okafor to circulate the monthly flash report',
        ],
      };
    },
  ],
  [
    /brand/i,
    () => ({
      people: [HOST, 'Alex Chen', 'Jordan Reyes'],
      lines: [
        [1, 'The new Meridian Fleet logo lockups are ready for all ten companies.'],
        [2, 'Early Learning asked for a warmer palette; the navy feels corporate to parents.'],
        [0, 'Keep the core navy for the family mark, and allow one accent color per company.'],
        [1, 'Then GrowthOS gets teal, Early Learning gets the warm coral, and Freight keeps orange.'],
        [2, 'Sales needs updated one-pagers before the trade show.'],
        [0, 'Brand guidelines version two by the end of the month, one-pagers right after.'],
      ],
      chat: [
        [1, 'Lockup previews are in the brand kit folder'],
        [2, 'Trade show is the 18th, booth materials due the 10th.'],
      ],
      overview:
        'The brand council approved the new logo lockups, kept the core navy and allowed one accent color per company.',
      details: [
        [
          'Identity',
          'New Meridian Fleet logo lockups for ten companies; core navy stays, with one accent color per company (coral for Early Learning).',
        ],
        ['Sales material', 'One-pagers need updating before the trade show.'],
      ],
      next: [
        'Alex Chen to publish brand guidelines v2 by month end',
        'Jordan Reyes to update the sales one-pagers',
      ],
    }),
  ],
  [
    /partner|onboarding|lakeshore/i,
    (v) => {
      const loads = v.int(25, 45);
      return {
        people: [HOST, 'Jordan Reyes', 'Dana Garcia', 'Lee Whitaker'],
        lines: [
          [0, 'Welcome, Lee. Great to have Lakeshore Logistics on board.'],
          [3, `Thanks. We plan to send about ${loads} loads a week starting next month.`],
          [2, 'EDI testing starts Monday; we need your load tender and status message specs.'],
          [
            1,
            'Payment terms are net thirty, and we need current insurance certificates before the first load.',
          ],
          [
            0,
            'Let us pilot two lanes first, Chicago to Dallas and Chicago to Memphis, and expand after thirty days.',
          ],
          [3, 'That works for us.'],
        ],
        chat: [
          [2, 'EDI spec request sent to lee.whitaker@lakeshore.example'],
          [1, 'Carrier packet attached.'],
        ],
        overview: `Lakeshore Logistics onboarding: about ${loads} loads a week, a two-lane pilot first, EDI testing starting Monday.`,
        details: [
          [
            'Volume',
            `About ${loads} loads a week from next month; pilot on Chicago–Dallas and Chicago–Memphis for 30 days.`,
          ],
          [
            'Setup',
            'EDI testing starts Monday; net-30 terms; insurance certificates required before the first load.',
          ],
        ],
        next: [
          'Dana Garcia to start EDI testing with Lakeshore',
          'Jordan Reyes to collect insurance certificates',
          'Avery Quinn to review the pilot after 30 days',
        ],
      };
    },
  ],
];

function genericScript(m: MeetingRec): Script {
  const agenda = m.agenda.trim() || 'status, open questions and next steps';
  return {
    people: [HOST, 'Priya Natarajan', 'Jordan Reyes'],
    lines: [
      [0, `Thanks for joining ${m.topic}. The agenda: ${agenda}`],
      [1, 'Status first: everything is on track except the vendor contract, which is still in legal review.'],
      [2, 'Legal expects to finish the review by Thursday.'],
      [0, 'Then we decide on the vendor on Friday, and keep the timeline as it is.'],
      [1, 'I will send the updated plan to everyone this afternoon.'],
    ],
    chat: [[1, 'Plan draft is in the shared folder']],
    overview: `${m.topic}: the team reviewed status, the vendor contract is in legal review, and the decision is set for Friday.`,
    details: [
      ['Status', 'Work is on track except the vendor contract, which is in legal review until Thursday.'],
      ['Decisions', 'Decide on the vendor on Friday; keep the current timeline.'],
    ],
    next: [
      'Priya Natarajan to send the updated plan',
      'Jordan Reyes to confirm the legal review on Thursday',
    ],
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const seedOf = (s: string) => digest(s).readUInt32BE(0);

/** Recording window: it starts shortly after the meeting and stops shortly before its end. */
function windowOf(m: MeetingRec): { start: number; end: number } {
  const r = createRng(seedOf(`${m.uuid}|window`));
  const start = Date.parse(m.start_time) + r.int(5, 95) * 1000;
  const end = Math.max(start + 60_000, Date.parse(m.start_time) + m.duration * 60_000 - r.int(0, 180) * 1000);
  return { start, end };
}

/** What was said in a meeting: deterministic from its UUID, topic, agenda and duration. */
export function meetingContent(m: MeetingRec): MeetingContent {
  const v = createRng(seedOf(`${m.uuid}|content`));
  const script = SCRIPTS.find(([re]) => re.test(m.topic))?.[1](v, m) ?? genericScript(m);
  const { start, end } = windowOf(m);
  const length = Math.max(60, Math.floor((end - start) / 1000));
  const who = (i: number) => script.people[i] ?? HOST;
  const slot = length / (script.lines.length + 1);
  const transcript = script.lines.map(([i, text], n) => {
    const at = Math.floor(slot * n + 2 + v.int(0, Math.max(1, Math.floor(slot / 4)))) + v.int(0, 999) / 1000;
    const dur = Math.min(
      Math.max(3, Math.round(text.split(' ').length * 0.42 * 10) / 10),
      Math.max(3, slot - 1),
    );
    return { speaker: who(i), text, start: at, end: Math.round((at + dur) * 1000) / 1000 };
  });
  const chat = script.chat.map(([i, text], n) => ({
    at: Math.floor((length * (n + 1)) / (script.chat.length + 2)),
    speaker: who(i),
    text,
  }));
  return {
    speakers: [...new Set(script.people)],
    transcript,
    chat,
    summary: {
      title: `Meeting summary for ${m.topic}`,
      overview: script.overview,
      details: script.details.map(([label, summary]) => ({ label, summary })),
      next_steps: script.next,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Files: ids, metadata and bytes.
// ---------------------------------------------------------------------------------------------

type Kind = 'mp4' | 'm4a' | 'transcript' | 'chat' | 'summary';

const KINDS: Record<
  Kind,
  { fileType: string; ext: string; recordingType: string; contentType: string; name: string }
> = {
  mp4: {
    fileType: 'MP4',
    ext: 'MP4',
    recordingType: 'shared_screen_with_speaker_view',
    contentType: 'video/mp4',
    name: 'Recording_1920x1080.mp4',
  },
  m4a: {
    fileType: 'M4A',
    ext: 'M4A',
    recordingType: 'audio_only',
    contentType: 'audio/mp4',
    name: 'Recording.m4a',
  },
  transcript: {
    fileType: 'TRANSCRIPT',
    ext: 'VTT',
    recordingType: 'audio_transcript',
    contentType: 'text/vtt; charset=utf-8',
    name: 'Recording.transcript.vtt',
  },
  chat: {
    fileType: 'CHAT',
    ext: 'TXT',
    recordingType: 'chat_file',
    contentType: 'text/plain; charset=utf-8',
    name: 'RecordingnewChat.txt',
  },
  summary: {
    fileType: 'SUMMARY',
    ext: 'JSON',
    recordingType: 'summary',
    contentType: 'application/json; charset=utf-8',
    name: 'Summary.json',
  },
};

/** A v4-shaped UUID from a string, as the platform's recording file ids look. */
function uuidFrom(s: string): string {
  const h = digest(s).toString('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const fileIdOf = (m: MeetingRec, kind: Kind) => uuidFrom(`${m.uuid}|${kind}`);
const opaque = (s: string, n: number) => digest(s).toString('base64url').slice(0, n);

function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/** A tiny ISO-BMFF file (ftyp, free, mdat), recognisable as MP4/M4A by any sniffer. */
function isoMedia(kind: 'mp4' | 'm4a', m: MeetingRec): Buffer {
  const brands = kind === 'mp4' ? ['isom', 'isom', 'iso2', 'avc1', 'mp41'] : ['M4A ', 'M4A ', 'isom', 'mp42'];
  const minor = Buffer.alloc(4);
  minor.writeUInt32BE(kind === 'mp4' ? 0x200 : 0, 0);
  const ftyp = box(
    'ftyp',
    Buffer.concat([
      Buffer.from(brands[0] ?? 'isom', 'latin1'),
      minor,
      ...brands.slice(1).map((b) => Buffer.from(b, 'latin1')),
    ]),
  );
  const free = box('free', Buffer.from(`Meridian Fleet sandbox recording: ${m.topic}`, 'utf8'));
  const chunks: Buffer[] = [];
  for (let i = 0; i < 8; i++) chunks.push(digest(`${m.uuid}|${kind}|${i}`));
  return Buffer.concat([ftyp, free, box('mdat', Buffer.concat(chunks))]);
}

const clock = (sec: number, withMs: boolean) => {
  const total = Math.max(0, Math.round(sec * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const hms = `${pad(Math.floor(total / 3_600_000))}:${pad(Math.floor(total / 60_000) % 60)}:${pad(Math.floor(total / 1000) % 60)}`;
  return withMs ? `${hms}.${pad(total % 1000, 3)}` : hms;
};

/** The transcript as the platform writes it: WebVTT, numbered cues, "Speaker: text". */
export function transcriptVtt(m: MeetingRec): string {
  const c = meetingContent(m);
  const cues = c.transcript.map(
    (q, i) => `${i + 1}\n${clock(q.start, true)} --> ${clock(q.end, true)}\n${q.speaker}: ${q.text}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

function fileBytes(m: MeetingRec, kind: Kind): Buffer {
  switch (kind) {
    case 'mp4':
    case 'm4a':
      return isoMedia(kind, m);
    case 'transcript':
      return Buffer.from(transcriptVtt(m), 'utf8');
    case 'chat':
      return Buffer.from(
        meetingContent(m)
          .chat.map((c) => `${clock(c.at, false)}\t ${c.speaker}:\t${c.text}\r\n`)
          .join(''),
        'utf8',
      );
    case 'summary': {
      const s = meetingContent(m).summary;
      const { end } = windowOf(m);
      return Buffer.from(
        JSON.stringify(
          {
            meeting_id: m.id,
            meeting_uuid: m.uuid,
            meeting_topic: m.topic,
            summary_created_time: zoomTime(new Date(end + 120_000)),
            summary_title: s.title,
            summary_overview: s.overview,
            summary_details: s.details,
            next_steps: s.next_steps,
          },
          null,
          2,
        ),
        'utf8',
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Which recordings exist, and in what state.
// ---------------------------------------------------------------------------------------------

/** Whether the meeting has ended with cloud recording on, so the platform made a recording. */
export function hasCloudRecording(m: MeetingRec, now: Date): boolean {
  if (m.settings['auto_recording'] !== 'cloud') return false;
  if (m.status === 'ended') return true;
  return m.status !== 'started' && Date.parse(m.start_time) + m.duration * 60_000 < now.getTime();
}

export interface FileView {
  kind: Kind;
  id: string;
  start: string;
  end: string;
  size: number;
  state: 'active' | 'trashed' | 'deleted';
  deletedTime?: string;
}

/** Every file of the meeting's recording with its state; [] when there is no recording at all. */
export function recordingFiles(m: MeetingRec, slice: RecordingsSlice, now: Date): FileView[] {
  if (!hasCloudRecording(m, now)) return [];
  const { start, end } = windowOf(m);
  const kinds: Kind[] = [
    'mp4',
    'm4a',
    'transcript',
    'chat',
    ...(m.has_summary ? (['summary'] as Kind[]) : []),
  ];
  const gone = slice.deleted.includes(m.uuid);
  const trashedAt = slice.trashed[m.uuid];
  return kinds.map((kind) => {
    const id = fileIdOf(m, kind);
    const own = slice.trashedFiles[id];
    const state =
      gone || slice.deletedFiles.includes(id) ? 'deleted' : trashedAt || own ? 'trashed' : 'active';
    const deletedTime = trashedAt ?? own;
    return {
      kind,
      id,
      start: zoomTime(new Date(start)),
      end: zoomTime(new Date(end)),
      size: fileBytes(m, kind).length,
      state,
      ...(state === 'trashed' && deletedTime ? { deletedTime } : {}),
    };
  });
}

/** Whether the meeting's transcript can still be read (it exists and is neither trashed nor deleted). */
export function transcriptAvailable(m: MeetingRec, slice: RecordingsSlice, now: Date): boolean {
  return recordingFiles(m, slice, now).some((f) => f.kind === 'transcript' && f.state === 'active');
}

const typeString = (t: number) =>
  ['1', '2', '3', '4', '5', '6', '7', '8', '9', '99'].includes(String(t)) ? String(t) : '2';
const typeNumber = (t: number) => Number(typeString(t));

function fileObject(ctx: SandboxContext, m: MeetingRec, f: FileView, withDeletedTime: boolean) {
  const k = KINDS[f.kind];
  return {
    id: f.id,
    meeting_id: m.uuid,
    recording_start: f.start,
    recording_end: f.end,
    file_type: k.fileType,
    file_extension: k.ext,
    file_size: f.size,
    play_url: `${ctx.baseUrl}/rec/play/${opaque(`${f.id}|play`, 43)}`,
    download_url: `${ctx.baseUrl}/v2/rec/download/${f.id}`,
    status: 'completed',
    recording_type: k.recordingType,
    ...(withDeletedTime && f.deletedTime ? { deleted_time: f.deletedTime } : {}),
  };
}

/** The file as webhooks carry it: no deleted_time, plus file_name. */
function webhookFile(ctx: SandboxContext, m: MeetingRec, f: FileView) {
  return { ...fileObject(ctx, m, f, false), file_name: fileName(m, f.kind) };
}

function fileName(m: MeetingRec, kind: Kind): string {
  const gmt = m.start_time.replace(/[-:]/g, '').replace('T', '-').replace('Z', '');
  return `GMT${gmt}_${KINDS[kind].name}`;
}

const shareUrl = (ctx: SandboxContext, m: MeetingRec) =>
  `${ctx.baseUrl}/rec/share/${opaque(`${m.uuid}|share`, 64)}`;
const playPasscode = (m: MeetingRec) => opaque(`${m.uuid}|passcode`, 32);
const recordingPassword = (m: MeetingRec) => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789.@*+';
  return [...digest(`${m.uuid}|password`).subarray(0, 8)].map((b) => alphabet[b % alphabet.length]).join('');
};

function recordingHead(ctx: SandboxContext, m: MeetingRec, files: FileView[]) {
  return {
    uuid: m.uuid,
    id: m.id,
    account_id: ctx.demo.accountId,
    host_id: ctx.demo.id,
    topic: m.topic,
    type: typeString(m.type),
    start_time: m.start_time,
    timezone: m.timezone,
    duration: m.duration,
    total_size: files.reduce((n, f) => n + f.size, 0),
    recording_count: files.length,
    share_url: shareUrl(ctx, m),
    recording_play_passcode: playPasscode(m),
    auto_delete: false,
  };
}

/** The base of the platform's recording webhook objects (`type` is a number there). */
function webhookHead(ctx: SandboxContext, m: MeetingRec, files: FileView[]) {
  return {
    id: m.id,
    uuid: m.uuid,
    host_id: ctx.demo.id,
    account_id: ctx.demo.accountId,
    topic: m.topic,
    type: typeNumber(m.type),
    start_time: m.start_time,
    timezone: m.timezone,
    duration: m.duration,
    share_url: shareUrl(ctx, m),
    total_size: files.reduce((n, f) => n + f.size, 0),
    recording_count: files.length,
    recording_files: files.map((f) => webhookFile(ctx, m, f)),
  };
}

const slice = (ctx: SandboxContext) => ctx.slice<RecordingsSlice>('recordings');

/**
 * The `recording.completed` webhook object for a meeting with a cloud recording (the transcript
 * comes later, in `recording.transcript_completed`, as on the platform). Send it with
 * {@link emitRecordingCompleted}, which adds the top-level `download_token`.
 */
export function recordingCompletedObject(ctx: SandboxContext, m: MeetingRec) {
  const files = recordingFiles(m, slice(ctx), ctx.now()).filter(
    (f) => f.state === 'active' && f.kind !== 'transcript',
  );
  return {
    ...webhookHead(ctx, m, files),
    host_email: ctx.demo.email,
    password: recordingPassword(m),
    on_prem: false,
    recording_play_passcode: playPasscode(m),
    auto_delete: false,
  };
}

/** The `recording.transcript_completed` webhook object: the transcript file alone. */
export function transcriptCompletedObject(ctx: SandboxContext, m: MeetingRec) {
  const files = recordingFiles(m, slice(ctx), ctx.now()).filter(
    (f) => f.state === 'active' && f.kind === 'transcript',
  );
  return { ...webhookHead(ctx, m, files), host_email: ctx.demo.email, password: recordingPassword(m) };
}

// ---------------------------------------------------------------------------------------------
// Download access tokens: HS512 JWTs scoped to one meeting's recording.
// ---------------------------------------------------------------------------------------------

const tokenKey = (ctx: SandboxContext) => `${ctx.options.clientSecret}|recording-download`;

/** A `download_access_token` / webhook `download_token`: a JWT for one meeting's files. */
export function recordingDownloadToken(ctx: SandboxContext, m: MeetingRec, ttlSeconds = 86_400): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = enc({ alg: 'HS512' });
  const claims = enc({
    iss: ctx.baseUrl,
    accountId: ctx.demo.accountId,
    aud: `${ctx.baseUrl}/oauth`,
    mid: m.uuid,
    exp: Math.floor(ctx.now().getTime() / 1000) + ttlSeconds,
    userId: ctx.demo.id,
  });
  const sig = createHmac('sha512', tokenKey(ctx)).update(`${head}.${claims}`).digest('base64url');
  return `${head}.${claims}.${sig}`;
}

/** The meeting UUID a download token is good for, or undefined when it is forged or expired. */
export function verifyDownloadToken(ctx: SandboxContext, token: string): { meetingUuid: string } | undefined {
  const [head, claims, sig] = token.split('.');
  if (!head || !claims || !sig) return undefined;
  const want = createHmac('sha512', tokenKey(ctx)).update(`${head}.${claims}`).digest();
  const got = Buffer.from(sig, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  try {
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
      mid?: unknown;
      exp?: unknown;
    };
    if (typeof c.mid !== 'string' || typeof c.exp !== 'number' || c.exp * 1000 <= ctx.now().getTime())
      return undefined;
    return { meetingUuid: c.mid };
  } catch {
    return undefined;
  }
}

/** Sends `recording.completed` (with its top-level download_token), then `recording.transcript_completed`. */
export function emitRecordingCompleted(ctx: SandboxContext, m: MeetingRec): void {
  const token = recordingDownloadToken(ctx, m);
  ctx.webhooks.emit('recording.completed', recordingCompletedObject(ctx, m), {}, { download_token: token });
  if (transcriptAvailable(m, slice(ctx), ctx.now())) {
    ctx.webhooks.emit(
      'recording.transcript_completed',
      transcriptCompletedObject(ctx, m),
      {},
      { download_token: token },
    );
  }
}

/** A file's bytes, content type and name, when the file exists and is neither trashed nor deleted. */
export function recordingDownload(
  ctx: SandboxContext,
  fileId: string,
): { meeting: MeetingRec; bytes: Buffer; contentType: string; fileName: string } | undefined {
  const now = ctx.now();
  for (const m of ctx.slice<MeetingsSlice>('meetings').meetings) {
    const f = recordingFiles(m, slice(ctx), now).find((x) => x.id === fileId);
    if (f) {
      if (f.state !== 'active') return undefined;
      return {
        meeting: m,
        bytes: fileBytes(m, f.kind),
        contentType: KINDS[f.kind].contentType,
        fileName: fileName(m, f.kind),
      };
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Routes.
// ---------------------------------------------------------------------------------------------

const SCOPES = {
  list: [
    'cloud_recording:read:list_user_recordings',
    'cloud_recording:read:list_user_recordings:admin',
    'cloud_recording:read:list_user_recordings:master',
    'recording:read',
    'recording:read:admin',
  ],
  get: [
    'cloud_recording:read:list_recording_files',
    'cloud_recording:read:list_recording_files:admin',
    'cloud_recording:read:list_recording_files:master',
    'recording:read',
    'phone_recording:read:admin',
  ],
  delete: [
    'cloud_recording:delete:meeting_recording',
    'cloud_recording:delete:meeting_recording:admin',
    'cloud_recording:delete:meeting_recording:master',
    'recording:write',
    'recording:write:admin',
  ],
  recover: [
    'cloud_recording:update:recover_meeting_recordings',
    'cloud_recording:update:recover_meeting_recordings:admin',
    'cloud_recording:update:recover_meeting_recordings:master',
    'recording:write',
    'recording:write:admin',
  ],
  deleteFile: [
    'cloud_recording:delete:recording_file',
    'cloud_recording:delete:recording_file:admin',
    'cloud_recording:delete:recording_file:master',
    'recording:write',
    'recording:write:admin',
  ],
  recoverFile: [
    'cloud_recording:update:recover_single_recording',
    'cloud_recording:update:recover_single_recording:admin',
    'cloud_recording:update:recover_single_recording:master',
    'recording:write',
    'recording:write:admin',
  ],
  transcript: [
    'cloud_recording:read:meeting_transcript',
    'cloud_recording:read:meeting_transcript:admin',
    'recording:read',
    'recording:write',
    'recording:read:admin',
    'recording:write:admin',
  ],
  deleteTranscript: [
    'cloud_recording:delete:meeting_transcript',
    'cloud_recording:delete:meeting_transcript:admin',
    'recording:write',
    'recording:write:admin',
  ],
};
/** Downloading a file: any scope that lets the caller read recordings. */
const DOWNLOAD_SCOPES = [
  ...new Set([...SCOPES.get, ...SCOPES.list, ...SCOPES.transcript.filter((s) => !s.includes('write'))]),
];

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (s: string) =>
  DATE_RE.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The same day one calendar month earlier (clamped to the month's last day). */
function monthBefore(day: string): string {
  const [y, mo, d] = day.split('-').map(Number) as [number, number, number];
  const last = new Date(Date.UTC(y, mo - 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(y, mo - 2, Math.min(d, last))));
}

export const recordingsModule = defineModule<RecordingsSlice>({
  name: 'recordings',
  emit(ctx, event, object) {
    if (event !== 'recording.completed' || object['id'] === undefined) return false;
    const m = ctx
      .slice<MeetingsSlice>('meetings')
      .meetings.find((x) => String(x.id) === String(object['id']));
    if (!m) return false;
    emitRecordingCompleted(ctx, m);
    return true;
  },
  seed: () => ({ trashed: {}, trashedFiles: {}, deleted: [], deletedFiles: [] }),
  register(ctx) {
    const meetings = () => ctx.slice<MeetingsSlice>('meetings').meetings;
    const operator = { operator: ctx.demo.email, operator_id: ctx.demo.id };

    /** The meeting, or the given error when it does not exist (the platform answers with its recording codes). */
    const meetingOr = (req: SandboxRequest, err: () => ZoomError): MeetingRec => {
      try {
        return findMeeting(ctx, p(req, 'meetingId'));
      } catch (e) {
        if (e instanceof ZoomError && e.code === 3001) throw err();
        throw e;
      }
    };

    ctx.route({
      method: 'GET',
      url: '/users/:userId/recordings',
      scopes: SCOPES.list,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const errors: { field: string; message: string }[] = [];
        const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
        const rawFrom = q(req, 'from');
        const rawTo = q(req, 'to');
        const trashRaw = q(req, 'trash') ?? 'false';
        const trashType = q(req, 'trash_type') ?? 'meeting_recordings';
        const meetingId = q(req, 'meeting_id');
        if (rawFrom !== undefined && !validDate(rawFrom)) bad('from');
        if (rawTo !== undefined && !validDate(rawTo)) bad('to');
        if (trashRaw !== 'true' && trashRaw !== 'false') bad('trash');
        if (trashType !== 'meeting_recordings' && trashType !== 'recording_file') bad('trash_type');
        if (meetingId !== undefined && !/^\d+$/.test(meetingId)) bad('meeting_id');
        if (errors.length) throw zerr.validation(errors);
        const today = dayOf(ctx.now());
        const tomorrow = dayOf(new Date(ctx.now().getTime() + 86_400_000));
        // Defaults as documented: today..tomorrow. The platform answers at most one month,
        // ending at `to`: an older `from` is moved up (and echoed back), not rejected.
        const to = rawTo ?? tomorrow;
        let from = rawFrom ?? (rawTo !== undefined && rawTo < today ? rawTo : today);
        if (from > to) throw zerr.validation([{ field: 'to', message: 'Invalid field.' }]);
        if (from < monthBefore(to)) from = monthBefore(to);
        const trash = trashRaw === 'true';
        const now = ctx.now();
        const rows: { m: MeetingRec; files: FileView[] }[] = [];
        for (const m of meetings()) {
          if (meetingId !== undefined && String(m.id) !== meetingId) continue;
          const all = recordingFiles(m, slice(ctx), now);
          if (!all.length) continue;
          let files: FileView[];
          if (!trash) {
            // Trashed files cannot be filtered by date; live ones are by their UTC start day.
            const day = m.start_time.slice(0, 10);
            if (day < from || day > to) continue;
            files = all.filter((f) => f.state === 'active');
          } else if (trashType === 'meeting_recordings') {
            files = slice(ctx).trashed[m.uuid] ? all.filter((f) => f.state === 'trashed') : [];
          } else {
            files = slice(ctx).trashed[m.uuid] ? [] : all.filter((f) => f.state === 'trashed');
          }
          if (files.length) rows.push({ m, files });
        }
        rows.sort((a, b) => b.m.start_time.localeCompare(a.m.start_time));
        const page = ctx.paginate(req, rows, { defaultSize: 30, maxSize: 300 });
        return {
          from,
          to,
          page_count: Math.max(1, Math.ceil(page.totalRecords / page.pageSize)),
          page_size: page.pageSize,
          total_records: page.totalRecords,
          next_page_token: page.nextPageToken,
          meetings: page.items.map(({ m, files }) => ({
            ...recordingHead(ctx, m, files),
            recording_files: files.map((f) => fileObject(ctx, m, f, trash)),
          })),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/recordings',
      scopes: SCOPES.get,
      label: 'LIGHT',
      handler: (req) => {
        const m = meetingOr(req, zerr.noRecording);
        const include = (q(req, 'include_fields') ?? '').split(',').map((s) => s.trim());
        const ttlRaw = q(req, 'ttl');
        const ttl = ttlRaw === undefined ? 86_400 : Number(ttlRaw);
        if (!Number.isInteger(ttl) || ttl < 0 || ttl > 604_800)
          throw zerr.validation([{ field: 'ttl', message: 'Invalid field.' }]);
        const files = recordingFiles(m, slice(ctx), ctx.now()).filter((f) => f.state === 'active');
        if (!files.length) throw zerr.noRecording();
        return {
          ...recordingHead(ctx, m, files),
          recording_files: files.map((f) => fileObject(ctx, m, f, false)),
          password: recordingPassword(m),
          ...(include.includes('download_access_token')
            ? { download_access_token: recordingDownloadToken(ctx, m, ttl) }
            : {}),
        };
      },
    });

    /** Trash (default) or delete for good some of a meeting's files, and tell the webhook. */
    const remove = (m: MeetingRec, files: FileView[], action: string, whole: boolean) => {
      const s = slice(ctx);
      const stamp = zoomTime(ctx.now());
      if (action === 'trash') {
        if (whole) s.trashed[m.uuid] = stamp;
        else for (const f of files) s.trashedFiles[f.id] = stamp;
      } else if (whole) {
        s.deleted.push(m.uuid);
        delete s.trashed[m.uuid];
      } else {
        for (const f of files) {
          s.deletedFiles.push(f.id);
          delete s.trashedFiles[f.id];
        }
      }
      ctx.changed();
      ctx.webhooks.emit(
        action === 'trash' ? 'recording.trashed' : 'recording.deleted',
        webhookHead(ctx, m, files),
        operator,
      );
    };
    const actionOf = (req: SandboxRequest) => {
      const action = q(req, 'action') ?? 'trash';
      if (action !== 'trash' && action !== 'delete')
        throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
      return action;
    };

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/recordings',
      scopes: SCOPES.delete,
      label: 'LIGHT',
      handler: (req, reply) => {
        const action = actionOf(req);
        const m = meetingOr(req, zerr.noRecording);
        const all = recordingFiles(m, slice(ctx), ctx.now());
        // Trashing needs live files; deleting for good also takes what is in the trash.
        const files = all.filter(
          (f) => f.state === 'active' || (action === 'delete' && f.state === 'trashed'),
        );
        if (!files.length) throw zerr.noRecording();
        remove(m, files, action, true);
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/meetings/:meetingId/recordings/status',
      scopes: SCOPES.recover,
      label: 'LIGHT',
      handler: (req, reply) => {
        const b = body(req);
        if (b['action'] !== 'recover')
          throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
        const m = meetingOr(req, zerr.noRecording);
        const files = recordingFiles(m, slice(ctx), ctx.now()).filter((f) => f.state === 'trashed');
        if (!files.length) throw zerr.noRecording();
        const s = slice(ctx);
        delete s.trashed[m.uuid];
        for (const f of files) delete s.trashedFiles[f.id];
        ctx.changed();
        ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, files), operator);
        return reply.code(200).send();
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/recordings/:recordingId',
      scopes: SCOPES.deleteFile,
      label: 'LIGHT',
      handler: (req, reply) => {
        const action = actionOf(req);
        const m = meetingOr(req, zerr.noRecording);
        const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
        if (!f || f.state === 'deleted' || (action === 'trash' && f.state === 'trashed'))
          throw zerr.noRecording();
        remove(m, [f], action, false);
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/meetings/:meetingId/recordings/:recordingId/status',
      scopes: SCOPES.recoverFile,
      label: 'LIGHT',
      handler: (req, reply) => {
        const b = body(req);
        if (b['action'] !== 'recover')
          throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
        const m = meetingOr(req, zerr.noRecording);
        const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
        // A file trashed with its whole recording comes back with PUT …/recordings/status.
        if (!f || f.state !== 'trashed' || slice(ctx).trashed[m.uuid]) throw zerr.noRecording();
        delete slice(ctx).trashedFiles[f.id];
        ctx.changed();
        ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, [f]), operator);
        return reply.code(204).send();
      },
    });

    const transcriptOf = (req: SandboxRequest) => {
      const m = meetingOr(req, zerr.noTranscript);
      const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.kind === 'transcript');
      if (!f || f.state === 'deleted') throw zerr.noTranscript();
      return { m, f };
    };

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/transcript',
      scopes: SCOPES.transcript,
      label: 'MEDIUM',
      handler: (req) => {
        const { m, f } = transcriptOf(req);
        return {
          meeting_id: m.uuid,
          account_id: ctx.demo.accountId,
          meeting_topic: m.topic,
          host_id: ctx.demo.id,
          transcript_created_time: zoomTime(new Date(Date.parse(f.end) + 180_000)),
          can_download: f.state === 'active',
          auto_delete: false,
          ...(f.state === 'active'
            ? { download_url: `${ctx.baseUrl}/v2/rec/download/${f.id}` }
            : { download_restriction_reason: 'DELETED_OR_TRASHED' }),
        };
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/transcript',
      scopes: SCOPES.deleteTranscript,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const { f } = transcriptOf(req);
        const s = slice(ctx);
        s.deletedFiles.push(f.id);
        delete s.trashedFiles[f.id];
        ctx.changed();
        return reply.code(204).send();
      },
    });

    // Not a documented REST operation: the target of every download_url, as zoom.us/rec/download is.
    ctx.route({
      method: 'GET',
      url: '/rec/download/:fileId',
      scopes: DOWNLOAD_SCOPES,
      label: 'LIGHT',
      handler: (req, reply) => {
        const file = recordingDownload(ctx, p(req, 'fileId'));
        if (!file) throw zerr.noRecording();
        return reply
          .code(200)
          .headers({
            'content-type': file.contentType,
            'content-length': String(file.bytes.length),
            'content-disposition': `attachment; filename="${file.fileName}"`,
          })
          .send(file.bytes);
      },
    });
  },
});
