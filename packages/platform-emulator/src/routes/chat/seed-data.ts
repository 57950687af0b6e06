/** Seed data for Team Chat: the people, channels with their conversations, and 1:1 chats. */
import type { Presence } from './types.js';

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const HEX = '0123456789abcdef';

// [first, last, kind, company, dept, job title, location, presence]
export const PEOPLE: [string, string, 'company' | 'external', string, string, string, string, Presence][] = [
  ['Jordan', 'Reyes', 'company', 'GrowthOS', 'Sales', 'Account Executive', 'Chicago, IL', 'Available'],
  [
    'Priya',
    'Natarajan',
    'company',
    'Meridian Operating Group',
    'Operations',
    'Operations Lead',
    'Chicago, IL',
    'Available',
  ],
  [
    'Marcus',
    'Bell',
    'company',
    'Meridian Freight',
    'Freight',
    'Dispatch Manager',
    'Joliet, IL',
    'Do_Not_Disturb',
  ],
  [
    'Elena',
    'Sokolova',
    'company',
    'Meridian Learning',
    'Learning',
    'Program Director',
    'Naperville, IL',
    'Away',
  ],
  ['Sam', 'Okafor', 'company', 'Meridian Capital', 'Finance', 'Loan Officer', 'Chicago, IL', 'Offline'],
  [
    'Dana',
    'Lopez',
    'external',
    'Lakeshore Logistics',
    'Transportation',
    'Logistics Manager',
    'Gary, IN',
    'Available',
  ],
  ['Rafael', 'Kim', 'external', 'Northbeam Creative', 'Studio', 'Creative Director', 'Milwaukee, WI', 'Away'],
  [
    'Tessa',
    'Whitfield',
    'external',
    'Prairie Bank',
    'Commercial Lending',
    'Vice President',
    'Peoria, IL',
    'Offline',
  ],
];

export const EXTERNAL_DOMAINS: Record<string, string> = {
  'Lakeshore Logistics': 'lakeshorelogistics.example',
  'Northbeam Creative': 'northbeamcreative.example',
  'Prairie Bank': 'prairiebank.example',
};

/** Who speaks in the seeded conversations: A is the demo user, the others are contacts. */
export const WHO: Record<string, string> = {
  J: 'Jordan',
  P: 'Priya',
  M: 'Marcus',
  E: 'Elena',
  S: 'Sam',
  D: 'Dana',
  R: 'Rafael',
};

export interface LineOpts {
  reply?: boolean;
  react?: string;
  file?: [string, number, string];
  at?: string;
}
export type Line = [day: number, who: string, text: string, opts?: LineOpts];

export const CHANNELS: { name: string; type: number; members: string[]; posting: number; lines: Line[] }[] = [
  {
    name: 'freight-dispatch',
    type: 2,
    members: ['A', 'M', 'P'],
    posting: 1,
    lines: [
      [
        -9,
        'M',
        'Morning all: 14 loads on the board today, 3 still uncovered on the Chicago to Indianapolis lane.',
      ],
      [
        -9,
        'P',
        'I can move two of the FleetWorks spare tractors over if maintenance clears them by 10.',
        { reply: true },
      ],
      [
        -9,
        'A',
        "Do it. Priority is the Lakeshore Logistics pickups; they're on a tight dock window.",
        { reply: true },
      ],
      [
        -8,
        'M',
        'Truck 218 is down at the Gary yard. FleetWorks says alternator, ETA 2 hours.',
        { react: 'U+1F440' },
      ],
      [-8, 'P', "Rerouting load 4471 to driver Ruiz, she's 20 minutes out.", { reply: true }],
      [
        -7,
        'M',
        'Weekly lane report attached. Detention time is up 12% on the Milwaukee runs.',
        { file: ['lane-report-week.pdf', 248311, 'file_and_text'] },
      ],
      [-7, 'A', "@Marcus Bell can we flag Milwaukee detention in Thursday's ops review?", { at: 'M' }],
      [-7, 'M', "Yes, I'll pull the shipper-level breakdown.", { reply: true }],
      [
        -6,
        'P',
        'Fuel card limits reset tonight at midnight. Remind drivers to top off before 11.',
        { react: 'U+1F44D' },
      ],
      [-5, 'M', 'All Lakeshore loads delivered on time yesterday. 23 for 23.', { react: 'U+1F389' }],
      [-5, 'A', "Great work, team. Let's keep that streak going.", { reply: true }],
      [-3, 'M', 'Heads up: snow advisory for I-94 tomorrow after 2pm. Planning early departures.'],
      [-3, 'P', 'Early departures approved for loads 4502 to 4509.', { reply: true }],
      [0, 'M', 'Dispatch board is live for today: 11 loads, all covered.'],
      [0, 'P', 'FleetWorks cleared truck 231 after the brake inspection. Back in rotation.'],
      [0, 'M', 'First two trucks rolled out of the Joliet yard at 5:40.'],
    ],
  },
  {
    name: 'growthos-launches',
    type: 2,
    members: ['A', 'J', 'P'],
    posting: 1,
    lines: [
      [-9, 'J', 'GrowthOS v3.2 release notes are drafted. Can everyone review by end of day?'],
      [-9, 'A', 'On it. Can we lead with the new lead-scoring dashboard?', { reply: true }],
      [-8, 'J', 'Launch email goes to 4,200 customers Tuesday at 10am CT.'],
      [-7, 'P', 'Support macros are updated for the new onboarding flow.', { react: 'U+2705' }],
      [-6, 'J', 'Webinar signups at 312, 40% above the last launch.', { react: 'U+1F680' }],
      [-5, 'A', "Let's add a customer quote from Lakeshore to the landing page."],
      [
        -4,
        'J',
        'Landing page mock attached.',
        { file: ['growthos-v3-2-landing.png', 918244, 'png_image_file'] },
      ],
      [-4, 'P', 'The pricing page still shows the old tiers on mobile.'],
      [-4, 'J', 'Fixed and redeployed.', { reply: true }],
      [-2, 'A', 'Go/no-go tomorrow at 9am. @Jordan Reyes please bring the funnel numbers.', { at: 'J' }],
      [-1, 'J', 'Trial-to-paid conversion this week: 18.4%.'],
      [0, 'J', 'Launch checklist is 22/24 done. Only the partner announcement and the changelog are left.'],
    ],
  },
  {
    name: 'brand',
    type: 3,
    members: ['A', 'J', 'E'],
    posting: 1,
    lines: [
      [-9, 'E', 'New Meridian Learning course covers are ready for review.'],
      [-9, 'J', 'Love the palette. The GrowthOS logo lockup needs more clear space though.', { reply: true }],
      [
        -7,
        'A',
        'Reminder: every subsidiary uses the master Meridian Fleet wordmark on invoices from the 1st.',
      ],
      [
        -6,
        'E',
        'Brand guidelines v2.1 attached.',
        { file: ['meridian-brand-guidelines-v2.1.pdf', 4821120, 'file_and_text'] },
      ],
      [-5, 'J', 'Can Meridian Early Learning keep its crayon-yellow accent?'],
      [-5, 'A', 'Yes, as a secondary color only.', { reply: true, react: 'U+1F44D' }],
      [-3, 'E', 'The photo shoot at the Joliet yard is booked for next Wednesday.'],
      [-2, 'J', 'Email signature template is updated in the shared drive.'],
      [-1, 'E', 'Slide template refresh is done. Please use it for the Q3 board decks.'],
    ],
  },
  {
    name: 'capital-deals',
    type: 1,
    members: ['A', 'S', 'J'],
    posting: 3,
    lines: [
      [-8, 'S', 'Term sheet out to Prairie Grain Co-op: $2.4M equipment line, 5-year amortization.'],
      [-8, 'A', "What's the DSCR looking like?", { reply: true }],
      [-8, 'S', '1.38x on trailing twelve months, 1.52x pro forma.', { reply: true }],
      [-6, 'J', 'Referral from GrowthOS: a 40-truck carrier in Peoria looking for fleet refinancing.'],
      [-6, 'S', 'Booked a call with them for Thursday.', { reply: true }],
      [-4, 'S', 'Credit committee approved the Riverbend Contracting bridge loan.', { react: 'U+1F389' }],
      [
        -4,
        'A',
        "Nice. Let's make sure Meridian Contracting isn't bidding against them anywhere.",
        { reply: true },
      ],
      [
        -2,
        'S',
        'Pipeline summary attached: 9 deals, $14.7M total.',
        { file: ['capital-pipeline.xlsx', 88412, 'file_and_text'] },
      ],
      [-1, 'S', 'Closing docs for Prairie Grain are with their counsel.'],
      [0, 'S', 'Rate sheet updated: SOFR + 3.25% floor on new equipment lines.'],
    ],
  },
  {
    name: 'general',
    type: 3,
    members: ['A', 'J', 'P', 'M', 'E', 'S'],
    posting: 1,
    lines: [
      [-9, 'P', 'Office reminder: the Chicago HQ badge readers are being replaced on Friday.'],
      [
        -8,
        'E',
        "Meridian Learning's CDL cohort #14 graduates next Friday. Everyone's invited!",
        { react: 'U+1F389' },
      ],
      [
        -7,
        'M',
        'Shout-out to the night dispatch crew for handling the storm reroutes.',
        { react: 'U+1F44F' },
      ],
      [-6, 'J', 'The town hall deck is in the shared drive.'],
      [-5, 'A', 'The Q3 all-hands moved to Thursday at 3pm CT.'],
      [-4, 'S', 'Meridian Mortgage is offering an employee rate-lock special through the end of the month.'],
      [-3, 'P', 'Benefits enrollment closes on the 30th.'],
      [-2, 'E', 'Meridian Early Learning open house is Saturday 10 to 1. Bring the kids!'],
      [-2, 'M', 'FleetWorks is running free pre-winter inspections for employee vehicles.'],
      [-1, 'A', 'Thanks everyone for a record month across the group.', { react: 'U+2764' }],
      [
        0,
        'P',
        'Meridian Housing has two units opening at the Elm Street property. Employee referrals welcome.',
      ],
      [0, 'J', 'Reminder: submit expense reports by Friday noon.'],
    ],
  },
];

export const DMS: { with: string; lines: Line[] }[] = [
  {
    with: 'M',
    lines: [
      [-1, 'M', 'Got a minute to talk about the Milwaukee detention issue?'],
      [-1, 'A', 'Sure, call me after 2.'],
      [-1, 'M', 'The shipper says their dock staffing is short until next month.'],
      [-1, 'A', "Let's propose detention billing after 2 hours, starting next week."],
      [0, 'M', 'Drafting the note now.'],
      [0, 'M', 'Sent it, with Lakeshore copied.'],
    ],
  },
  {
    with: 'P',
    lines: [
      [-6, 'P', "Can you approve the FleetWorks parts PO? It's $18,240."],
      [-6, 'A', 'Approved.'],
      [-3, 'P', 'The ops review agenda draft is ready.'],
      [-3, 'A', 'Add the detention topic from Marcus.'],
      [-3, 'P', 'Done.'],
    ],
  },
  {
    with: 'J',
    lines: [
      [-5, 'J', 'Do you have 15 minutes for the GrowthOS pricing change?'],
      [-5, 'A', 'Tomorrow at 11 works.'],
      [-5, 'J', 'Sent an invite.'],
      [-1, 'J', 'Numbers look good for the Tuesday launch.'],
    ],
  },
  {
    with: 'S',
    lines: [
      [-4, 'S', 'Prairie Grain wants to close before quarter end.'],
      [-4, 'A', 'Fine by me if credit signs off.'],
      [-2, 'S', 'They did. Closing Monday.'],
    ],
  },
  {
    with: 'E',
    lines: [
      [-2, 'E', 'Can I get 10 minutes at the all-hands for the CDL program update?'],
      [-2, 'A', "Yes, you're on after finance."],
      [-2, 'E', 'Thank you!'],
    ],
  },
  {
    with: 'D',
    lines: [
      [-7, 'D', 'Hi Avery, can we add Saturday pickups at the Gary DC starting next month?'],
      [-7, 'A', 'Likely yes. Marcus will confirm capacity by Friday.'],
      [-6, 'D', 'Perfect, thanks.'],
    ],
  },
  {
    with: 'R',
    lines: [
      [-1, 'R', 'The final GrowthOS launch video is uploaded to your Clips.'],
      [-1, 'A', 'Looks great. Approved.'],
    ],
  },
];
