/**
 * Team Chat and contacts: the demo user's channels, the messages in them and in 1:1 chats
 * (newest first, one day at a time, only the last 6 months), sending messages (201 `{id}` and
 * the `chat_message.sent` webhook), one message, one channel, the user's company and external
 * contacts, and the company directory search (`GET /contacts`).
 */
import { randomUUID } from 'node:crypto';
import { body, defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { SandboxContext, SandboxRequest, SeedContext } from '../context.js';
import { zoomTime } from '../time.js';
import type { UsersSlice } from './users.js';

type Presence = 'Available' | 'Away' | 'Do_Not_Disturb' | 'Offline';

export interface ContactRec {
  /** The user id when the contact is on the account (the users module's id wins, matched by email). */
  id: string;
  member_id: string;
  email: string;
  first_name: string;
  last_name: string;
  kind: 'company' | 'external';
  company: string;
  dept: string;
  job_title: string;
  location: string;
  phone: string;
  extension: string;
  direct_number: string;
  presence: Presence;
}

export interface RoomRec {
  member_id: string;
  name: string;
  location: string;
}

export interface ChannelRec {
  id: string;
  name: string;
  type: number;
  members: string[];
  settings: {
    posting_permissions: number;
    add_member_permissions: number;
    mention_all_permissions: number;
    allow_to_add_external_users: number;
    new_members_can_see_previous_messages_files: boolean;
  };
}

interface FileRec {
  file_id: string;
  file_name: string;
  file_size: number;
}

interface AtItem {
  at_type: number;
  /** Email of the mentioned contact (type 1). */
  at_contact?: string;
  start_position: number;
  end_position: number;
}

interface RichText {
  start_position: number;
  end_position: number;
  format_type: string;
  format_attr?: string;
}

export interface MessageRec {
  id: string;
  /** Channel id, for channel messages. */
  channel?: string;
  /** Email of the other person, for 1:1 messages. */
  contact?: string;
  /** Email of the sender. */
  sender: string;
  message: string;
  ts: number;
  message_type: string;
  reply_main_message_id?: string;
  files?: FileRec[];
  reactions?: { emoji: string; senders: string[] }[];
  at_items?: AtItem[];
  rich_text?: RichText[];
  interactive_cards?: { card_id: string; card_json: string }[];
}

export interface ChatSlice {
  demoMemberId: string;
  contacts: ContactRec[];
  rooms: RoomRec[];
  channels: ChannelRec[];
  messages: MessageRec[];
}

const SCOPES = {
  listMessages: [
    'team_chat:read:list_user_messages',
    'team_chat:read:list_user_messages:admin',
    'chat_message:read',
    'chat_message:write',
    'chat_message:read:admin',
    'chat_message:write:admin',
  ],
  send: [
    'team_chat:write:user_message',
    'team_chat:write:user_message:admin',
    'chat_message:write',
    'chat_message:write:admin',
  ],
  getMessage: [
    'team_chat:read:user_message',
    'team_chat:read:user_message:admin',
    'chat_message:read',
    'chat_message:read:admin',
    'chat_message:write',
    'chat_message:write:admin',
  ],
  listChannels: [
    'team_chat:read:list_user_channels',
    'team_chat:read:list_user_channels:admin',
    'chat_channel:read',
    'chat_channel:write',
    'chat_channel:read:admin',
    'chat_channel:write:admin',
  ],
  getChannel: [
    'team_chat:read:channel',
    'team_chat:read:channel:admin',
    'chat_channel:read',
    'chat_channel:write',
    'chat_channel:read:admin',
    'chat_channel:write:admin',
  ],
  contacts: ['team_chat:read:list_contacts', 'chat_contact:read'],
  contact: ['team_chat:read:contact', 'chat_contact:read'],
  search: [
    'contact:read:list_contacts',
    'contact:read:list_contacts:admin',
    'contact:read:admin',
    'contact:read',
  ],
};

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';

// [first, last, kind, company, dept, job title, location, presence]
const PEOPLE: [string, string, 'company' | 'external', string, string, string, string, Presence][] = [
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

const EXTERNAL_DOMAINS: Record<string, string> = {
  'Lakeshore Logistics': 'lakeshorelogistics.example',
  'Northbeam Creative': 'northbeamcreative.example',
  'Prairie Bank': 'prairiebank.example',
};

/** Who speaks in the seeded conversations: A is the demo user, the others are contacts. */
const WHO: Record<string, string> = {
  J: 'Jordan',
  P: 'Priya',
  M: 'Marcus',
  E: 'Elena',
  S: 'Sam',
  D: 'Dana',
  R: 'Rafael',
};

interface LineOpts {
  reply?: boolean;
  react?: string;
  file?: [string, number, string];
  at?: string;
}
type Line = [day: number, who: string, text: string, opts?: LineOpts];

const CHANNELS: { name: string; type: number; members: string[]; posting: number; lines: Line[] }[] = [
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

const DMS: { with: string; lines: Line[] }[] = [
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

const uuidFrom = (s: SeedContext) => {
  const h = s.rng.id(32, HEX).toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-A${h.slice(17, 20)}-${h.slice(20)}`;
};

function seedChat(s: SeedContext): ChatSlice {
  const contacts: ContactRec[] = PEOPLE.map(
    ([first, last, kind, company, dept, title, location, presence]) => ({
      id: s.rng.id(22, `${ALNUM}-_`),
      member_id: s.rng.id(46, ALNUM),
      email:
        kind === 'company'
          ? `${first.toLowerCase()}.${last.toLowerCase()}@meridianfleet.example`
          : `${first.toLowerCase()}.${last.toLowerCase()}@${EXTERNAL_DOMAINS[company] ?? 'example.com'}`,
      first_name: first,
      last_name: last,
      kind,
      company,
      dept,
      job_title: title,
      location,
      phone: `${kind === 'company' ? '312' : '219'}555${s.rng.digits(4)}`,
      extension: kind === 'company' ? String(s.rng.int(100, 199)) : '',
      direct_number: kind === 'company' ? `+1312555${s.rng.digits(4)}` : '',
      presence,
    }),
  );
  const demoMemberId = s.rng.id(46, ALNUM);
  const emailOf = (who: string) => {
    if (who === 'A') return s.demo.email;
    const c = contacts.find((x) => x.first_name === WHO[who]);
    return c?.email ?? s.demo.email;
  };
  const messages: MessageRec[] = [];
  const addLines = (lines: Line[], where: { channel: string } | { contact: string }, members: string[]) => {
    let lastDay = Number.NaN;
    let t = 0;
    let main: MessageRec | undefined;
    for (const [day, who, text, opts = {}] of lines) {
      if (day !== lastDay) {
        // Early-morning dispatch on the current day, office hours (US Central) before that.
        t = Date.parse(s.at(day, day === 0 ? 10 : 13, 0)) + s.rng.int(0, 150) * 60_000;
        lastDay = day;
      } else {
        t += s.rng.int(4, 75) * 60_000;
      }
      const m: MessageRec = {
        id: uuidFrom(s),
        ...where,
        sender: emailOf(who),
        message: text,
        ts: t + s.rng.int(0, 59_999),
        message_type: opts.file?.[2] ?? 'plain_text_message',
      };
      if (opts.reply && main) m.reply_main_message_id = main.id;
      else main = m;
      if (opts.file)
        m.files = [{ file_id: s.rng.id(22, `${ALNUM}-_`), file_name: opts.file[0], file_size: opts.file[1] }];
      if (opts.react) {
        const others = members.filter((x) => x !== who).slice(0, s.rng.int(1, 3));
        m.reactions = [{ emoji: opts.react, senders: others.map(emailOf) }];
      }
      if (opts.at) {
        const name = `@${WHO[opts.at] ?? ''} ${contacts.find((c) => c.first_name === WHO[opts.at ?? ''])?.last_name ?? ''}`;
        const start = text.indexOf(name);
        m.at_items = [
          {
            at_type: 1,
            at_contact: emailOf(opts.at),
            start_position: Math.max(0, start),
            end_position: Math.max(0, start) + name.length - 1,
          },
        ];
      }
      messages.push(m);
    }
  };
  const channels: ChannelRec[] = CHANNELS.map((c) => {
    const id = s.rng.id(32, HEX);
    addLines(c.lines, { channel: id }, c.members);
    return {
      id,
      name: c.name,
      type: c.type,
      members: c.members.map(emailOf),
      settings: {
        posting_permissions: c.posting,
        add_member_permissions: c.type >= 3 ? 1 : 2,
        mention_all_permissions: c.name === 'general' ? 2 : 1,
        allow_to_add_external_users: c.type === 3 ? 0 : 3,
        new_members_can_see_previous_messages_files: true,
      },
    };
  });
  for (const dm of DMS) addLines(dm.lines, { contact: emailOf(dm.with) }, ['A', dm.with]);
  const rooms: RoomRec[] = [
    { member_id: s.rng.id(46, ALNUM), name: 'Chicago HQ - Boardroom', location: 'Chicago, IL' },
    { member_id: s.rng.id(46, ALNUM), name: 'Joliet Yard - Dispatch Huddle', location: 'Joliet, IL' },
  ];
  return { demoMemberId, contacts, rooms, channels, messages };
}

const DAY = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const bare = (id: string) => id.replace(/^\{|\}$/g, '').toUpperCase();
const truthy = (v: string | undefined) => v === 'true';

interface Person {
  email: string;
  userId: string;
  memberId: string;
  name: string;
}

export const chatModule = defineModule<ChatSlice>({
  name: 'chat',
  seed: seedChat,
  register(ctx: SandboxContext) {
    const slice = () => ctx.slice<ChatSlice>('chat');
    const now = () => ctx.now().getTime();

    /** The users module's colleague ids are the account's ids; chat keeps its own otherwise. */
    const userIdOf = (c: ContactRec): string => {
      if (c.kind === 'external') return '';
      const users = ctx.slice<UsersSlice | undefined>('users');
      return users?.colleagues.find((u) => u.email.toLowerCase() === c.email)?.id ?? c.id;
    };
    const demoPerson = (): Person => ({
      email: ctx.demo.email,
      userId: ctx.demo.id,
      memberId: slice().demoMemberId,
      name: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
    });
    const person = (email: string): Person => {
      if (email === ctx.demo.email) return demoPerson();
      const c = slice().contacts.find((x) => x.email === email);
      return c
        ? { email, userId: userIdOf(c), memberId: c.member_id, name: `${c.first_name} ${c.last_name}` }
        : { email, userId: '', memberId: '', name: email };
    };

    /** `to_contact` is an email, user id or member id; 404 code 1001 otherwise. */
    const findContact = (value: string): Person => {
      const v = value.trim();
      const d = demoPerson();
      if (v.toLowerCase() === d.email || v === d.userId || v === d.memberId) return d;
      const c = slice().contacts.find(
        (x) => x.email === v.toLowerCase() || x.member_id === v || (userIdOf(x) !== '' && userIdOf(x) === v),
      );
      if (!c) throw new ZoomError(404, 1001, `User does not exist: ${value}.`);
      return person(c.email);
    };
    const findChannel = (id: string): ChannelRec => {
      const c = slice().channels.find((x) => x.id === id);
      if (!c) throw new ZoomError(404, 4130, `Channel does not exist: ${id}.`);
      return c;
    };

    const channelUrl = (c: ChannelRec) =>
      `${ctx.baseUrl}/launch/chat/v2/${Buffer.from(JSON.stringify({ sid: `${c.id}@conference.xmpp.zoom.us` })).toString('base64url')}`;
    const channelObject = (c: ChannelRec, full: boolean) => ({
      id: c.id,
      jid: `${c.id}@conference.xmpp.zoom.us`,
      name: c.name,
      type: c.type,
      channel_url: channelUrl(c),
      channel_settings: {
        ...c.settings,
        ...(full && c.settings.posting_permissions === 3
          ? {
              designated_posting_members: c.members
                .filter((e) => e !== ctx.demo.email)
                .slice(0, 1)
                .map((e) => ({ member_id: person(e).memberId, user_id: person(e).userId })),
            }
          : {}),
      },
    });

    const fileFields = (files: FileRec[] | undefined) => {
      const first = files?.[0];
      if (!files || !first) return {};
      const url = (f: FileRec) =>
        `${ctx.baseUrl}/file/download/${f.file_id}?filename=${encodeURIComponent(f.file_name)}`;
      return {
        file_id: first.file_id,
        file_name: first.file_name,
        file_size: first.file_size,
        download_url: url(first),
        files: files.map((f) => ({
          file_id: f.file_id,
          file_name: f.file_name,
          file_size: f.file_size,
          download_url: url(f),
        })),
      };
    };

    /** The message fields both the list and the single-message endpoints share. */
    const baseMessage = (m: MessageRec) => {
      const from = person(m.sender);
      const main = m.reply_main_message_id
        ? slice().messages.find((x) => x.id === m.reply_main_message_id)
        : undefined;
      return {
        id: m.id,
        message: m.message,
        sender: m.sender,
        sender_display_name: from.name,
        send_member_id: from.memberId,
        date_time: zoomTime(new Date(m.ts)),
        timestamp: m.ts,
        message_type: m.message_type,
        ...(m.reply_main_message_id
          ? { reply_main_message_id: m.reply_main_message_id, reply_main_message_timestamp: main?.ts ?? m.ts }
          : {}),
        ...fileFields(m.files),
        ...(m.at_items?.length
          ? {
              at_items: m.at_items.map((a) => ({
                at_type: a.at_type,
                ...(a.at_contact
                  ? {
                      at_contact: person(a.at_contact).userId,
                      at_contact_member_id: person(a.at_contact).memberId,
                    }
                  : {}),
                start_position: a.start_position,
                end_position: a.end_position,
              })),
            }
          : {}),
        ...(m.rich_text?.length ? { rich_text: m.rich_text } : {}),
        ...(m.interactive_cards?.length ? { interactive_cards: m.interactive_cards } : {}),
      };
    };
    const listMessage = (m: MessageRec, withStatus: boolean) => ({
      ...baseMessage(m),
      ...(m.reactions?.length
        ? {
            reactions: m.reactions.map((r) => ({
              emoji: r.emoji,
              total_count: r.senders.length,
              senders: r.senders.map((e) => ({ user_id: person(e).userId, member_id: person(e).memberId })),
            })),
          }
        : {}),
      ...(withStatus ? { status: 'Normal' } : {}),
    });
    const fullMessage = (m: MessageRec) => ({
      ...baseMessage(m),
      ...(m.reactions?.length
        ? {
            reactions: m.reactions.map((r) => ({
              emoji: r.emoji,
              total_count: r.senders.length,
              user_ids: r.senders.map((e) => person(e).userId).filter((x) => x !== ''),
              member_ids: r.senders.map((e) => person(e).memberId),
            })),
          }
        : {}),
      message_url: `${ctx.baseUrl}/launch/chat/v2/${Buffer.from(JSON.stringify({ mid: m.id, sid: m.channel ?? m.contact ?? '' })).toString('base64url')}`,
    });

    /** The conversation a query names: a channel, or the 1:1 chat with a contact. */
    type Session = { channel: ChannelRec } | { contact: Person };
    const sessionOf = (req: SandboxRequest, quoted: boolean): Session | undefined => {
      const ch = q(req, 'to_channel');
      const to = q(req, 'to_contact');
      if (ch) return { channel: findChannel(ch) };
      if (to) return { contact: findContact(to) };
      if (quoted) throw new ZoomError(400, 300, 'Must provide either "contact" or "channel" parameter.');
      return undefined;
    };
    const inSession = (m: MessageRec, sess: Session) =>
      'channel' in sess ? m.channel === sess.channel.id : m.contact === sess.contact.email;
    /** Messages the demo user can see: every channel they belong to, and their 1:1 chats; nothing scheduled for later. */
    const visible = () => {
      const mine = new Set(
        slice()
          .channels.filter((c) => c.members.includes(ctx.demo.email))
          .map((c) => c.id),
      );
      const t = now();
      return slice().messages.filter(
        (m) => m.ts <= t && (m.contact !== undefined || (m.channel !== undefined && mine.has(m.channel))),
      );
    };

    ctx.route({
      method: 'GET',
      url: '/chat/users/:userId/messages',
      scopes: SCOPES.listMessages,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const searchType = q(req, 'search_type');
        const searchKey = q(req, 'search_key');
        if (searchType !== undefined && searchType !== 'message' && searchType !== 'file')
          throw zerr.badParam('search_type');
        if (searchKey !== undefined && (searchKey.length < 1 || searchKey.length > 256))
          throw zerr.badParam('search_key');
        if ((searchType === undefined) !== (searchKey === undefined))
          throw zerr.badParam(searchType === undefined ? 'search_type' : 'search_key');
        const searching = searchType !== undefined && searchKey !== undefined;
        const sess = sessionOf(req, false);
        if (!sess && !searching)
          throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');

        // The window: `date` (a whole UTC day, today by default) wins over `from`/`to`.
        const t = now();
        const sixMonths = new Date(t);
        sixMonths.setUTCMonth(sixMonths.getUTCMonth() - 6);
        const oldest = Date.UTC(sixMonths.getUTCFullYear(), sixMonths.getUTCMonth(), sixMonths.getUTCDate());
        const date = q(req, 'date');
        const fromQ = q(req, 'from');
        const toQ = q(req, 'to');
        let start: number;
        let end: number;
        let window: Record<string, string>;
        if (date !== undefined || fromQ === undefined) {
          const day = date ?? ctx.now().toISOString().slice(0, 10);
          if (!DATE_RE.test(day) || Number.isNaN(Date.parse(day))) throw zerr.badParam('date');
          start = Date.parse(`${day}T00:00:00Z`);
          end = start + DAY - 1;
          window = { date: day };
          if (searching && date === undefined) start = oldest;
        } else {
          if (!DATETIME_RE.test(fromQ) || Number.isNaN(Date.parse(fromQ))) throw zerr.badParam('from');
          if (toQ !== undefined && (!DATETIME_RE.test(toQ) || Number.isNaN(Date.parse(toQ))))
            throw zerr.badParam('to');
          start = Date.parse(fromQ);
          end = toQ !== undefined ? Date.parse(toQ) : t;
          window = { from: zoomTime(new Date(start)), to: zoomTime(new Date(end)) };
        }
        if (start < oldest)
          throw new ZoomError(400, 300, 'Only provide past chat messages in recent 6 months.');

        const key = searchKey?.toLowerCase() ?? '';
        const withStatus = truthy(q(req, 'include_deleted_and_edited_message')) && !searching;
        const items = visible()
          .filter((m) => (!sess || inSession(m, sess)) && m.ts >= start && m.ts <= end)
          .filter((m) => !truthy(q(req, 'exclude_child_message')) || !m.reply_main_message_id)
          .filter(
            (m) =>
              !searching ||
              (searchType === 'file'
                ? (m.files ?? []).some((f) => f.file_name.toLowerCase().includes(key))
                : m.message.toLowerCase().includes(key)),
          )
          .sort((a, b) => b.ts - a.ts);
        const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 50 });
        return {
          ...window,
          page_size: page.pageSize,
          next_page_token: page.nextPageToken,
          messages: page.items.map((m) => listMessage(m, withStatus)),
        };
      },
    });

    ctx.route({
      method: 'POST',
      url: '/chat/users/:userId/messages',
      scopes: SCOPES.send,
      label: 'MEDIUM',
      handler: (req, reply) => {
        ctx.user(req, p(req, 'userId'));
        const b = body(req);
        const errors: { field: string; message: string }[] = [];
        const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
        const str = (k: string) => {
          const v = b[k];
          return typeof v === 'string' ? v : undefined;
        };
        const message = str('message');
        if (message === undefined || message.length > 1024) bad('message');
        for (const k of ['to_contact', 'to_channel', 'reply_main_message_id', 'scheduled_time'])
          if (k in b && typeof b[k] !== 'string') bad(k);
        const fileIds = b['file_ids'];
        if (
          fileIds !== undefined &&
          (!Array.isArray(fileIds) || fileIds.length > 6 || fileIds.some((x) => typeof x !== 'string'))
        )
          bad('file_ids');
        const atRaw = b['at_items'];
        const atItems: AtItem[] = [];
        if (atRaw !== undefined) {
          if (!Array.isArray(atRaw)) bad('at_items');
          else
            for (const a of atRaw as unknown[]) {
              const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
              const type = o['at_type'];
              const sp = o['start_position'];
              const ep = o['end_position'];
              if (
                (type !== 1 && type !== 2) ||
                !Number.isInteger(sp) ||
                !Number.isInteger(ep) ||
                (type === 1 && typeof o['at_contact'] !== 'string')
              ) {
                bad('at_items');
                break;
              }
              atItems.push({
                at_type: type,
                ...(type === 1 ? { at_contact: findContact(o['at_contact'] as string).email } : {}),
                start_position: sp as number,
                end_position: ep as number,
              });
            }
        }
        const richRaw = b['rich_text'];
        const rich: RichText[] = [];
        const FORMATS = [
          'Bold',
          'Italic',
          'Strikethrough',
          'BulletedList',
          'NumberedList',
          'Underline',
          'FontSize',
          'FontColor',
          'BackgroundColor',
          'LeftIndent',
          'Paragraph',
          'Quote',
          'AddLink',
        ];
        if (richRaw !== undefined) {
          if (!Array.isArray(richRaw)) bad('rich_text');
          else
            for (const r of richRaw as unknown[]) {
              const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
              if (
                !Number.isInteger(o['start_position']) ||
                !Number.isInteger(o['end_position']) ||
                !FORMATS.includes(o['format_type'] as string)
              ) {
                bad('rich_text');
                break;
              }
              rich.push({
                start_position: o['start_position'] as number,
                end_position: o['end_position'] as number,
                format_type: o['format_type'] as string,
                ...(typeof o['format_attr'] === 'string' ? { format_attr: o['format_attr'] } : {}),
              });
            }
        }
        const cardsRaw = b['interactive_cards'];
        if (
          cardsRaw !== undefined &&
          (!Array.isArray(cardsRaw) ||
            cardsRaw.some(
              (c) =>
                typeof c !== 'object' ||
                c === null ||
                typeof (c as Record<string, unknown>)['card_json'] !== 'string',
            ))
        )
          bad('interactive_cards');
        if (errors.length) throw zerr.validation(errors);

        const toChannel = str('to_channel');
        const toContact = str('to_contact');
        if (!toChannel && !toContact)
          throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');
        const channel = toChannel ? findChannel(toChannel) : undefined;
        const contact = channel ? undefined : findContact(toContact ?? '');
        if (channel && !channel.members.includes(ctx.demo.email))
          throw new ZoomError(400, 5301, 'Message sending failed.');
        if (Array.isArray(fileIds) && fileIds.length > 0)
          throw new ZoomError(400, 5301, 'Message sending failed.');

        let replyTo: MessageRec | undefined;
        const replyId = str('reply_main_message_id');
        if (replyId) {
          replyTo = slice().messages.find(
            (m) =>
              m.id === bare(replyId) && (channel ? m.channel === channel.id : m.contact === contact?.email),
          );
          if (!replyTo) throw new ZoomError(400, 5301, 'Message sending failed.');
          if (replyTo.reply_main_message_id)
            throw new ZoomError(400, 5402, 'This only supports replies to a main message.');
        }
        const cards: { card_id: string; card_json: string }[] = [];
        for (const c of (cardsRaw ?? []) as Record<string, unknown>[]) {
          try {
            JSON.parse(c['card_json'] as string);
          } catch {
            throw new ZoomError(400, 5405, 'Failed to create interactive card.');
          }
          cards.push({ card_id: ctx.newId('alnum', 22) as string, card_json: c['card_json'] as string });
        }

        let ts = now();
        const scheduled = str('scheduled_time');
        if (scheduled !== undefined) {
          const at = DATETIME_RE.test(scheduled) ? Date.parse(scheduled) : Number.NaN;
          if (Number.isNaN(at) || at <= ts + 30 * 60_000 || at >= ts + 180 * DAY)
            throw new ZoomError(
              400,
              300,
              'Invalid parameter: send_time. The time requirement is more than 30 minutes from now and within 180 days.',
            );
          ts = at;
        }

        const id = randomUUID().toUpperCase();
        const m: MessageRec = {
          id,
          ...(channel ? { channel: channel.id } : { contact: contact?.email ?? '' }),
          sender: ctx.demo.email,
          message: message ?? '',
          ts,
          message_type: 'plain_text_message',
          ...(replyTo ? { reply_main_message_id: replyTo.id } : {}),
          ...(atItems.length ? { at_items: atItems } : {}),
          ...(rich.length ? { rich_text: rich } : {}),
          ...(cards.length ? { interactive_cards: cards } : {}),
        };
        slice().messages.push(m);
        ctx.changed();
        if (scheduled === undefined) {
          const other = contact ? slice().contacts.find((c) => c.email === contact.email) : undefined;
          ctx.webhooks.emit(
            'chat_message.sent',
            {
              id,
              type: channel ? 'to_channel' : 'to_contact',
              date_time: zoomTime(new Date(ts)),
              timestamp: ts,
              session_id: channel ? channel.id : (contact?.memberId ?? ''),
              contact_email: contact?.email ?? '',
              contact_id: other ? userIdOf(other) : (contact?.userId ?? ''),
              channel_id: channel?.id ?? '',
              channel_name: channel?.name ?? '',
              message: m.message,
            },
            { operator: ctx.demo.email, operator_id: ctx.demo.id },
          );
        }
        return reply.code(201).send({ id });
      },
    });

    ctx.route({
      method: 'GET',
      url: '/chat/users/:userId/messages/:messageId',
      scopes: SCOPES.getMessage,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const sess = sessionOf(req, true);
        const id = p(req, 'messageId');
        const m = sess ? visible().find((x) => x.id === bare(id) && inSession(x, sess)) : undefined;
        if (!m) throw new ZoomError(400, 300, `Message does not exist: ${id}.`);
        return fullMessage(m);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/chat/users/:userId/channels',
      scopes: SCOPES.listChannels,
      label: 'MEDIUM',
      handler: (req) => {
        ctx.user(req, p(req, 'userId'));
        const items = slice().channels.filter((c) => c.members.includes(ctx.demo.email));
        const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 1000 });
        return {
          channels: page.items.map((c) => channelObject(c, false)),
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          total_records: page.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/chat/channels/:channelId',
      scopes: SCOPES.getChannel,
      label: 'MEDIUM',
      handler: (req) => channelObject(findChannel(p(req, 'channelId')), true),
    });

    ctx.route({
      method: 'GET',
      url: '/chat/users/me/contacts',
      scopes: SCOPES.contacts,
      label: 'MEDIUM',
      handler: (req) => {
        const type = q(req, 'type') ?? 'company';
        if (type !== 'company' && type !== 'external') throw zerr.badParam('type');
        const items = slice().contacts.filter((c) => c.kind === type);
        const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 50 });
        return {
          contacts: page.items.map((c) => ({
            id: userIdOf(c),
            member_id: c.member_id,
            email: c.email,
            first_name: c.first_name,
            last_name: c.last_name,
          })),
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/chat/users/me/contacts/:identifier',
      scopes: SCOPES.contact,
      label: 'MEDIUM',
      handler: (req) => {
        const ident = p(req, 'identifier');
        const c = slice().contacts.find(
          (x) =>
            x.email === ident.toLowerCase() ||
            x.member_id === ident ||
            (userIdOf(x) !== '' && userIdOf(x) === ident),
        );
        if (!c) throw new ZoomError(404, 1001, `User does not exist: ${ident}.`);
        return {
          id: userIdOf(c),
          member_id: c.member_id,
          email: c.email,
          first_name: c.first_name,
          last_name: c.last_name,
          phone_number: c.phone,
          phone_numbers: [
            { code: '+1', country: 'US', label: 'Office' as const, number: c.phone, verified: true },
          ],
          ...(c.kind === 'company'
            ? { direct_numbers: [c.direct_number], extension_number: c.extension }
            : {}),
          ...(truthy(q(req, 'query_presence_status')) ? { presence_status: c.presence } : {}),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/contacts',
      scopes: SCOPES.search,
      label: 'MEDIUM',
      handler: (req) => {
        const key = q(req, 'search_key');
        if (key === undefined || key.trim() === '')
          throw zerr.validation([{ field: 'search_key', message: 'Invalid field.' }]);
        const typesRaw = q(req, 'contact_types') ?? '1';
        const types = typesRaw.split(',').map((x) => Number(x.trim()));
        if (types.some((n) => !Number.isInteger(n) || n < 1 || n > 8)) throw zerr.badParam('contact_types');
        const status = q(req, 'user_status');
        if (status !== undefined && status !== 'active' && status !== 'inactive')
          throw zerr.badParam('user_status');
        const presence = truthy(q(req, 'query_presence_status'));
        const k = key.trim().toLowerCase();
        const users = ctx.slice<UsersSlice | undefined>('users');
        const d = demoPerson();
        const people = [
          {
            id: d.userId,
            member_id: d.memberId,
            email: d.email,
            first_name: ctx.demo.firstName,
            last_name: ctx.demo.lastName,
            dept: 'Operations',
            job_title: 'Head of Operations',
            location: 'Chicago, IL',
            phone: '3125550142',
            extension: '100',
            direct: '+13125550142',
            presence: 'Available' as Presence,
            group: 'Meridian Operating Group',
          },
          ...slice()
            .contacts.filter((c) => c.kind === 'company')
            .map((c) => {
              const u = users?.colleagues.find((x) => x.email.toLowerCase() === c.email);
              return {
                id: userIdOf(c),
                member_id: c.member_id,
                email: c.email,
                first_name: c.first_name,
                last_name: c.last_name,
                dept: u?.dept ?? c.dept,
                job_title: u?.job_title ?? c.job_title,
                location: c.location,
                phone: c.phone,
                extension: c.extension,
                direct: c.direct_number,
                presence: c.presence,
                group: c.company,
              };
            }),
        ];
        const groupId = (name: string) =>
          `8jUIm-${Buffer.from(name).toString('hex').slice(0, 32).padEnd(32, '0')}`;
        const matches = (...fields: string[]) => fields.some((f) => f.toLowerCase().includes(k));
        const items = [
          ...(types.includes(1) && status !== 'inactive'
            ? people
                .filter((x) => matches(x.first_name, x.last_name, `${x.first_name} ${x.last_name}`, x.email))
                .map((x) => ({
                  id: x.id,
                  member_id: x.member_id,
                  email: x.email,
                  first_name: x.first_name,
                  last_name: x.last_name,
                  display_name: `${x.first_name} ${x.last_name}`,
                  contact_type: 1,
                  dept: x.dept,
                  job_title: x.job_title,
                  location: x.location,
                  im_group_id: groupId(x.group),
                  im_group_name: x.group,
                  phone_number: x.phone,
                  phone_numbers: [
                    { code: '+1', country: 'US', label: 'Office', number: x.phone, verified: true },
                  ],
                  direct_numbers: [x.direct],
                  extension_number: x.extension,
                  user_status: 'active',
                  ...(presence ? { presence_status: x.presence } : {}),
                }))
            : []),
          ...(types.includes(8)
            ? slice()
                .rooms.filter((r) => matches(r.name))
                .map((r) => ({
                  member_id: r.member_id,
                  display_name: r.name,
                  contact_type: 8,
                  location: r.location,
                  ...(presence ? { presence_status: 'Available' } : {}),
                }))
            : []),
        ];
        const page = ctx.paginate(req, items, { defaultSize: 1, maxSize: 25 });
        return { contacts: page.items, next_page_token: page.nextPageToken, page_size: page.pageSize };
      },
    });
  },
});
