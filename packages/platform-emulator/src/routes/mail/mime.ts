/**
 * RFC 2822 / MIME for the mail emulator: building the stored messages and parsing what callers
 * send (base64url messages, headers, text parts).
 */
import type { MailMessage } from './records.js';

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

export const snippetOf = (m: MailMessage) => {
  const s = m.body.replace(/\s+/g, ' ').trim();
  return s.length > 200 ? `${s.slice(0, 197).trimEnd()}...` : s;
};

export type Format = 'full' | 'minimal' | 'metadata' | 'raw';

export function renderMessage(m: MailMessage, format: Format, metadataHeaders: string[]) {
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
