/**
 * The mail emulator's seed: 31 messages in 13 threads, two drafts; all before the anchor day, so
 * never in the future.
 */
import { randomBytes } from 'node:crypto';
import type { SeedContext } from '../../context.js';
import type { MailMessage, MailSlice } from './records.js';

interface SeedPerson {
  name: string;
  email: string;
}

const P: Record<string, SeedPerson> = {
  jordan: { name: 'Jordan Reyes', email: 'jordan.reyes@meridianfleet.example' },
  priya: { name: 'Priya Natarajan', email: 'priya.natarajan@meridianfleet.example' },
  marcus: { name: 'Marcus Bell', email: 'marcus.bell@meridianfleet.example' },
  elena: { name: 'Elena Sokolova', email: 'elena.sokolova@meridianfleet.example' },
  sam: { name: 'Sam Okafor', email: 'sam.okafor@meridianfleet.example' },
  tessa: { name: 'Tessa Morgan', email: 'tessa.morgan@meridianfleet.example' },
  luis: { name: 'Luis Herrera', email: 'luis.herrera@meridianfleet.example' },
  nina: { name: 'Nina Alvarez', email: 'nina.alvarez@meridianfleet.example' },
  kim: { name: 'Kim Tran', email: 'kim.tran@meridianfleet.example' },
  dana: { name: 'Dana Whitfield', email: 'dana.whitfield@lakeshorelogistics.example' },
  ray: { name: 'Ray Castillo', email: 'ray.castillo@northlinefuel.example' },
  kevin: { name: 'Kevin Park', email: 'kevin.park@brightlineinsurance.example' },
  promo: { name: 'Fuel Rewards Center', email: 'promo@fuelrewards-offers.example' },
};

interface SeedMsg {
  from: string;
  to: string[];
  cc?: string[];
  day: number;
  at: [number, number];
  body: string;
  labels?: string[];
  subject?: string;
}

interface SeedThread {
  subject: string;
  msgs: SeedMsg[];
  spam?: boolean;
}

const THREADS: SeedThread[] = [
  {
    subject: 'Q3 lane rates - Lakeshore Logistics',
    msgs: [
      {
        from: 'dana',
        to: ['me'],
        cc: ['marcus'],
        day: -6,
        at: [14, 12],
        body: "Hi Avery,\n\nAttached are our proposed Q3 rates for the Joliet-Gary and Joliet-Milwaukee lanes. We're holding Gary flat at $2.41/mile and asking for 3% on Milwaukee given fuel.\n\nHappy to walk through it on a call this week.\n\nBest,\nDana Whitfield\nLakeshore Logistics",
      },
      {
        from: 'me',
        to: ['dana'],
        cc: ['marcus'],
        day: -5,
        at: [15, 40],
        body: 'Thanks Dana.\n\nFlat on Gary works for us. On Milwaukee we can do 1.5% if you commit to the 12 loads/week dedicated-capacity pilot through December. Marcus will send our volume forecast today.\n\nAvery',
      },
      {
        from: 'dana',
        to: ['me'],
        cc: ['marcus'],
        day: -1,
        at: [21, 5],
        body: "Avery,\n\n1.5% with the pilot commitment works for us. I'll have the amended rate confirmation over by Friday. Lunch tomorrow is still on.\n\nDana",
        labels: ['UNREAD', 'IMPORTANT'],
      },
    ],
  },
  {
    subject: 'FleetWorks: PM schedule for units 214-231',
    msgs: [
      {
        from: 'priya',
        to: ['me'],
        day: -9,
        at: [13, 30],
        body: 'Avery,\n\nFleetWorks has bays 2 and 3 free next week. Proposal: units 214-222 Monday to Wednesday, 223-231 Thursday to Saturday, so dispatch keeps at least 80% of tractors on the road. Parts for the brake job on 223 are on order.\n\nPriya',
      },
      {
        from: 'me',
        to: ['priya'],
        cc: ['marcus'],
        day: -9,
        at: [16, 2],
        body: "Looks good. Please confirm with Marcus that the Thursday swaps don't hit the Lakeshore loads.\n\nAvery",
      },
    ],
  },
  {
    subject: 'Harbor Street duplexes - credit memo draft',
    msgs: [
      {
        from: 'sam',
        to: ['me'],
        day: -4,
        at: [15, 10],
        body: 'Avery,\n\nFirst draft of the credit memo for the Harbor Street duplexes is in the shared drive. DSCR is 1.31 at the proposed rate, LTV 68%. Grace at Harbor Bank wants the rent roll before committee.\n\nSam',
      },
      {
        from: 'me',
        to: ['sam'],
        day: -4,
        at: [17, 45],
        body: 'Nice work. Add the Meridian Housing management agreement as support for the rent assumptions, and send the rent roll to Grace today.\n\nAvery',
      },
      {
        from: 'sam',
        to: ['me'],
        day: -3,
        at: [14, 20],
        body: 'Done, the rent roll went to Grace. She also asked for 12 months of utility history; Tessa is pulling it. Committee is on the calendar for Thursday.\n\nSam',
        labels: ['UNREAD'],
      },
    ],
  },
  {
    subject: 'GrowthOS - September campaign results',
    msgs: [
      {
        from: 'jordan',
        to: ['me'],
        day: -11,
        at: [14, 0],
        body: "Avery,\n\nSeptember numbers: 1,840 leads (+22% month over month), cost per lead down to $38, and 61 booked demos for Meridian Freight and Meridian Mortgage combined. I'd like to move $15k from display to search for October.\n\nJordan",
        labels: ['IMPORTANT'],
      },
      {
        from: 'me',
        to: ['jordan'],
        day: -11,
        at: [18, 25],
        body: 'Great month. Approved on the $15k shift. Can you break out Mortgage vs Freight demos for the operating review?\n\nAvery',
      },
      {
        from: 'jordan',
        to: ['me'],
        day: -10,
        at: [13, 50],
        body: "Freight 37, Mortgage 24. I'll put the split in the pre-read.\n\nJordan",
        labels: ['UNREAD'],
      },
    ],
  },
  {
    subject: 'CDL cohort 14 - enrollment update',
    msgs: [
      {
        from: 'elena',
        to: ['me'],
        day: -8,
        at: [22, 15],
        body: 'Hi Avery,\n\nCohort 14 closed with 18 students (capacity 20). Two are Meridian Freight sponsored hires. Road-test slots are booked with the state for week 6, and the cohort 15 interest list is already at 26.\n\nElena',
      },
      {
        from: 'me',
        to: ['elena'],
        day: -7,
        at: [14, 5],
        body: "Fantastic. Let's talk about a second instructor for cohort 15 at next week's sync.\n\nAvery",
      },
    ],
  },
  {
    subject: 'Rate-lock extension request - loan ML-20417',
    msgs: [
      {
        from: 'kim',
        to: ['me'],
        cc: ['sam'],
        day: -3,
        at: [16, 40],
        body: 'Avery,\n\nThe borrower on ML-20417 needs a 15-day rate-lock extension because the appraisal came in late. The extension costs 0.125 points. Can we absorb it, given the delay was on our appraisal vendor?\n\nKim Tran\nMeridian Mortgage',
      },
      {
        from: 'me',
        to: ['kim'],
        cc: ['sam'],
        day: -3,
        at: [18, 0],
        body: 'Yes, absorb it this time, and flag the appraisal vendor for the quarterly review.\n\nAvery',
      },
    ],
  },
  {
    subject: 'Maple Court turnover report',
    msgs: [
      {
        from: 'tessa',
        to: ['me'],
        day: -2,
        at: [15, 25],
        body: 'Avery,\n\nMaple Court turnover: 4B and 7A are rent-ready; 11C needs new flooring (Contracting quoted $3,200 and 5 days). Occupancy is 96% and we have applications on both ready units.\n\nTessa\nMeridian Housing',
      },
      {
        from: 'me',
        to: ['tessa'],
        cc: ['luis'],
        day: -2,
        at: [17, 10],
        body: 'Approved for the 11C flooring. Luis, can your crew start Monday?\n\nAvery',
      },
    ],
  },
  {
    subject: 'Elm St. - change order #7',
    msgs: [
      {
        from: 'luis',
        to: ['me'],
        day: -5,
        at: [13, 15],
        body: "Avery,\n\nThe structural engineer wants an added load-bearing wall at the Elm St. site. Change order #7 is +$18,450 and +6 working days. The owner's rep has signed off; I need your approval to proceed.\n\nLuis Herrera\nMeridian Contracting",
      },
      {
        from: 'me',
        to: ['luis'],
        day: -5,
        at: [15, 0],
        body: "Approved. Please update the schedule and tell the owner's rep the new substantial completion date.\n\nAvery",
      },
      {
        from: 'luis',
        to: ['me'],
        day: -1,
        at: [14, 35],
        body: 'Thanks. New substantial completion is the 14th of next month; the crew starts on the wall Tuesday.\n\nLuis',
        labels: ['UNREAD'],
      },
    ],
  },
  {
    subject: 'Fall open house - Meridian Early Learning',
    msgs: [
      {
        from: 'nina',
        to: ['me'],
        cc: ['elena'],
        day: -7,
        at: [19, 20],
        body: 'Hi Avery,\n\nWe are planning the fall open house at the Oak Park center and expect 40-50 families. Could MOG cover $1,200 for signage and refreshments?\n\nNina Alvarez\nMeridian Early Learning',
      },
      {
        from: 'me',
        to: ['nina'],
        cc: ['elena'],
        day: -6,
        at: [13, 55],
        body: "Yes, approved. Please send the receipts to Sam's team against the MOG marketing budget.\n\nAvery",
      },
    ],
  },
  {
    subject: 'MOG weekly operating review - pre-read',
    msgs: [
      {
        from: 'me',
        to: ['jordan', 'priya', 'sam', 'marcus'],
        day: -3,
        at: [13, 0],
        body: "Team,\n\nThe pre-read for Monday's operating review is in the shared folder. Please add your company's numbers by Friday noon: revenue vs plan, cash, and your top three risks.\n\nAvery",
      },
      {
        from: 'priya',
        to: ['me'],
        day: -2,
        at: [20, 30],
        body: 'The operations section is in. FleetWorks uptime was 94.2% for the month.\n\nPriya',
      },
      {
        from: 'marcus',
        to: ['me'],
        day: -1,
        at: [23, 10],
        body: 'Freight numbers are in. We were 4 loads short on the Gary lane because of two breakdowns; both units are back on the road.\n\nMarcus',
        labels: ['UNREAD'],
      },
    ],
  },
  {
    subject: 'Invoice INV-88213 - Northline Fuel',
    msgs: [
      {
        from: 'ray',
        to: ['me'],
        day: -12,
        at: [15, 0],
        body: 'Hello Avery,\n\nPlease find invoice INV-88213 for September fuel card purchases: $48,912.37, due net 30. Let me know if you need the transaction detail by unit.\n\nRay Castillo\nNorthline Fuel',
      },
      {
        from: 'me',
        to: ['sam'],
        day: -12,
        at: [16, 30],
        subject: 'Fwd: Invoice INV-88213 - Northline Fuel',
        body: 'Sam, can you route this for payment? Please check the per-gallon price against the contract cap of $3.42.\n\nAvery',
      },
    ],
  },
  {
    subject: 'Fleet auto policy renewal',
    msgs: [
      {
        from: 'kevin',
        to: ['me'],
        day: -10,
        at: [16, 0],
        body: 'Avery,\n\nRenewal terms for the fleet auto policy: premium up 6.5%, or up 2.1% if you enroll all tractors in the telematics program. The quote is valid until the 30th.\n\nKevin Park\nBrightline Insurance',
      },
      {
        from: 'me',
        to: ['kevin'],
        cc: ['priya'],
        day: -9,
        at: [14, 40],
        body: "Thanks Kevin. We'll take the telematics option. Priya will send the unit list and our current telematics vendor contract.\n\nAvery",
      },
      {
        from: 'kevin',
        to: ['me'],
        day: -1,
        at: [18, 10],
        body: "Perfect. I'll bind once I receive the unit list. The policy must be bound before the 30th to hold the quote.\n\nKevin",
        labels: ['UNREAD', 'IMPORTANT', 'STARRED'],
      },
    ],
  },
  {
    subject: "You've been selected: free fuel card upgrade",
    spam: true,
    msgs: [
      {
        from: 'promo',
        to: ['me'],
        day: -4,
        at: [9, 3],
        body: 'Congratulations! Your fleet qualifies for a free premium fuel card upgrade. Click to claim your reward before it expires.',
      },
    ],
  },
];

const hex = (s: SeedContext, n: number) => s.rng.id(n, '0123456789abcdef');
const seedId = (s: SeedContext) =>
  `${hex(s, 8)}00000000_${hex(s, 16)}_${String(s.rng.int(1, 999)).padStart(3, '0')}`;
export const newMailId = () =>
  `${randomBytes(4).toString('hex')}00000000_${randomBytes(8).toString('hex')}_${String((randomBytes(2).readUInt16BE() % 999) + 1).padStart(3, '0')}`;

export function seedMail(s: SeedContext): MailSlice {
  const me = `${s.demo.firstName} ${s.demo.lastName} <${s.demo.email}>`;
  const who = (k: string) => (k === 'me' ? me : P[k] ? `${P[k].name} <${P[k].email}>` : k);
  let history = 1000;
  const messages: MailMessage[] = [];
  for (const t of THREADS) {
    let threadId = '';
    let prev: MailMessage | undefined;
    for (const [i, sm] of t.msgs.entries()) {
      const id = seedId(s);
      threadId ||= id;
      const mine = sm.from === 'me';
      const m: MailMessage = {
        id,
        threadId,
        labelIds: t.spam ? ['SPAM', 'UNREAD'] : mine ? ['SENT'] : ['INBOX', ...(sm.labels ?? [])],
        from: who(sm.from),
        to: sm.to.map(who),
        cc: (sm.cc ?? []).map(who),
        bcc: [],
        subject: sm.subject ?? (i === 0 ? t.subject : `Re: ${t.subject}`),
        body: sm.body,
        internalDate: Date.parse(s.at(sm.day, sm.at[0], sm.at[1])) + s.rng.int(0, 59) * 1000,
        messageId: `<${id}@mail.meridianfleet.example>`,
        inReplyTo: prev?.messageId,
        references: prev ? [...(prev.references ?? []), prev.messageId] : undefined,
        historyId: (history += s.rng.int(3, 40)),
      };
      messages.push(m);
      prev = m;
    }
  }
  // Two drafts: a reply in the cohort thread and a new message.
  const cohort = messages.find((m) => m.subject === 'CDL cohort 14 - enrollment update');
  const draftMsgs: MailMessage[] = [
    {
      id: seedId(s),
      threadId: cohort?.threadId ?? '',
      labelIds: ['DRAFT'],
      from: me,
      to: [who('elena')],
      cc: [],
      bcc: [],
      subject: 'Re: CDL cohort 14 - enrollment update',
      body: 'Elena,\n\nFollowing up on the second instructor: can you send me a cost estimate for a part-time instructor for cohort 15, and whether Meridian Freight could co-fund it?\n\nAvery',
      internalDate: Date.parse(s.at(-1, 22, 40)),
      messageId: `<draft-${hex(s, 12)}@mail.meridianfleet.example>`,
      inReplyTo: cohort?.messageId,
      references: cohort ? [cohort.messageId] : undefined,
      historyId: (history += 7),
    },
    {
      id: seedId(s),
      threadId: '',
      labelIds: ['DRAFT'],
      from: me,
      to: [who('priya'), who('sam')],
      cc: [],
      bcc: [],
      subject: 'Q4 budget calendar',
      body: 'Priya, Sam,\n\nProposed Q4 budget calendar: company drafts due on the 10th, MOG review on the 17th, final numbers to the board on the 24th. Let me know if the dates work before I send this to the company leads.\n\nAvery',
      internalDate: Date.parse(s.at(-1, 23, 40)),
      messageId: `<draft-${hex(s, 12)}@mail.meridianfleet.example>`,
      historyId: (history += 5),
    },
  ];
  for (const d of draftMsgs) {
    d.threadId ||= d.id;
    messages.push(d);
  }
  return {
    createTime: Math.floor(Date.parse(s.at(-400, 15, 0)) / 1000),
    historyId: history,
    messages,
    drafts: draftMsgs.map((m) => ({ id: `r${seedId(s)}`, messageId: m.id })),
  };
}
