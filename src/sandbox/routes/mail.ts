/**
 * Mail (the platform's Gmail-like API, camelCase): the demo user's mailbox (`me` or its address)
 * with profile, messages (list / get in full|minimal|metadata|raw / send), drafts (create, list,
 * get, update, delete, send) and threads. Sent and drafted mail is given as base64url RFC 2822
 * and parsed for its headers and text. Errors carry the HTTP status as `code`, as the platform's
 * mail API does (400 "Invalid Request.", 404 "Not Found.").
 */
import { randomBytes } from 'node:crypto';
import { body, defineModule, p, q, ZoomError } from '../context.js';
import type { SandboxRequest, SeedContext } from '../context.js';

export interface MailMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  /** "Name <address>" or a bare address. */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** The text/plain body. */
  body: string;
  /** Epoch milliseconds. */
  internalDate: number;
  /** The RFC 2822 Message-ID, with its angle brackets. */
  messageId: string;
  inReplyTo?: string | undefined;
  references?: string[] | undefined;
  historyId: number;
  /** Epoch milliseconds, for a scheduled message. */
  sendTime?: number | undefined;
}

export interface MailDraft {
  id: string;
  messageId: string;
}

export interface MailSlice {
  /** Mailbox creation, epoch seconds. */
  createTime: number;
  historyId: number;
  messages: MailMessage[];
  drafts: MailDraft[];
}

const READ = ['mail:read', 'mail:read:admin'];
const WRITE = ['mail:write', 'mail:write:admin'];
const MAIL_SCOPES = {
  profile: ['email:read:profile', 'email:read:profile:admin', ...READ],
  listMessages: ['email:read:list_msgs', 'email:read:list_msgs:admin', ...READ],
  getMessage: ['email:read:msg', 'email:read:msg:admin', ...READ],
  send: ['email:write:send_msg', 'email:write:send_msg:admin', ...WRITE],
  createDraft: ['email:write:draft', 'email:write:draft:admin', ...WRITE],
  listDrafts: ['email:read:list_drafts', 'email:read:list_drafts:admin', ...READ],
  getDraft: ['email:read:draft', 'email:read:draft:admin', ...READ],
  updateDraft: ['email:update:draft', 'email:update:draft:admin', ...WRITE],
  deleteDraft: ['email:delete:draft', 'email:delete:draft:admin', ...WRITE],
  sendDraft: ['email:write:send_draft', 'email:write:send_draft:admin', ...WRITE],
  listThreads: ['email:read:list_threads', 'email:read:list_threads:admin', ...READ],
  getThread: ['email:read:thread', 'email:read:thread:admin', ...READ],
};

/** Mail errors: the code is the HTTP status, with the platform's messages. */
export const mailErr = {
  bad: () => new ZoomError(400, 400, 'Invalid Request.'),
  notFound: () => new ZoomError(404, 404, 'Not Found.'),
};

// ---------------------------------------------------------------------------------------------
// RFC 2822 / MIME: building the stored messages and parsing what callers send.

const EMAIL_RE =
  /^[^@\s"(),:;<>[\]\\]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

export function rfc2822Date(ms: number): string {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/** Splits an address list on commas outside quotes and angle brackets. */
function splitAddresses(v: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let angle = false;
  for (const ch of v) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '<' && !quoted) angle = true;
    else if (ch === '>' && !quoted) angle = false;
    if ((ch === ',' || ch === ';') && !quoted && !angle) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** The bare address of "Name <address>" or "address". */
export const addressOf = (v: string) => (/<([^>]*)>/.exec(v)?.[1] ?? v).trim().replace(/^"|"$/g, '');

/** Decodes RFC 2047 encoded words (=?UTF-8?B?...?= and =?UTF-8?Q?...?=). */
function decodeWords(v: string): string {
  return v.replace(
    /=\?([^?]+)\?([bBqQ])\?([^?]*)\?=(\s+(?==\?))?/g,
    (_all, _charset: string, enc: string, text: string) => {
      if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
      const bytes = text
        .replace(/_/g, ' ')
        .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    },
  );
}

function decodeQuotedPrintable(v: string): string {
  const bytes = v
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

interface Header {
  name: string;
  value: string;
}

interface Mime {
  headers: Header[];
  body: string;
}

function parseMime(text: string): Mime {
  const split = /\r?\n\r?\n/.exec(text);
  const head = split ? text.slice(0, split.index) : text;
  const rest = split ? text.slice(split.index + split[0].length) : '';
  const headers: Header[] = [];
  for (const line of head.split(/\r?\n/)) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) last.value += ` ${line.trim()}`;
    else {
      const m = /^([!-9;-~]+):\s*(.*)$/.exec(line);
      if (m?.[1]) headers.push({ name: m[1], value: m[2] ?? '' });
    }
  }
  return { headers, body: rest };
}

const headerOf = (h: Header[], name: string) =>
  h.find((x) => x.name.toLowerCase() === name.toLowerCase())?.value;

/** The text of a MIME entity: its first text/plain part, else its text/html without tags. */
function textOf(m: Mime): string | undefined {
  const type = (headerOf(m.headers, 'Content-Type') ?? 'text/plain').toLowerCase();
  const enc = (headerOf(m.headers, 'Content-Transfer-Encoding') ?? '').toLowerCase();
  if (type.startsWith('multipart/')) {
    const boundary = /boundary="?([^";]+)"?/i.exec(headerOf(m.headers, 'Content-Type') ?? '')?.[1];
    if (!boundary) return m.body;
    const parts = m.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((x) => !x.startsWith('--'))
      .map((x) => parseMime(x.replace(/^\r?\n/, '')));
    const plain = parts.find((x) =>
      (headerOf(x.headers, 'Content-Type') ?? 'text/plain').toLowerCase().startsWith('text/plain'),
    );
    if (plain) return textOf(plain);
    for (const part of parts) {
      const t = textOf(part);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  let content = m.body;
  if (enc === 'base64') content = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  else if (enc === 'quoted-printable') content = decodeQuotedPrintable(content);
  if (type.startsWith('text/html')) {
    return content
      .replace(/<br\s*\/?>|<\/p>|<\/div>/gi, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  }
  if (type.startsWith('text/')) return content;
  return undefined;
}

const BASE64_RE = /^[A-Za-z0-9+/_-]*={0,2}$/;

export interface ParsedRaw {
  from?: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  body: string;
  messageId?: string;
  inReplyTo?: string;
  references: string[];
}

/** Decodes and parses base64url RFC 2822; undefined when it is not a message. */
export function parseRaw(raw: unknown): ParsedRaw | undefined {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const compact = raw.replace(/\s+/g, '');
  if (!BASE64_RE.test(compact)) return undefined;
  const text = Buffer.from(compact, 'base64url').toString('utf8');
  const mime = parseMime(text);
  if (!mime.headers.length) return undefined;
  const list = (name: string) =>
    mime.headers
      .filter((h) => h.name.toLowerCase() === name)
      .flatMap((h) => splitAddresses(decodeWords(h.value)));
  const bad = [...list('to'), ...list('cc'), ...list('bcc')].some((a) => !EMAIL_RE.test(addressOf(a)));
  if (bad) return undefined;
  const from = headerOf(mime.headers, 'From');
  const messageId = headerOf(mime.headers, 'Message-ID');
  const inReplyTo = headerOf(mime.headers, 'In-Reply-To');
  return {
    ...(from ? { from: decodeWords(from) } : {}),
    to: list('to'),
    cc: list('cc'),
    bcc: list('bcc'),
    subject: decodeWords(headerOf(mime.headers, 'Subject') ?? ''),
    body: (textOf(mime) ?? '').replace(/\r\n/g, '\n').replace(/\n+$/, ''),
    ...(messageId ? { messageId: messageId.trim() } : {}),
    ...(inReplyTo ? { inReplyTo: inReplyTo.trim() } : {}),
    references: (headerOf(mime.headers, 'References') ?? '').split(/\s+/).filter(Boolean),
  };
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const htmlOf = (text: string) =>
  `<div dir="ltr">${text
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
    .join('')}</div>`;
const boundaryOf = (m: MailMessage) => `000000000000${m.id.replace(/[^0-9a-f]/g, '').slice(0, 16)}`;

function topHeaders(m: MailMessage): Header[] {
  const h: Header[] = [];
  if (m.from) h.push({ name: 'From', value: m.from });
  if (m.to.length) h.push({ name: 'To', value: m.to.join(', ') });
  if (m.cc.length) h.push({ name: 'Cc', value: m.cc.join(', ') });
  if (m.bcc.length) h.push({ name: 'Bcc', value: m.bcc.join(', ') });
  h.push({ name: 'Subject', value: m.subject });
  h.push({ name: 'Date', value: rfc2822Date(m.internalDate) });
  h.push({ name: 'Message-ID', value: m.messageId });
  if (m.inReplyTo) h.push({ name: 'In-Reply-To', value: m.inReplyTo });
  if (m.references?.length) h.push({ name: 'References', value: m.references.join(' ') });
  h.push({ name: 'MIME-Version', value: '1.0' });
  h.push({ name: 'Content-Type', value: `multipart/alternative; boundary="${boundaryOf(m)}"` });
  return h;
}

const PLAIN_HEADERS: Header[] = [
  { name: 'Content-Type', value: 'text/plain; charset="UTF-8"' },
  { name: 'Content-Transfer-Encoding', value: '8bit' },
];
const HTML_HEADERS: Header[] = [
  { name: 'Content-Type', value: 'text/html; charset="UTF-8"' },
  { name: 'Content-Transfer-Encoding', value: '8bit' },
];

export function rawOf(m: MailMessage): string {
  const b = boundaryOf(m);
  const line = (x: Header) => `${x.name}: ${x.value}`;
  return [
    ...topHeaders(m).map(line),
    '',
    `--${b}`,
    ...PLAIN_HEADERS.map(line),
    '',
    m.body,
    `--${b}`,
    ...HTML_HEADERS.map(line),
    '',
    htmlOf(m.body),
    `--${b}--`,
    '',
  ].join('\r\n');
}

const snippetOf = (m: MailMessage) => {
  const s = m.body.replace(/\s+/g, ' ').trim();
  return s.length > 200 ? `${s.slice(0, 197).trimEnd()}...` : s;
};

type Format = 'full' | 'minimal' | 'metadata' | 'raw';

function renderMessage(m: MailMessage, format: Format, metadataHeaders: string[]) {
  const raw = rawOf(m);
  const base = {
    id: m.id,
    threadId: m.threadId,
    labelIds: m.labelIds,
    snippet: snippetOf(m),
    historyId: String(m.historyId),
    internalDate: String(m.internalDate),
    ...(m.sendTime !== undefined ? { sendTime: String(m.sendTime), userScheduled: true } : {}),
    sizeEstimate: Buffer.byteLength(raw),
  };
  if (format === 'minimal') return base;
  if (format === 'raw') return { ...base, raw: Buffer.from(raw).toString('base64url') };
  const headers = topHeaders(m);
  if (format === 'metadata') {
    const wanted = metadataHeaders.map((x) => x.toLowerCase());
    return {
      ...base,
      payload: {
        partId: '',
        mimeType: 'multipart/alternative',
        filename: '',
        headers: wanted.length ? headers.filter((h) => wanted.includes(h.name.toLowerCase())) : headers,
        body: { size: 0 },
      },
    };
  }
  const part = (partId: string, mimeType: string, h: Header[], text: string) => ({
    partId,
    mimeType,
    filename: '',
    headers: h,
    body: { size: Buffer.byteLength(text), data: Buffer.from(text).toString('base64url') },
  });
  return {
    ...base,
    payload: {
      partId: '',
      mimeType: 'multipart/alternative',
      filename: '',
      headers,
      body: { size: 0 },
      parts: [
        part('0', 'text/plain', PLAIN_HEADERS, `${m.body}\r\n`),
        part('1', 'text/html', HTML_HEADERS, `${htmlOf(m.body)}\r\n`),
      ],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Search: q is a small subset of the search syntax (from:, to:, subject:, is:, in:, label:) plus
// free words matched as substrings of the subject, sender and snippet.

function tokens(qs: string): string[] {
  const out: string[] = [];
  const re = /(\S+?:)?"([^"]*)"|\S+/g;
  for (let m = re.exec(qs); m; m = re.exec(qs)) out.push(m[2] !== undefined ? `${m[1] ?? ''}${m[2]}` : m[0]);
  return out;
}

function matches(m: MailMessage, qs: string | undefined): boolean {
  if (!qs) return true;
  const has = (label: string) => m.labelIds.includes(label);
  const hay = (v: string, needle: string) => v.toLowerCase().includes(needle.toLowerCase());
  return tokens(qs).every((tok) => {
    const neg = tok.startsWith('-') && tok.length > 1;
    const t = neg ? tok.slice(1) : tok;
    const [k, ...rest] = t.split(':');
    const v = rest.join(':');
    let ok: boolean;
    switch (rest.length ? (k ?? '').toLowerCase() : '') {
      case 'from':
        ok = hay(m.from, v);
        break;
      case 'to':
        ok = [...m.to, ...m.cc, ...m.bcc].some((a) => hay(a, v));
        break;
      case 'subject':
        ok = hay(m.subject, v);
        break;
      case 'is':
        ok =
          {
            unread: has('UNREAD'),
            read: !has('UNREAD'),
            starred: has('STARRED'),
            important: has('IMPORTANT'),
          }[v.toLowerCase()] ?? false;
        break;
      case 'in':
      case 'label':
        ok =
          v.toLowerCase() === 'anywhere' ||
          m.labelIds.some(
            (l) => l.toLowerCase() === (v.toLowerCase() === 'drafts' ? 'draft' : v.toLowerCase()),
          );
        break;
      default:
        ok = hay(m.subject, t) || hay(m.from, t) || hay(snippetOf(m), t);
    }
    return neg ? !ok : ok;
  });
}

// ---------------------------------------------------------------------------------------------
// Seed: 31 messages in 13 threads, two drafts; all before the anchor day, so never in the future.

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
const newMailId = () =>
  `${randomBytes(4).toString('hex')}00000000_${randomBytes(8).toString('hex')}_${String((randomBytes(2).readUInt16BE() % 999) + 1).padStart(3, '0')}`;

function seedMail(s: SeedContext): MailSlice {
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

// ---------------------------------------------------------------------------------------------

const FORMATS: Format[] = ['full', 'minimal', 'metadata', 'raw'];

/** A query parameter that may be repeated or comma-separated. */
function listParam(req: SandboxRequest, name: string): string[] {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all
    .filter((x): x is string => typeof x === 'string')
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
}

export const mailModule = defineModule<MailSlice>({
  name: 'mail',
  seed: seedMail,
  register(ctx) {
    const slice = () => ctx.slice<MailSlice>('mail');
    const demoFrom = () => `${ctx.demo.firstName} ${ctx.demo.lastName} <${ctx.demo.email}>`;

    /** `me` or the demo mailbox's address; any other mailbox is not found. */
    const mailbox = (req: SandboxRequest) => {
      try {
        ctx.user(req, p(req, 'email'));
      } catch {
        throw mailErr.notFound();
      }
      settle();
    };
    /** Scheduled messages whose time has come become sent. */
    const settle = () => {
      const now = ctx.now().getTime();
      let changed = false;
      for (const m of slice().messages) {
        if (m.sendTime !== undefined && m.sendTime <= now && m.labelIds.includes('SCHEDULED')) {
          m.labelIds = m.labelIds.map((l) => (l === 'SCHEDULED' ? 'SENT' : l));
          m.internalDate = m.sendTime;
          changed = true;
        }
      }
      if (changed) ctx.changed();
    };
    const nextHistory = () => (slice().historyId += 1);
    const format = (req: SandboxRequest, allowed: Format[] = FORMATS): Format => {
      const f = q(req, 'format') ?? 'full';
      if (!allowed.includes(f as Format)) throw mailErr.bad();
      return f as Format;
    };
    const checkSize = (req: SandboxRequest) => {
      const v = q(req, 'maxResults');
      if (v !== undefined && v !== '' && !/^\d+$/.test(v)) throw mailErr.bad();
      if (v === '0') throw mailErr.bad();
    };
    const boolParam = (req: SandboxRequest, name: string) => {
      const v = q(req, name);
      if (v === undefined || v === '') return false;
      if (v !== 'true' && v !== 'false') throw mailErr.bad();
      return v === 'true';
    };
    const page = <T>(req: SandboxRequest, items: T[]) => {
      checkSize(req);
      return ctx.paginate(req, items, {
        defaultSize: 50,
        maxSize: 500,
        tokenParam: 'pageToken',
        sizeParam: 'maxResults',
      });
    };
    const findMessage = (id: string) => {
      const m = slice().messages.find((x) => x.id === id);
      if (!m) throw mailErr.notFound();
      return m;
    };
    /** Messages a list call sees: labelIds (all must match), q, and SPAM/TRASH only when asked. */
    const visible = (req: SandboxRequest) => {
      const labels = listParam(req, 'labelIds').map((l) => l.toUpperCase());
      const qs = q(req, 'q');
      const spamTrash =
        boolParam(req, 'includeSpamTrash') ||
        labels.some((l) => l === 'SPAM' || l === 'TRASH') ||
        /\bin:(spam|trash|anywhere)\b/i.test(qs ?? '');
      return slice()
        .messages.filter((m) => spamTrash || !m.labelIds.some((l) => l === 'SPAM' || l === 'TRASH'))
        .filter((m) => labels.every((l) => m.labelIds.some((x) => x.toUpperCase() === l)))
        .filter((m) => matches(m, qs))
        .sort((a, b) => b.internalDate - a.internalDate || b.id.localeCompare(a.id));
    };
    const threadOf = (
      m: Pick<MailMessage, 'inReplyTo' | 'references'>,
      explicit?: unknown,
    ): string | undefined => {
      const all = slice().messages;
      if (typeof explicit === 'string' && explicit) {
        if (!all.some((x) => x.threadId === explicit)) throw mailErr.notFound();
        return explicit;
      }
      const refs = [m.inReplyTo, ...(m.references ?? [])].filter((x): x is string => !!x);
      return all.find((x) => refs.includes(x.messageId))?.threadId;
    };
    /** A message record from parsed RFC 2822 (drafts may have no recipients). */
    const fromParsed = (
      raw: ParsedRaw,
      labelIds: string[],
      existing?: MailMessage,
      threadHint?: unknown,
    ): MailMessage => {
      const id = existing?.id ?? newMailId();
      const from =
        raw.from && addressOf(raw.from).toLowerCase() === ctx.demo.email.toLowerCase()
          ? raw.from
          : demoFrom();
      const base = {
        inReplyTo: raw.inReplyTo,
        references: raw.references.length ? raw.references : raw.inReplyTo ? [raw.inReplyTo] : undefined,
      };
      return {
        id,
        threadId: existing?.threadId ?? threadOf(base, threadHint) ?? id,
        labelIds,
        from,
        to: raw.to,
        cc: raw.cc,
        bcc: raw.bcc,
        subject: raw.subject,
        body: raw.body,
        internalDate: ctx.now().getTime(),
        messageId: raw.messageId ?? `<${id}@mail.meridianfleet.example>`,
        inReplyTo: base.inReplyTo,
        references: base.references,
        historyId: nextHistory(),
      };
    };
    const emptyRaw = (): ParsedRaw => ({ to: [], cc: [], bcc: [], subject: '', body: '', references: [] });
    const ids = (m: MailMessage) => ({ id: m.id, threadId: m.threadId, labelIds: m.labelIds });
    const userLabels = (v: unknown): string[] => {
      if (v === undefined) return [];
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw mailErr.bad();
      return v.filter(
        (l) => !['SENT', 'DRAFT', 'INBOX', 'SPAM', 'TRASH', 'SCHEDULED'].includes(l.toUpperCase()),
      );
    };
    const findDraft = (id: string) => {
      const d = slice().drafts.find((x) => x.id === id);
      const m = d && slice().messages.find((x) => x.id === d.messageId);
      if (!d || !m) throw mailErr.notFound();
      return { d, m };
    };
    /** The `message` of a draft body: undefined when absent, 400 when malformed. */
    const draftMessage = (b: Record<string, unknown>, required: boolean): ParsedRaw | undefined => {
      const msg = b['message'];
      if (msg === undefined || msg === null) {
        if (required) throw mailErr.bad();
        return undefined;
      }
      if (typeof msg !== 'object' || Array.isArray(msg)) throw mailErr.bad();
      const raw = (msg as Record<string, unknown>)['raw'];
      if (raw === undefined) {
        if (required) throw mailErr.bad();
        return emptyRaw();
      }
      const parsed = parseRaw(raw);
      if (!parsed) throw mailErr.bad();
      return parsed;
    };

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/profile',
      scopes: MAIL_SCOPES.profile,
      label: 'LIGHT',
      handler: (req) => {
        mailbox(req);
        const s = slice();
        return {
          emailAddress: ctx.demo.email,
          groupEmails: ['operations@meridianfleet.example', 'leadership@meridianfleet.example'],
          aliases: [
            { description: 'Meridian Operating Group front desk', aliasEmail: 'mog@meridianfleet.example' },
          ],
          createTime: s.createTime,
          status: 'active',
          mboxSize: s.messages.reduce((n, m) => n + Buffer.byteLength(rawOf(m)), 0),
          messagesTotal: s.messages.length,
          threadsTotal: new Set(s.messages.map((m) => m.threadId)).size,
          encryptionEnabled: false,
          labelEncryptionEnabled: false,
          historyId: String(s.historyId),
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/messages',
      scopes: MAIL_SCOPES.listMessages,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const pg = page(req, visible(req));
        return {
          messages: pg.items.map((m) => ({ id: m.id, threadId: m.threadId })),
          ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
          resultSizeEstimate: pg.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/messages/:messageId',
      scopes: MAIL_SCOPES.getMessage,
      label: 'LIGHT',
      handler: (req) => {
        mailbox(req);
        const f = format(req);
        return renderMessage(findMessage(p(req, 'messageId')), f, listParam(req, 'metadataHeaders'));
      },
    });

    ctx.route({
      method: 'POST',
      url: '/emails/mailboxes/:email/messages/send',
      scopes: MAIL_SCOPES.send,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const b = body(req);
        const parsed = parseRaw(b['raw']);
        if (!parsed || parsed.to.length + parsed.cc.length + parsed.bcc.length === 0) throw mailErr.bad();
        const extra = userLabels(b['labelIds']);
        let sendTime: number | undefined;
        if (b['sendTime'] !== undefined) {
          const v = b['sendTime'];
          const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
          if (!Number.isInteger(n) || n <= 0) throw mailErr.bad();
          if (n * 1000 > ctx.now().getTime()) sendTime = n * 1000;
        }
        const m = fromParsed(
          parsed,
          [sendTime !== undefined ? 'SCHEDULED' : 'SENT', ...extra],
          undefined,
          b['threadId'],
        );
        if (sendTime !== undefined) m.sendTime = sendTime;
        slice().messages.push(m);
        ctx.changed();
        return ids(m);
      },
    });

    ctx.route({
      method: 'POST',
      url: '/emails/mailboxes/:email/drafts',
      scopes: MAIL_SCOPES.createDraft,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const parsed = draftMessage(body(req), false) ?? emptyRaw();
        const m = fromParsed(parsed, ['DRAFT']);
        const d: MailDraft = { id: `r${newMailId()}`, messageId: m.id };
        slice().messages.push(m);
        slice().drafts.push(d);
        ctx.changed();
        return { id: d.id, message: ids(m) };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/drafts',
      scopes: MAIL_SCOPES.listDrafts,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        boolParam(req, 'includeSpamTrash');
        const qs = q(req, 'q');
        const byId = new Map(slice().messages.map((m) => [m.id, m]));
        const items = slice()
          .drafts.map((d) => ({ d, m: byId.get(d.messageId) }))
          .filter((x): x is { d: MailDraft; m: MailMessage } => !!x.m && matches(x.m, qs))
          .sort((a, b) => b.m.internalDate - a.m.internalDate);
        const pg = page(req, items);
        return {
          drafts: pg.items.map(({ d, m }) => ({ id: d.id, message: { id: m.id, threadId: m.threadId } })),
          ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
          resultSizeEstimate: pg.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/drafts/:draftId',
      scopes: MAIL_SCOPES.getDraft,
      label: 'LIGHT',
      handler: (req) => {
        mailbox(req);
        const f = format(req);
        const { d, m } = findDraft(p(req, 'draftId'));
        return { id: d.id, message: renderMessage(m, f, []) };
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/emails/mailboxes/:email/drafts/:draftId',
      scopes: MAIL_SCOPES.updateDraft,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const { d, m } = findDraft(p(req, 'draftId'));
        const parsed = draftMessage(body(req), true) ?? emptyRaw();
        const next = fromParsed(parsed, m.labelIds, m);
        Object.assign(m, next);
        ctx.changed();
        return { id: d.id, message: ids(m) };
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/emails/mailboxes/:email/drafts/:draftId',
      scopes: MAIL_SCOPES.deleteDraft,
      label: 'LIGHT',
      handler: (req, reply) => {
        mailbox(req);
        const { d, m } = findDraft(p(req, 'draftId'));
        const s = slice();
        s.drafts = s.drafts.filter((x) => x !== d);
        s.messages = s.messages.filter((x) => x !== m);
        nextHistory();
        ctx.changed();
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'POST',
      url: '/emails/mailboxes/:email/drafts/send',
      scopes: MAIL_SCOPES.sendDraft,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const b = body(req);
        if (typeof b['id'] !== 'string' || b['id'] === '') throw mailErr.bad();
        const { d, m } = findDraft(b['id']);
        const parsed = draftMessage(b, false);
        const content = parsed ? fromParsed(parsed, m.labelIds, m) : m;
        if (content.to.length + content.cc.length + content.bcc.length === 0) throw mailErr.bad();
        Object.assign(m, content, {
          labelIds: ['SENT', ...m.labelIds.filter((l) => l !== 'DRAFT' && l !== 'SENT')],
          internalDate: ctx.now().getTime(),
          historyId: nextHistory(),
        });
        const s = slice();
        s.drafts = s.drafts.filter((x) => x !== d);
        ctx.changed();
        return ids(m);
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/threads',
      scopes: MAIL_SCOPES.listThreads,
      label: 'MEDIUM',
      handler: (req) => {
        mailbox(req);
        const hit = new Set(visible(req).map((m) => m.threadId));
        const byThread = new Map<string, MailMessage[]>();
        for (const m of slice().messages)
          if (hit.has(m.threadId)) byThread.set(m.threadId, [...(byThread.get(m.threadId) ?? []), m]);
        const threads = [...byThread.entries()]
          .map(([id, msgs]) => {
            const sorted = [...msgs].sort((a, b) => a.internalDate - b.internalDate);
            const first = sorted[0] as MailMessage;
            const last = sorted[sorted.length - 1] as MailMessage;
            return {
              at: last.internalDate,
              thread: {
                id,
                snippet: snippetOf(last),
                historyId: String(Math.max(...msgs.map((m) => m.historyId))),
                threadName: first.subject,
                status: 'normal',
              },
            };
          })
          .sort((a, b) => b.at - a.at || b.thread.id.localeCompare(a.thread.id));
        const pg = page(req, threads);
        return {
          threads: pg.items.map((x) => x.thread),
          ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
          resultSizeEstimate: pg.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/emails/mailboxes/:email/threads/:threadId',
      scopes: MAIL_SCOPES.getThread,
      label: 'LIGHT',
      handler: (req) => {
        mailbox(req);
        const f = format(req, ['full', 'metadata', 'minimal']);
        const msgs = slice()
          .messages.filter((m) => m.threadId === p(req, 'threadId'))
          .sort((a, b) => a.internalDate - b.internalDate);
        const first = msgs[0];
        if (!first) throw mailErr.notFound();
        const pg = page(req, msgs);
        return {
          id: first.threadId,
          historyId: String(Math.max(...msgs.map((m) => m.historyId))),
          threadName: first.subject,
          status: 'normal',
          messages: pg.items.map((m) => renderMessage(m, f, listParam(req, 'metadataHeaders'))),
          ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
        };
      },
    });
  },
});
