/**
 * Zoom Revenue Accelerator (ZRA) under `/zra/*` (the deprecated `/iq/*` twins are not served):
 * analysed sales conversations (meetings and phone calls) with their content analysis and
 * comments, and the CRM deals they belong to, across the fleet's selling businesses (GrowthOS,
 * Meridian Capital, Meridian Mortgage, Meridian Freight). Posting a comment emits
 * `revenue_accelerator.post_comment_completed`.
 */
import { randomUUID } from 'node:crypto';
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { SandboxRequest, SeedContext } from '../context.js';
import { zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';

type Business = 'growthos' | 'capital' | 'mortgage' | 'freight';

export interface DealRec {
  id: string;
  name: string;
  business: Business;
  stage: string;
  /** When the deal entered its current stage. */
  stage_since: string;
  description: string;
  /** Owner's email; resolved to the account's user at request time. */
  owner: string;
  closed: boolean;
  private: boolean;
  created: string;
  account: string;
  amount: number;
  close_date: string;
  contacts: { name: string; email: string }[];
  emails: {
    message_id: string;
    subject: string;
    date: string;
    count: number;
    direction: 'inbound' | 'outbound';
  }[];
}

export interface ConversationRec {
  /** `<meeting uuid>,<start ms>`, as the platform forms it. */
  id: string;
  meeting_id: number;
  meeting_uuid: string;
  host: string;
  deal: string;
  topic: string;
  type: 'meeting' | 'phone';
  direction: 'inbound' | 'outbound';
  start_time: string;
  duration_sec: number;
  processed_time: string;
  engagement: number;
  sentiment: number;
  filler: number;
  /** Stage of the deal when the conversation happened. */
  stage: string;
  /** Mentioned topic ids (keys of TOPICS). */
  topics: string[];
  /** Indicator ids that fired. */
  indicators: string[];
  questions: number;
  next_steps: number;
  reps: string[];
  customers: { name: string; email: string }[];
  scored: boolean;
  views: number;
  calendar: 'Google' | 'Outlook' | '';
  event_id: string;
}

export interface CommentRec {
  id: string;
  conversation: string;
  parent: string;
  author: string;
  created: string;
  modified: string;
  comment: string;
  /** Emails of mentioned users. */
  mentions: string[];
  teams: string[];
  private: boolean;
  time_in_recording: string;
}

export interface ZraSlice {
  teams: { id: string; name: string; members: string[] }[];
  indicators: { id: string; name: string; key_word: string }[];
  deals: DealRec[];
  conversations: ConversationRec[];
  comments: CommentRec[];
}

// Scopes as iq.json lists them. The POST comments operation lists the *read* granular scope (a
// documentation slip, it seems); its deprecated /iq twin lists zra:write:conversation_comment,
// so both are accepted.
const CONVERSATION_MACRO = [
  'iq_conversation:read',
  'iq_conversation:write',
  'iq_conversation:read:admin',
  'iq_conversation:write:admin',
];
const DEAL_MACRO = ['iq_deal:read', 'iq_deal:read:admin', 'iq_deal:write', 'iq_deal:write:admin'];
export const ZRA_SCOPES = {
  listConversations: [
    'zra:read:list_conversations',
    'zra:read:list_conversations:admin',
    ...CONVERSATION_MACRO,
  ],
  conversation: ['zra:read:conversations', 'zra:read:conversations:admin', ...CONVERSATION_MACRO],
  analysis: ['zra:read:conversation_analysis', 'zra:read:conversation_analysis:admin', ...CONVERSATION_MACRO],
  comments: [
    'zra:read:list_conversation_comments',
    'zra:read:list_conversation_comments:admin',
    'iq_comment:read',
    'iq_comment:write',
    'iq_comment:read:admin',
    'iq_comment:write:admin',
  ],
  addComment: [
    'zra:read:list_conversation_comments',
    'zra:read:list_conversation_comments:admin',
    'zra:write:conversation_comment',
    'zra:write:conversation_comment:admin',
    'iq_comment:write',
    'iq_comment:write:admin',
  ],
  deals: ['zra:read:list_deals', 'zra:read:list_deals:admin', ...DEAL_MACRO],
  deal: ['zra:read:deal', 'zra:read:deal:admin', ...DEAL_MACRO],
  activities: ['zra:read:list_deal_activities', 'zra:read:list_deal_activities:admin', ...DEAL_MACRO],
};

const DEMO = 'avery.quinn@meridianfleet.example';
const JORDAN = 'jordan.reyes@meridianfleet.example';
const SAM = 'sam.okafor@meridianfleet.example';

/** Mentioned topics: id → label, the keyword that marks it, and what was said. */
const TOPICS: Record<string, { label: string; key_word: string; line: Record<Business, string> }> = {
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

const QUESTIONS: Record<Business, string[]> = {
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
const NEXT_STEPS: Record<Business, string[]> = {
  growthos: [
    'Send the revised proposal with the two-location option.',
    'Schedule a review with the general manager next week.',
  ],
  capital: ['Collect the last two years of tax returns.', 'Send the term sheet for signature.'],
  mortgage: ['Upload the latest pay stubs to the portal.', 'Order the appraisal once the rate is locked.'],
  freight: ['Send the lane rate confirmation.', 'Set up the shipper portal account for the dock team.'],
};
const MEMO: Record<Business, { wins: [string, string][]; concerns: [string, string][] }> = {
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
const plusSec = (iso: string, s: number) => zoomTime(new Date(Date.parse(iso) + s * 1000));

function seedZra(s: SeedContext): ZraSlice {
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
  const deals: DealRec[] = DEALS.map(
    ([name, business, stage, owner, amount, account, description, contacts], i) => {
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
    },
  );
  const conversations: ConversationRec[] = [];
  // Two conversations per deal (the closed ones further back), plus one not yet tied to a deal.
  for (let n = 0; n < 25; n++) {
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
    conversations.push({
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
    });
  }
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
  return { teams, indicators, deals, conversations, comments };
}

const TIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const ANALYSIS_TYPES = [
  'topics',
  'nextSteps',
  'engagingQuestions',
  'indicators',
  'smartChapters',
  'dealMemo',
  'playbooks',
  'all',
];

/** Conversation ids hold `+`, `/` and `=`; callers may encode them once or twice. */
function decodeId(raw: string): string[] {
  const out = [raw];
  let v = raw;
  for (let i = 0; i < 2 && v.includes('%'); i++) {
    try {
      v = decodeURIComponent(v);
      out.push(v);
    } catch {
      break;
    }
  }
  return out;
}

export const zraModule = defineModule<ZraSlice>({
  name: 'zra',
  seed: seedZra,
  register(ctx) {
    const slice = () => ctx.slice<ZraSlice>('zra');
    const now = () => ctx.now().getTime();

    /** The account's people (demo user and colleagues), by email. */
    const people = () => {
      const users = ctx.slice<UsersSlice | undefined>('users');
      const list = [
        { id: ctx.demo.id, email: ctx.demo.email, name: `${ctx.demo.firstName} ${ctx.demo.lastName}` },
        ...(users?.colleagues ?? []).map((c) => ({
          id: c.id,
          email: c.email,
          name: `${c.first_name} ${c.last_name}`,
        })),
      ];
      return list;
    };
    const person = (email: string) => {
      const found = people().find((u) => u.email === email);
      if (found) return found;
      const name = (email.split('@')[0] ?? email)
        .split('.')
        .map((w) => (w[0] ?? '').toUpperCase() + w.slice(1))
        .join(' ');
      return { id: Buffer.from(email).toString('base64url').slice(0, 22), email, name };
    };
    const byId = (id: string) => people().find((u) => u.id === id || u.email === id.toLowerCase());

    /** Analysed conversations: those whose analysis has finished by the emulator's clock. */
    const visible = () =>
      slice().conversations.filter((c) => Date.parse(c.start_time) + c.duration_sec * 1000 <= now());
    const processing = (c: ConversationRec) => Date.parse(c.processed_time) > now();

    const findConversation = (raw: string, period: boolean) => {
      const ids = decodeId(raw);
      const c = visible().find((x) => ids.includes(x.id));
      if (!c)
        throw new ZoomError(
          404,
          1005,
          `Conversation does not exist: ${ids[ids.length - 1] ?? raw}${period ? '.' : ''}`,
        );
      return c;
    };
    const findDeal = (id: string) => {
      const d = slice().deals.find((x) => x.id === id);
      if (!d) throw new ZoomError(404, 1005, `Deal does not exist: ${id}.`);
      return d;
    };
    const dealOf = (c: ConversationRec) => slice().deals.find((d) => d.id === c.deal);

    const listItem = (c: ConversationRec) => {
      const done = !processing(c);
      return {
        conversation_id: c.id,
        host_id: person(c.host).id,
        meeting_id: c.meeting_id,
        meeting_uuid: c.meeting_uuid,
        ...(c.deal ? { deal_id: c.deal } : {}),
        topic: c.topic,
        conversation_topic: c.topic,
        duration: Math.round(c.duration_sec / 60),
        duration_sec: c.duration_sec,
        conversation_type: c.type,
        meeting_start_time: c.start_time,
        ...(done ? { iq_processed_time: c.processed_time } : {}),
        engagement_score: done ? c.engagement : 0,
        sentiment_score: done ? c.sentiment : 0,
        engaging_questions_count: done ? c.questions : 0,
        next_steps_count: done ? c.next_steps : 0,
        filler_words_count: done ? c.filler : 0,
        processing_analysis: !done,
      };
    };

    const summaryOf = (c: ConversationRec) => {
      const d = dealOf(c);
      const customers = c.customers.map((x) => x.name).join(' and ');
      const topics = c.topics.map((t) => TOPICS[t]?.label.toLowerCase() ?? t).join(', ');
      return `${person(c.host).name} met with ${customers}${d ? ` of ${d.account}` : ''} for a ${c.topic.split(': ')[1]?.toLowerCase() ?? 'conversation'}. They covered ${topics}, and agreed on the next steps.`;
    };

    const badTime = () => new ZoomError(400, 1001, 'The from or to time is invalid.');
    const timeRange = (req: SandboxRequest) => {
      const from = q(req, 'from');
      const to = q(req, 'to');
      if (from !== undefined && !TIME_RE.test(from)) throw badTime();
      if (to !== undefined && !TIME_RE.test(to)) throw badTime();
      if (from !== undefined && to !== undefined && from > to) throw badTime();
      return {
        from,
        to,
        echo: { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) },
      };
    };
    const enumParam = (req: SandboxRequest, name: string, allowed: string[]) => {
      const v = q(req, name);
      if (v !== undefined && !allowed.includes(v))
        throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
      return v;
    };
    const boolParam = (req: SandboxRequest, name: string) => {
      const v = enumParam(req, name, ['true', 'false']);
      return v === undefined ? undefined : v === 'true';
    };
    const team = (id: string, period: boolean) => {
      const t = slice().teams.find((x) => x.id === id);
      if (!t) throw new ZoomError(404, 1005, `Team does not exist: ${id}${period ? '.' : ''}`);
      return t;
    };
    /** Conversation filters shared by the conversation list and deal activities. */
    const calloutOk = (c: ConversationRec, callout: string | undefined) =>
      !callout || (callout === 'nextSteps' ? c.next_steps > 0 : c.questions > 0);

    ctx.route({
      method: 'GET',
      url: '/zra/conversations',
      scopes: ZRA_SCOPES.listConversations,
      label: 'MEDIUM',
      handler: (req) => {
        const range = timeRange(req);
        const period =
          enumParam(req, 'period_type', ['meetingStartTime', 'iqProcessedTime']) ?? 'meetingStartTime';
        const type = enumParam(req, 'conversation_type', ['all', 'meeting', 'phone']) ?? 'all';
        const callout = enumParam(req, 'callout_type', ['engagingQuestions', 'nextSteps']);
        const scored = boolParam(req, 'scored');
        const hostId = q(req, 'host_id');
        const participantId = q(req, 'participant_id');
        const teamId = q(req, 'team_id');
        const dealId = q(req, 'deal_id');
        const indicator = q(req, 'indicator_id');
        const topic = q(req, 'mentioned_topic_id');
        const host = hostId ? byId(hostId) : undefined;
        if (hostId && !host)
          throw new ZoomError(404, 1005, `Host or participant user does not exist: ${hostId}`);
        const participant = participantId ? byId(participantId) : undefined;
        if (participantId && !participant)
          throw new ZoomError(404, 1005, `Host or participant user does not exist: ${participantId}`);
        const members = teamId ? team(teamId, false).members : undefined;
        if (dealId && !slice().deals.some((d) => d.id === dealId))
          throw new ZoomError(404, 1005, `Deal does not exist: ${dealId}`);
        const items = visible()
          .filter((c) => {
            const t = period === 'meetingStartTime' ? c.start_time : c.processed_time;
            if (period === 'iqProcessedTime' && processing(c)) return false;
            if ((range.from && t < range.from) || (range.to && t > range.to)) return false;
            if (type !== 'all' && c.type !== type) return false;
            if (!calloutOk(c, callout)) return false;
            if (scored !== undefined && c.scored !== scored) return false;
            if (host && c.host !== host.email) return false;
            if (participant && !c.reps.includes(participant.email)) return false;
            if (members && !c.reps.some((e) => members.includes(e))) return false;
            if (dealId && c.deal !== dealId) return false;
            if (indicator && !c.indicators.includes(indicator)) return false;
            if (topic && !c.topics.includes(topic)) return false;
            return true;
          })
          .sort((a, b) => b.start_time.localeCompare(a.start_time));
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          ...range.echo,
          conversations: page.items.map(listItem),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId',
      scopes: ZRA_SCOPES.conversation,
      label: 'LIGHT',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), true);
        const d = dealOf(c);
        const host = person(c.host);
        const viewers = people().slice(0, Math.min(c.views, 3));
        return {
          ...listItem(c),
          host_email: host.email,
          ...(processing(c) ? {} : { summary: summaryOf(c) }),
          stage_during_conversation: c.stage,
          start_time: c.start_time,
          conversation_url: `${ctx.baseUrl}/iq/conversation?conversationId=${encodeURIComponent(c.id)}`,
          ...(d
            ? {
                deal: {
                  id: d.id,
                  name: d.name,
                  stage: d.stage,
                  customer_crm_account_name: d.account,
                  close_date: d.close_date,
                },
              }
            : {}),
          ...(c.calendar ? { calendar_client: c.calendar, event_id: c.event_id } : {}),
          conversation_view: {
            total_view_counts: c.views,
            view_user_infos: viewers.map((u, i) => ({
              user_id: u.id,
              user_display_name: u.name,
              counts: i === 0 ? c.views - viewers.length + 1 : 1,
            })),
          },
          participants: [
            ...c.reps.map((e) => ({ display_name: person(e).name, email: e, type: 'rep' })),
            ...c.customers.map((x) => ({ display_name: x.name, email: x.email, type: 'customer' })),
          ],
          moment_info: [],
        };
      },
    });

    /** One analysed line of the conversation, at `offset` seconds in. */
    const line = (
      c: ConversationRec,
      offset: number,
      speaker: 'rep' | 'customer',
      text: string,
      extra: Record<string, string> = {},
    ) => {
      const who = speaker === 'rep' ? person(c.host) : undefined;
      const customer = c.customers[0];
      const at = Math.min(offset, Math.max(0, c.duration_sec - 20));
      return {
        ...(who ? { user_id: who.id } : {}),
        display_name: who?.name ?? customer?.name ?? 'Customer',
        text,
        ...extra,
        start_time: plusSec(c.start_time, at),
        end_time: plusSec(c.start_time, at + 15),
      };
    };

    const analysisOf = (c: ConversationRec, type: string) => {
      const business = dealOf(c)?.business ?? 'growthos';
      const d = dealOf(c);
      const span = c.duration_sec;
      const want = (t: string) => type === 'all' || type === t;
      const out: Record<string, unknown> = { next_page_token: '', page_size: 30 };
      if (want('smartChapters')) out['summary'] = summaryOf(c);
      if (want('topics')) {
        out['topics'] = c.topics.map((id, i) => {
          const t = TOPICS[id];
          return {
            section: [
              line(
                c,
                Math.round((span * (i + 1)) / (c.topics.length + 2)),
                i % 2 ? 'customer' : 'rep',
                t?.line[business] ?? id,
                { label: t?.label ?? id, key_word: t?.key_word ?? id, marked_by: 'nlp' },
              ),
            ],
          };
        });
      }
      if (want('nextSteps')) {
        out['next_steps'] = [
          {
            section: NEXT_STEPS[business].slice(0, c.next_steps).map((text, i) =>
              line(c, span - 240 + i * 60, 'rep', text, {
                utterance: 'next steps',
                label: 'next steps',
                marked_by: 'aic',
              }),
            ),
          },
        ];
      }
      if (want('engagingQuestions')) {
        out['good_questions'] = [
          {
            section: QUESTIONS[business].slice(0, c.questions).map((text, i) =>
              line(c, 180 + i * 420, 'rep', text, {
                utterance: text,
                label: 'engaging question',
                marked_by: 'nlp',
              }),
            ),
          },
        ];
      }
      if (want('indicators')) {
        out['indicators'] = c.indicators.map((id, i) => {
          const ind = slice().indicators.find((x) => x.id === id);
          const topicLine = Object.values(TOPICS).find((t) => t.key_word === ind?.key_word)?.line[business];
          return {
            section: [
              line(
                c,
                300 + i * 400,
                'customer',
                topicLine ?? 'I can sign off on this myself once we agree on the terms.',
                {
                  indicator_name: ind?.name ?? '',
                  indicator_id: id,
                  key_word: ind?.key_word ?? '',
                  marked_by: 'es',
                },
              ),
            ],
          };
        });
      }
      if (want('smartChapters')) {
        const cut = [0, 0.15, 0.6, 0.85, 1].map((f) => Math.round(span * f));
        const titles = [
          'Introductions',
          c.topics.map((t) => TOPICS[t]?.label ?? t).join(' and '),
          'Questions and concerns',
          'Next steps',
        ];
        out['smart_chapters'] = titles.map((title, i) => ({
          title,
          summary:
            i === 3
              ? NEXT_STEPS[business].slice(0, c.next_steps).join(' ')
              : i === 0
                ? `${person(c.host).name} opened the call and confirmed the agenda.`
                : `The group discussed ${title.toLowerCase()}.`,
          category: i === 0 ? 'Introduction' : i === 3 ? 'Wrap-up' : 'Discussion',
          start_time: plusSec(c.start_time, cut[i] ?? 0),
          end_time: plusSec(c.start_time, cut[i + 1] ?? span),
        }));
      }
      if (want('dealMemo') && d) {
        out['deal_memo'] = {
          potential_wins: MEMO[business].wins.map(([factor, explanation]) => ({ factor, explanation })),
          potential_concerns: MEMO[business].concerns.map(([factor, explanation]) => ({
            factor,
            explanation,
          })),
        };
      }
      if (want('playbooks')) {
        const steps = NEXT_STEPS[business];
        out['playbooks'] = [
          {
            playbook_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 12)}MEDDPICC`,
            playbook_name: 'MEDDPICC',
            elements: [
              [
                'Metrics',
                d
                  ? `What success means for ${d.account}: ${TOPICS['user_requirements']?.line[business] ?? ''}`
                  : 'Not discussed yet.',
              ],
              ['Decision process', steps[0] ?? ''],
            ].map(([name = '', summary = ''], i) => ({
              element_id: `${c.meeting_uuid.replace(/[^A-Za-z0-9]/g, '').slice(0, 14)}E${i}`,
              element_name: name,
              answer: {
                summaries: [summary],
                sources: [
                  {
                    item_id: String(12 + i),
                    speaker_name: c.customers[0]?.name ?? 'Customer',
                    start_time: '00:02:59.250',
                    end_time: '00:03:07.126',
                    time_s: 179,
                    text: summary,
                  },
                ],
              },
            })),
          },
        ];
      }
      return out;
    };

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId/content_analysis',
      scopes: ZRA_SCOPES.analysis,
      label: 'MEDIUM',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), true);
        const type = q(req, 'analysis_type');
        if (type === undefined || !ANALYSIS_TYPES.includes(type))
          throw new ZoomError(400, 1001, 'Invalid request parameter.');
        if (processing(c)) return { next_page_token: '', page_size: 30 };
        return analysisOf(c, type);
      },
    });

    const canSee = (cm: CommentRec) => !cm.private || cm.author === ctx.demo.email;
    const commentObject = (cm: CommentRec) => {
      const author = person(cm.author);
      return {
        id: cm.id,
        ...(cm.parent ? { parent_comment_id: cm.parent } : {}),
        user_name: author.name,
        user_email: author.email,
        created_time: cm.created,
        last_modified_time: cm.modified,
        comment: cm.comment,
        mention_users: cm.mentions.map((e) => ({ user_id: person(e).id, user_name: person(e).name })),
        mention_teams: cm.teams.map((id) => ({
          team_id: id,
          team_name: slice().teams.find((t) => t.id === id)?.name ?? '',
        })),
        is_private: cm.private,
        ...(cm.time_in_recording ? { time_in_recording: cm.time_in_recording } : {}),
      };
    };

    ctx.route({
      method: 'GET',
      url: '/zra/conversations/:conversationId/comments',
      scopes: ZRA_SCOPES.comments,
      label: 'MEDIUM',
      handler: (req) => {
        const c = findConversation(p(req, 'conversationId'), false);
        const items = slice()
          .comments.filter((x) => x.conversation === c.id && canSee(x))
          .sort((a, b) => a.created.localeCompare(b.created));
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          comments: page.items.map(commentObject),
        };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/zra/conversations/:conversationId/comments',
      scopes: ZRA_SCOPES.addComment,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const c = findConversation(p(req, 'conversationId'), false);
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
        const strings = (v: unknown) =>
          Array.isArray(v) && v.length <= 50 && v.every((x) => typeof x === 'string');
        if (typeof b['comment'] !== 'string' || b['comment'].trim() === '') bad('comment');
        if (b['parent_comment_id'] !== undefined && typeof b['parent_comment_id'] !== 'string')
          bad('parent_comment_id');
        if (b['mention_user_ids'] !== undefined && !strings(b['mention_user_ids'])) bad('mention_user_ids');
        if (b['mention_team_ids'] !== undefined && !strings(b['mention_team_ids'])) bad('mention_team_ids');
        if (b['is_private'] !== undefined && typeof b['is_private'] !== 'boolean') bad('is_private');
        if (b['time_in_recording'] !== undefined && typeof b['time_in_recording'] !== 'string')
          bad('time_in_recording');
        if (errors.length) throw zerr.validation(errors);
        // Well-formed but wrong: the operation's documented 400 code 1001.
        const invalid = () => new ZoomError(400, 1001, 'Invalid request param');
        const parent = (b['parent_comment_id'] as string | undefined) ?? '';
        if (parent && !slice().comments.some((x) => x.id === parent && x.conversation === c.id && canSee(x)))
          throw invalid();
        const mentions = ((b['mention_user_ids'] as string[] | undefined) ?? []).map((id) => byId(id)?.email);
        if (mentions.some((e) => e === undefined)) throw invalid();
        const teams = (b['mention_team_ids'] as string[] | undefined) ?? [];
        if (teams.some((id) => !slice().teams.some((t) => t.id === id))) throw invalid();
        const at = (b['time_in_recording'] as string | undefined) ?? '';
        if (at) {
          const m = /^(\d{2}):([0-5]\d):([0-5]\d)$/.exec(at);
          if (!m || Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) > c.duration_sec) throw invalid();
        }
        const stamp = zoomTime(ctx.now());
        const cm: CommentRec = {
          id: randomUUID(),
          conversation: c.id,
          parent,
          author: ctx.demo.email,
          created: stamp,
          modified: stamp,
          comment: b['comment'] as string,
          mentions: mentions as string[],
          teams,
          private: b['is_private'] === true,
          time_in_recording: at,
        };
        slice().comments.push(cm);
        ctx.changed();
        ctx.webhooks.emit(
          'revenue_accelerator.post_comment_completed',
          { comment_id: cm.id, conversation_id: c.id, text: cm.comment },
          { operator_id: ctx.demo.id, operator: ctx.demo.email },
        );
        return reply.code(201).send(commentObject(cm));
      },
    });

    const dealStats = (d: DealRec) => {
      const convs = visible().filter((c) => c.deal === d.id);
      const times = [
        ...convs.map((c) => c.start_time),
        ...d.emails.filter((e) => Date.parse(e.date) <= now()).map((e) => e.date),
      ].sort();
      return { conversations: convs, last: times[times.length - 1] ?? d.created };
    };
    const dealObject = (d: DealRec) => {
      const owner = person(d.owner);
      const stats = dealStats(d);
      return {
        deal_id: d.id,
        deal_name: d.name,
        deal_stage: d.stage,
        deal_description: d.description,
        owner_name: owner.name,
        owner_email: owner.email,
        owner_id: owner.id,
        deal_is_closed: d.closed,
        create_time: d.created,
        account_name: d.account,
        deal_is_private: d.private,
        deal_amount: d.amount,
        currency_type: 'USD',
        close_date: d.close_date,
        time_in_stage: Math.max(0, Math.floor((now() - Date.parse(d.stage_since)) / 86_400_000)),
        number_of_conversations: stats.conversations.length,
        last_activity_time: stats.last,
        account_type: 'salesforce',
      };
    };
    const amount = (req: SandboxRequest, name: string) => {
      const v = q(req, name);
      if (v === undefined) return undefined;
      if (!/^\d+$/.test(v)) throw zerr.validation([{ field: name, message: 'Invalid field.' }]);
      return Number(v);
    };

    ctx.route({
      method: 'GET',
      url: '/zra/deals',
      scopes: ZRA_SCOPES.deals,
      label: 'MEDIUM',
      handler: (req) => {
        const range = timeRange(req);
        const name = q(req, 'deal_name')?.toLowerCase();
        const withAnalytics = boolParam(req, 'only_show_with_analytics');
        const stage = q(req, 'deal_stage');
        const ownerId = q(req, 'owner_id');
        const teamId = q(req, 'team_id');
        const min = amount(req, 'min_deal_amount');
        const max = amount(req, 'max_deal_amount');
        const owner = ownerId ? byId(ownerId) : undefined;
        if (ownerId && !owner) throw new ZoomError(404, 1005, `Owner does not exist: ${ownerId}`);
        const members = teamId ? team(teamId, false).members : undefined;
        const items = slice()
          .deals.map((d) => ({ d, o: dealObject(d) }))
          .filter(({ d, o }) => {
            if (name && !d.name.toLowerCase().includes(name)) return false;
            if (withAnalytics && o.number_of_conversations === 0) return false;
            if (stage && d.stage.toLowerCase() !== stage.toLowerCase()) return false;
            if (owner && d.owner !== owner.email) return false;
            if (members && !members.includes(d.owner)) return false;
            if (min !== undefined && d.amount < min) return false;
            if (max !== undefined && d.amount > max) return false;
            if (
              (range.from && o.last_activity_time < range.from) ||
              (range.to && o.last_activity_time > range.to)
            )
              return false;
            return true;
          })
          .sort((a, b) => b.o.last_activity_time.localeCompare(a.o.last_activity_time))
          .map(({ o }) => o);
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return {
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          ...range.echo,
          deals: page.items,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zra/deals/:dealId',
      scopes: ZRA_SCOPES.deal,
      label: 'MEDIUM',
      handler: (req) => {
        const d = findDeal(p(req, 'dealId'));
        return { ...dealObject(d), contacts: d.contacts.map((c) => c.name) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/zra/deals/:dealId/activities',
      scopes: ZRA_SCOPES.activities,
      label: 'MEDIUM',
      handler: (req) => {
        const d = findDeal(p(req, 'dealId'));
        const callout = q(req, 'callout_type');
        if (callout !== undefined && callout !== 'engagingQuestions' && callout !== 'nextSteps') {
          throw new ZoomError(400, 1001, 'Invalid request param');
        }
        const topicText = q(req, 'conversation_topic')?.toLowerCase();
        const indicator = q(req, 'indicator_id');
        const topic = q(req, 'mentioned_topic_id');
        const conversationFilters = Boolean(callout ?? indicator ?? topic);
        const calls = dealStats(d)
          .conversations.filter(
            (c) =>
              calloutOk(c, callout) &&
              (!indicator || c.indicators.includes(indicator)) &&
              (!topic || c.topics.includes(topic)) &&
              (!topicText || c.topic.toLowerCase().includes(topicText)),
          )
          .map((c) => ({
            conversation_id: c.id,
            conversation_topic: c.topic,
            deal_stage: d.stage,
            sentiment_score: processing(c) ? 0 : c.sentiment,
            engagement_score: processing(c) ? 0 : c.engagement,
            host_id: person(c.host).id,
            ...(c.type === 'phone' ? { direction: c.direction } : {}),
            start_date: c.start_time,
            activity_type: c.type === 'phone' ? 'call' : 'meeting',
            stage_during_conversation: c.stage,
            processing_analysis: processing(c),
            duration: Math.round(c.duration_sec / 60),
          }));
        const emails = conversationFilters
          ? []
          : d.emails
              .filter(
                (e) =>
                  Date.parse(e.date) <= now() && (!topicText || e.subject.toLowerCase().includes(topicText)),
              )
              .map((e) => ({
                conversation_topic: e.subject,
                deal_stage: d.stage,
                host_id: person(d.owner).id,
                direction: e.direction,
                start_date: e.date,
                activity_type: 'email',
                stage_during_conversation: d.stage,
                processing_analysis: false,
                message_ids: e.message_id,
                number_of_message_in_thread: e.count,
                duration: 0,
              }));
        const items = [...calls, ...emails].sort((a, b) => b.start_date.localeCompare(a.start_date));
        const page = ctx.paginate(req, items, { defaultSize: 30, maxSize: 300 });
        return { next_page_token: page.nextPageToken, page_size: page.pageSize, activities: page.items };
      },
    });
  },
});
