/** Seed scripts for group-wide meetings: construction, maintenance, early learning, CDL, operating review, brand, partners. */
import { HOST, type ScriptEntry } from './script.js';

export const GROUP_SCRIPTS: ScriptEntry[] = [
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
