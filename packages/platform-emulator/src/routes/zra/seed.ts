/**
 * The revenue-analysis emulator's seed: deals across the fleet's selling businesses, their
 * analysed conversations (topics, questions, next steps, memos) and comments.
 */
import type { SeedContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import type { Business, CommentRec, ConversationRec, DealRec, ZraSlice } from './records.js';

const DEMO = 'avery.quinn@meridianfleet.example';
const JORDAN = 'jordan.reyes@meridianfleet.example';
const SAM = 'sam.okafor@meridianfleet.example';

/** Mentioned topics: id → label, the keyword that marks it, and what was said. */
export const TOPICS: Record<string, { label: string; key_word: string; line: Record<Business, string> }> = {
  pricing: {
    label: 'Pricing',
    key_word: 'price',
    line: {
      growthos: 'The monthly retainer price depends on how many locations we run ads for.',
      capital: 'The price of the line is prime plus two, with a half point origination fee.',
      mortgage: 'At this price the rate would be locked for forty-five days.',
      freight: 'Our price per load on that lane includes the fuel surcharge.',
    },
  },
  timeline: {
    label: 'Timeline',
    key_word: 'timeline',
    line: {
      growthos: 'The timeline is to launch the campaign before the spring sales event.',
      capital: 'On the timeline, we could fund within ten business days of a signed term sheet.',
      mortgage: 'The timeline works if the appraisal comes back by the end of next week.',
      freight: 'On the timeline, the first loads would move on the first of the month.',
    },
  },
  competition: {
    label: 'Competition',
    key_word: 'other agency',
    line: {
      growthos: 'They are also talking to another agency that quoted a lower setup fee.',
      capital: 'Their bank offered a similar line but wants a larger deposit relationship.',
      mortgage: 'An online lender quoted an eighth of a point lower with higher fees.',
      freight: 'Their current carrier has missed pickups twice this month.',
    },
  },
  user_requirements: {
    label: 'Requirements',
    key_word: 'need',
    line: {
      growthos: 'They need weekly lead reports that the sales managers can read on a phone.',
      capital: 'They need to draw in small amounts as equipment arrives.',
      mortgage: 'They need to close before the lease on their apartment ends.',
      freight: 'They need refrigerated trailers with temperature logs for every load.',
    },
  },
  budget: {
    label: 'Budget',
    key_word: 'budget',
    line: {
      growthos: 'The marketing budget for the quarter is already approved.',
      capital: 'The budget assumes the line covers about half of the equipment cost.',
      mortgage: 'The monthly payment has to stay inside the budget they set.',
      freight: 'The shipping budget is set per pallet, not per load.',
    },
  },
};

export const QUESTIONS: Record<Business, string[]> = {
  growthos: [
    'What does a good month of leads look like for your stores?',
    'Who reviews the campaign results on your side?',
  ],
  capital: [
    'How quickly do you usually need funds once a job is awarded?',
    'Which equipment purchases are planned this year?',
  ],
  mortgage: [
    'What monthly payment would feel comfortable for you?',
    'Is there anything about your income that changed this year?',
  ],
  freight: [
    'How many loads a week do you expect in peak season?',
    'What happens on your side when a pickup is missed?',
  ],
};
export const NEXT_STEPS: Record<Business, string[]> = {
  growthos: [
    'Send the revised proposal with the two-location option.',
    'Schedule a review with the general manager next week.',
  ],
  capital: ['Collect the last two years of tax returns.', 'Send the term sheet for signature.'],
  mortgage: ['Upload the latest pay stubs to the portal.', 'Order the appraisal once the rate is locked.'],
  freight: ['Send the lane rate confirmation.', 'Set up the shipper portal account for the dock team.'],
};
export const MEMO: Record<Business, { wins: [string, string][]; concerns: [string, string][] }> = {
  growthos: {
    wins: [
      ['Clear growth goal', 'The client named a lead target and a date, which makes success easy to show.'],
    ],
    concerns: [['Price comparison', 'A competing agency quoted a lower setup fee.']],
  },
  capital: {
    wins: [['Strong repayment history', 'The borrower has repaid two prior loans early.']],
    concerns: [['Collateral coverage', 'The equipment covers only part of the requested amount.']],
  },
  mortgage: {
    wins: [['Motivated buyer', 'The buyers must move before their lease ends.']],
    concerns: [['Rate sensitivity', 'An online lender quoted a slightly lower rate.']],
  },
  freight: {
    wins: [
      ['Service problems at the incumbent', 'The shipper reports missed pickups with the current carrier.'],
    ],
    concerns: [['Seasonal volume', 'Volume drops sharply outside the harvest season.']],
  },
};

const DEALS: [string, Business, string, string, number, string, string, string[]][] = [
  // name, business, stage, owner, amount, account, description, contacts
  [
    'Caldwell Auto Group - Spring Lead Program',
    'growthos',
    'Proposal/Price Quote',
    JORDAN,
    48_000,
    'Caldwell Auto Group',
    'Paid search and social lead generation for three dealerships.',
    ['Renee Caldwell', 'Mark Ibsen'],
  ],
  [
    'Becker Family Dental - Local SEO Retainer',
    'growthos',
    'Needs Analysis',
    JORDAN,
    18_000,
    'Becker Family Dental',
    'Twelve-month local search retainer with a new-patient landing page.',
    ['Tom Becker'],
  ],
  [
    'Northshore Fitness - Membership Campaign',
    'growthos',
    'Closed Won',
    DEMO,
    26_500,
    'Northshore Fitness',
    'January membership campaign across two clubs.',
    ['Alicia Moreno'],
  ],
  [
    'Alvarez Contracting - Equipment Line of Credit',
    'capital',
    'Negotiation/Review',
    SAM,
    350_000,
    'Alvarez Contracting',
    'Revolving equipment line for excavators and trucks.',
    ['Greg Alvarez', 'Maria Alvarez'],
  ],
  [
    'Summit Ridge Builders - Construction Bridge Loan',
    'capital',
    'Qualification',
    SAM,
    1_200_000,
    'Summit Ridge Builders',
    'Twelve-month bridge loan for a 24-unit townhome project.',
    ['Owen Fischer'],
  ],
  [
    'Lakeview Bakery - Working Capital Loan',
    'capital',
    'Closed Lost',
    SAM,
    85_000,
    'Lakeview Bakery',
    'Working capital for a second retail location.',
    ['Priscilla Nguyen'],
  ],
  [
    'Park Residence - 30-Year Fixed Purchase',
    'mortgage',
    'Proposal/Price Quote',
    SAM,
    420_000,
    'Nina and Daniel Park',
    'Purchase mortgage for a single-family home in Oak Park.',
    ['Nina Park', 'Daniel Park'],
  ],
  [
    '418 Elm Street - Rate and Term Refinance',
    'mortgage',
    'Negotiation/Review',
    SAM,
    310_000,
    'Hollis Household',
    'Refinance from an adjustable to a fixed rate.',
    ['James Hollis'],
  ],
  [
    'Ortiz Family - FHA Purchase',
    'mortgage',
    'Needs Analysis',
    DEMO,
    265_000,
    'Ortiz Family',
    'First-time buyer FHA purchase in Berwyn.',
    ['Lucia Ortiz'],
  ],
  [
    'Lakeshore Logistics - Dedicated Memphis Lane',
    'freight',
    'Negotiation/Review',
    JORDAN,
    540_000,
    'Lakeshore Logistics',
    'Dedicated capacity of ten loads a week, Chicago to Memphis.',
    ['Dana Whitfield', 'Ray Kowalski'],
  ],
  [
    'Prairie Wind Farms - Seasonal Reefer Capacity',
    'freight',
    'Qualification',
    JORDAN,
    190_000,
    'Prairie Wind Farms',
    'Refrigerated capacity for the harvest season.',
    ['Luis Ortega'],
  ],
  [
    'Great Lakes Paper - Regional Contract Freight',
    'freight',
    'Prospecting',
    DEMO,
    760_000,
    'Great Lakes Paper',
    'Regional dry van contract across Illinois and Wisconsin.',
    ['Hannah Voss'],
  ],
];
const STAGES = [
  'Prospecting',
  'Qualification',
  'Needs Analysis',
  'Value Proposition',
  'Proposal/Price Quote',
  'Negotiation/Review',
  'Closed Won',
  'Closed Lost',
];
const KINDS = ['Discovery call', 'Needs review', 'Proposal walkthrough', 'Pricing review', 'Check-in'];

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64 = `${ALNUM}+/`;
const emailOf = (name: string, domain: string) =>
  `${name
    .toLowerCase()
    .replace(/[^a-z ]/g, '')
    .replace(/ /g, '.')}@${domain}`;
const domainOf = (account: string) =>
  `${account
    .toLowerCase()
    .replace(/^(the )|( and .*)/g, '')
    .replace(/[^a-z]/g, '')}.example`;
export const plusSec = (iso: string, s: number) => zoomTime(new Date(Date.parse(iso) + s * 1000));

export function seedZra(s: SeedContext): ZraSlice {
  const r = s.rng;
  const hex = (n: number) => r.id(n, '0123456789abcdef');
  const teams = [
    { id: r.id(22, ALNUM), name: 'GrowthOS and Freight Sales', members: [JORDAN, DEMO] },
    { id: r.id(22, ALNUM), name: 'Capital and Mortgage Lending', members: [SAM, DEMO] },
  ];
  const indicators = [
    ['Pricing discussed', 'price'],
    ['Competitor mentioned', 'other agency'],
    ['Budget confirmed', 'budget'],
    ['Decision maker present', 'sign off'],
  ].map(([name = '', key_word = '']) => ({ id: r.id(22, ALNUM), name, key_word }));
  const deals = seedDeals(s, hex);
  const conversations: ConversationRec[] = [];
  // Two conversations per deal (the closed ones further back), plus one not yet tied to a deal.
  for (let n = 0; n < 25; n++) conversations.push(seedConversation(s, n, deals, indicators));
  const comments = seedComments(conversations, hex);
  return { teams, indicators, deals, conversations, comments };
}

/** The CRM deals of the DEALS table, with their stage dates, contacts and (every third) an email thread. */
function seedDeals(s: SeedContext, hex: (n: number) => string): DealRec[] {
  const r = s.rng;
  return DEALS.map(([name, business, stage, owner, amount, account, description, contacts], i) => {
    const created = s.at(-60 + i * 2, 15, 0);
    const closed = stage.startsWith('Closed');
    return {
      id: `0065g00000${r.id(5, ALNUM)}${r.id(3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
      name,
      business,
      stage,
      stage_since: s.at(-r.int(3, 25), 16, 0),
      description,
      owner,
      closed,
      private: false,
      created,
      account,
      amount,
      close_date: s.at(closed ? -r.int(2, 10) : r.int(10, 75)).slice(0, 10),
      contacts: contacts.map((c) => ({ name: c, email: emailOf(c, domainOf(account)) })),
      emails:
        i % 3 === 0
          ? [
              {
                message_id: `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`,
                subject: `Re: ${name.split(' - ')[1] ?? name} next steps`,
                date: s.at(-r.int(1, 6), 14, r.int(0, 59)),
                count: r.int(2, 7),
                direction: i % 2 === 0 ? 'outbound' : 'inbound',
              },
            ]
          : [],
    };
  });
}

/** Conversation `n`: the deal it belongs to (n < 24), its time, scores, topics and people. */
function seedConversation(
  s: SeedContext,
  n: number,
  deals: DealRec[],
  indicators: ZraSlice['indicators'],
): ConversationRec {
  const r = s.rng;
  const deal = n < 24 ? deals[n % 12] : undefined;
  const second = n >= 12;
  const days = deal?.closed ? -r.int(12, 28) : second ? -r.int(1, 9) : -r.int(10, 24);
  const start = s.at(days, r.pick([14, 15, 16, 18, 19, 20]), r.pick([0, 30]));
  const duration = r.int(18, 55) * 60 + r.int(0, 59);
  const raw = r.id(22, B64);
  const uuid = `${n === 3 ? `${raw.slice(0, 9)}/${raw.slice(10)}` : raw}==`;
  const stageIdx = STAGES.indexOf(deal?.stage ?? 'Prospecting');
  const stage = deal
    ? second || deal.closed
      ? deal.stage
      : (STAGES[Math.max(0, Math.min(stageIdx - 1, 5))] ?? deal.stage)
    : 'Prospecting';
  const type: ConversationRec['type'] = n % 4 === 1 ? 'phone' : 'meeting';
  const kind = KINDS[(n + (second ? 2 : 0)) % KINDS.length] ?? 'Check-in';
  const topicIds = Object.keys(TOPICS).filter(() => r.next() < 0.55);
  const host = deal?.owner ?? DEMO;
  return {
    id: `${uuid},${Date.parse(start)}`,
    meeting_id: Number(`8${r.digits(10)}`),
    meeting_uuid: uuid,
    host,
    deal: deal?.id ?? '',
    topic: deal ? `${deal.account}: ${kind}` : 'Harbor Point Insurance: Discovery call',
    type,
    direction: n % 8 === 5 ? 'inbound' : 'outbound',
    start_time: start,
    duration_sec: duration,
    processed_time: plusSec(start, duration + r.int(300, 1500)),
    engagement: r.int(35, 92),
    sentiment: r.int(40, 95),
    filler: r.int(1, 9),
    stage,
    topics: topicIds.length ? topicIds : ['pricing'],
    indicators: indicators.filter(() => r.next() < 0.4).map((x) => x.id),
    questions: r.int(1, 2),
    next_steps: r.int(1, 2),
    reps: host === DEMO ? [DEMO] : [host, ...(n % 3 === 0 ? [DEMO] : [])],
    customers: deal
      ? deal.contacts.slice(0, 1 + (n % 2))
      : [{ name: 'Victor Hale', email: 'victor.hale@harborpoint.example' }],
    scored: n % 3 !== 2,
    views: r.int(0, 9),
    calendar: type === 'phone' ? '' : n % 2 === 0 ? 'Google' : 'Outlook',
    event_id: type === 'phone' ? '' : r.id(22, ALNUM),
  };
}

/** Comments on five processed conversations: a colleague's note mentioning the demo user, and the reply. */
function seedComments(conversations: ConversationRec[], hex: (n: number) => string): CommentRec[] {
  const comments: CommentRec[] = [];
  const commented = conversations.filter((_, i) => i % 4 === 0).slice(0, 5);
  for (const c of commented) {
    const at = plusSec(c.processed_time, 3600);
    const id = `${hex(8)}-${hex(4)}-4${hex(3)}-9${hex(3)}-${hex(12)}`;
    comments.push({
      id,
      conversation: c.id,
      parent: '',
      author: c.host === DEMO ? JORDAN : c.host,
      created: at,
      modified: at,
      comment: 'Good discovery questions here. Avery, can you join the follow-up?',
      mentions: [DEMO],
      teams: [],
      private: false,
      time_in_recording: '00:04:10',
    });
    comments.push({
      id: `${hex(8)}-${hex(4)}-4${hex(3)}-b${hex(3)}-${hex(12)}`,
      conversation: c.id,
      parent: id,
      author: DEMO,
      created: plusSec(at, 1800),
      modified: plusSec(at, 1800),
      comment: 'Yes, put me on the invite. I will bring the pricing sheet.',
      mentions: [],
      teams: [],
      private: false,
      time_in_recording: '',
    });
  }
  return comments;
}
