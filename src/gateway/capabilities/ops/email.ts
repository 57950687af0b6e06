/**
 * email: the linked user's mailbox over the platform's Mail API (Gmail-like, camelCase,
 * `maxResults`/`pageToken`): the profile, message summaries, sending plain-text mail, drafts and
 * threads. The mailbox is `me` for a user link, the linked user's address in server-to-server
 * mode. The platform lists only ids, so list_messages and drafts read each listed message's
 * headers (format=metadata) for their page, which is why their pages are small.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import { defineOp, pageOf, pageSchema, paging, seg, type OpContext } from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformHeader {
  name?: string;
  value?: string;
}

interface PlatformMessage {
  id?: string;
  threadId?: string;
  labelIds?: string[];
  snippet?: string;
  internalDate?: string;
  payload?: { headers?: PlatformHeader[] };
}

interface PlatformProfile {
  emailAddress?: string;
  groupEmails?: string[];
  aliases?: { description?: string; aliasEmail?: string }[];
  createTime?: number;
  status?: string;
  mboxSize?: number;
  messagesTotal?: number;
  threadsTotal?: number;
}

interface PlatformThread {
  id?: string;
  snippet?: string;
  threadName?: string;
}

/** `me`, or in server-to-server mode (no `me`) the linked user's address. */
async function mailbox(ctx: OpContext): Promise<string> {
  if (ctx.uid === 'me') return 'me';
  const link = await ctx.store.getLink();
  return link?.email || ctx.uid;
}

const base = async (ctx: OpContext) => `/emails/mailboxes/${seg(await mailbox(ctx))}`;

/** Splits an address header on commas outside quotes and angle brackets. */
function addresses(v: string | undefined): string[] {
  if (!v) return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let angle = false;
  for (const ch of v) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '<' && !quoted) angle = true;
    else if (ch === '>' && !quoted) angle = false;
    if (ch === ',' && !quoted && !angle) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** From here toISOString writes a 6-digit year (`+010000-…`), which z.iso.datetime refuses. */
const YEAR_10000 = Date.UTC(10_000, 0, 1);
/** Epoch ms as an ISO instant; null for none, a non-number, or one outside years 1970 to 9999. */
const isoOf = (ms: unknown) => {
  const n = Number(ms);
  return n > 0 && n < YEAR_10000 ? new Date(n).toISOString() : null;
};

const messageSummary = z.object({
  id: z.string(),
  thread_id: z.string(),
  from: z.string().nullable().describe('the From header as written, like "Dana <dana@example.com>"'),
  to: z.array(z.string()).describe('the To header split into its addresses, each as written'),
  subject: z.string(),
  snippet: z.string().describe('the start of the body as plain text'),
  date: z.iso
    .datetime()
    .nullable()
    .describe('when the mailbox received it; null when the platform gives none'),
  labels: z.array(z.string()).describe('label ids, like INBOX, UNREAD, SENT, IMPORTANT'),
  unread: z.boolean().describe('whether it carries the UNREAD label'),
});
type MessageSummary = z.output<typeof messageSummary>;

const draftSummary = z.object({
  id: z.string().describe('the draft id'),
  message_id: z.string().describe("the id of the draft's message"),
  ...messageSummary.pick({ thread_id: true, to: true, subject: true, snippet: true, date: true }).shape,
});

const threadSummary = z.object({
  id: z.string(),
  subject: z.string().nullable().describe("the thread's name; null when the platform gives none"),
  snippet: z.string().describe('the start of the latest message as plain text'),
});

const profileView = z.object({
  email: z.string().nullable().describe("the mailbox's address"),
  group_emails: z.array(z.string()).describe('addresses of groups whose mail this mailbox receives'),
  aliases: z.array(z.object({ email: z.string(), description: z.string().nullable() })),
  status: z.string().nullable().describe('the mailbox status, like active'),
  messages_total: z.number().nullable(),
  threads_total: z.number().nullable(),
  mailbox_size: z.number().nullable().describe('bytes in use'),
  created: z.iso.datetime().nullable().describe('when the mailbox was created'),
});

const summaryOf = (m: PlatformMessage): MessageSummary => {
  const h = (name: string) =>
    m.payload?.headers?.find((x) => x.name?.toLowerCase() === name.toLowerCase())?.value;
  const labels = m.labelIds ?? [];
  return {
    id: m.id ?? '',
    thread_id: m.threadId ?? '',
    from: h('From') ?? null,
    to: addresses(h('To')),
    subject: h('Subject') ?? '',
    snippet: m.snippet ?? '',
    date: isoOf(m.internalDate),
    labels,
    unread: labels.includes('UNREAD'),
  };
};

/** One message's headers and labels; null when it is gone since it was listed. */
async function metadata(ctx: OpContext, path: string, messageId: string) {
  try {
    const r = await ctx.platform.call<PlatformMessage>({
      method: 'GET',
      path: `${path}/messages/${seg(messageId)}`,
      query: { format: 'metadata', metadataHeaders: 'From,To,Subject,Date' },
      label: 'LIGHT',
      group: 'email',
    });
    return summaryOf(r.data);
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') return null;
    throw err;
  }
}

/** Runs `fn` over `items` a few at a time, in order. */
async function inBatches<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let k = 0; k < items.length; k += size)
    out.push(...(await Promise.all(items.slice(k, k + size).map(fn))));
  return out;
}

const q = z
  .string()
  .trim()
  .min(1)
  .max(500)
  .describe('search: words, from:, to:, subject:, is:unread, in:sent, label:…');
const label = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/, 'must be a label id like INBOX, UNREAD, SENT, IMPORTANT')
  .describe('only messages with this label id, like INBOX, UNREAD, SENT, IMPORTANT, STARRED');

// ---------------------------------------------------------------------------------------------
// RFC 2822 for send_message: plain text, UTF-8, base64 body; non-ASCII subjects as RFC 2047 words.

/** RFC 2047 encoded words of at most 45 bytes each (a 75-character word), never splitting a character. */
function encodeHeader(v: string): string {
  if (/^[\x20-\x7e]*$/.test(v)) return v;
  const words: string[] = [];
  let chunk = '';
  for (const ch of v) {
    if (Buffer.byteLength(chunk + ch) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w, 'utf8').toString('base64')}?=`).join('\r\n ');
}

function rfc2822(m: { to: string[]; cc: string[]; subject: string; text: string }): string {
  const body = Buffer.from(m.text.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64');
  return [
    `To: ${m.to.join(', ')}`,
    ...(m.cc.length ? [`Cc: ${m.cc.join(', ')}`] : []),
    `Subject: ${encodeHeader(m.subject)}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset="UTF-8"',
    'Content-Transfer-Encoding: base64',
    '',
    ...(body.match(/.{1,76}/g) ?? []),
    '',
  ].join('\r\n');
}

const MAX_TEXT_BYTES = 100 * 1024;
const recipients = (max: number) => z.array(z.email().max(254)).max(max);

export const emailOps = [
  defineOp({
    group: 'email',
    name: 'profile',
    scopes: granular('email:read:profile'),
    summary:
      "The linked user's mailbox: its address, group addresses and aliases, status, and message and thread counts.",
    kind: 'read',
    input: z.object({}),
    output: profileView,
    async run(ctx): Promise<z.output<typeof profileView>> {
      const r = await ctx.platform.call<PlatformProfile>({
        method: 'GET',
        path: `${await base(ctx)}/profile`,
        label: 'LIGHT',
        group: 'email',
      });
      const p = r.data;
      const created = typeof p.createTime === 'number' ? p.createTime : undefined;
      return {
        email: p.emailAddress ?? null,
        group_emails: p.groupEmails ?? [],
        aliases: (p.aliases ?? []).map((a) => ({
          email: a.aliasEmail ?? '',
          description: a.description ?? null,
        })),
        status: p.status ?? null,
        messages_total: p.messagesTotal ?? null,
        threads_total: p.threadsTotal ?? null,
        mailbox_size: p.mboxSize ?? null,
        // The platform gives epoch seconds.
        created: created === undefined ? null : isoOf(created < 1e12 ? created * 1000 : created),
      };
    },
  }),

  defineOp({
    group: 'email',
    name: 'list_messages',
    scopes: granular('email:read:list_msgs'),
    summary:
      'Lists messages in the mailbox, newest first, with sender, recipients, subject, snippet, date, labels and unread state; q searches, label filters.',
    kind: 'read',
    input: z.object({ q: q.optional(), label: label.optional(), ...paging(25, 10) }),
    output: pageSchema(messageSummary),
    async run(ctx, i) {
      const path = await base(ctx);
      const r = await ctx.platform.call<{ messages?: { id?: string }[]; nextPageToken?: string }>({
        method: 'GET',
        path: `${path}/messages`,
        query: { maxResults: i.limit, pageToken: i.cursor, q: i.q, labelIds: i.label },
        label: 'MEDIUM',
        group: 'email',
      });
      const ids = (r.data.messages ?? []).map((m) => m.id).filter((x): x is string => !!x);
      const items = await inBatches(ids, 5, (mid) => metadata(ctx, path, mid));
      return pageOf(
        items.filter((x) => x !== null),
        r.data.nextPageToken,
      );
    },
  }),

  defineOp({
    group: 'email',
    name: 'send_message',
    scopes: granular('email:write:send_msg'),
    summary: 'Sends a plain-text email from the linked mailbox to up to 20 recipients (plus up to 20 in cc).',
    kind: 'write',
    creates: true,
    input: z.object({
      to: recipients(20).min(1).describe('recipient email addresses'),
      cc: recipients(20).default([]).describe('copied email addresses'),
      subject: z
        .string()
        .trim()
        .max(255)
        .refine((v) => !/[\r\n]/.test(v), 'must be one line')
        .default(''),
      text: z
        .string()
        .min(1)
        .max(MAX_TEXT_BYTES)
        .refine((v) => Buffer.byteLength(v) <= MAX_TEXT_BYTES, 'must be at most 100 KB')
        .describe('the plain-text body'),
    }),
    output: z.object({
      id: z.string().describe('the sent message id'),
      thread_id: z.string().describe('the thread it started'),
    }),
    async run(ctx, i) {
      const raw = Buffer.from(rfc2822(i), 'utf8').toString('base64url');
      const r = await ctx.platform.call<{ id?: string; threadId?: string }>({
        method: 'POST',
        path: `${await base(ctx)}/messages/send`,
        body: { raw },
        label: 'MEDIUM',
        group: 'email',
      });
      return { id: r.data.id ?? '', thread_id: r.data.threadId ?? '' };
    },
  }),

  defineOp({
    group: 'email',
    name: 'drafts',
    scopes: granular('email:read:list_drafts'),
    summary: 'Lists the draft emails in the mailbox, newest first, with recipients, subject and snippet.',
    kind: 'read',
    input: z.object({ q: q.optional(), ...paging(25, 10) }),
    output: pageSchema(draftSummary),
    async run(ctx, i) {
      const path = await base(ctx);
      const r = await ctx.platform.call<{
        drafts?: { id?: string; message?: { id?: string } }[];
        nextPageToken?: string;
      }>({
        method: 'GET',
        path: `${path}/drafts`,
        query: { maxResults: i.limit, pageToken: i.cursor, q: i.q },
        label: 'MEDIUM',
        group: 'email',
      });
      const drafts = (r.data.drafts ?? []).filter(
        (d): d is { id: string; message: { id: string } } => !!d.id && !!d.message?.id,
      );
      const items = await inBatches(drafts, 5, async (d): Promise<z.output<typeof draftSummary> | null> => {
        const m = await metadata(ctx, path, d.message.id);
        return (
          m && {
            id: d.id,
            message_id: m.id,
            thread_id: m.thread_id,
            to: m.to,
            subject: m.subject,
            snippet: m.snippet,
            date: m.date,
          }
        );
      });
      return pageOf(
        items.filter((x) => x !== null),
        r.data.nextPageToken,
      );
    },
  }),

  defineOp({
    group: 'email',
    name: 'threads',
    scopes: granular('email:read:list_threads'),
    summary: 'Lists conversation threads in the mailbox, most recent first, with subject and latest snippet.',
    kind: 'read',
    input: z.object({ q: q.optional(), label: label.optional(), ...paging(50, 20) }),
    output: pageSchema(threadSummary),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ threads?: PlatformThread[]; nextPageToken?: string }>({
        method: 'GET',
        path: `${await base(ctx)}/threads`,
        query: { maxResults: i.limit, pageToken: i.cursor, q: i.q, labelIds: i.label },
        label: 'MEDIUM',
        group: 'email',
      });
      return pageOf(
        (r.data.threads ?? []).map((t): z.output<typeof threadSummary> => ({
          id: t.id ?? '',
          subject: t.threadName ?? null,
          snippet: t.snippet ?? '',
        })),
        r.data.nextPageToken,
      );
    },
  }),
];
