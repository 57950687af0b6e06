/**
 * Mail lookups and shapes shared by its routes: the mailbox a path names (`me` or the demo
 * address), messages, drafts and threads by id, the labels and query parameters the lists share,
 * and the message, draft and thread objects in each format.
 */
import { p, q } from '../../context.js';
import type { EmulatorRequest } from '../../context.js';
import { addressOf, parseRaw } from './mime.js';
import type { Format, ParsedRaw } from './mime.js';
import { mailErr } from './records.js';
import type { MailMessage, MailSlice } from './records.js';
import { matches } from './search.js';
import { newMailId } from './seed.js';
import type { EmulatorContext } from '../../context.js';

export const FORMATS: Format[] = ['full', 'minimal', 'metadata', 'raw'];

/** A query parameter that may be repeated or comma-separated. */
export function listParam(req: EmulatorRequest, name: string): string[] {
  const v = (req.query as Record<string, unknown> | undefined)?.[name];
  const all = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return all
    .filter((x): x is string => typeof x === 'string')
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
}

export const slice = (ctx: EmulatorContext) => ctx.slice<MailSlice>('mail');

export const demoFrom = (ctx: EmulatorContext) =>
  `${ctx.demo.firstName} ${ctx.demo.lastName} <${ctx.demo.email}>`;

/** `me` or the demo mailbox's address; any other mailbox is not found. */
export const mailbox = (ctx: EmulatorContext, req: EmulatorRequest) => {
  try {
    ctx.user(req, p(req, 'email'));
  } catch {
    throw mailErr.notFound();
  }
  settle(ctx);
};

/** Scheduled messages whose time has come become sent. */
export const settle = (ctx: EmulatorContext) => {
  const now = ctx.now().getTime();
  let changed = false;
  for (const m of slice(ctx).messages) {
    if (m.sendTime !== undefined && m.sendTime <= now && m.labelIds.includes('SCHEDULED')) {
      m.labelIds = m.labelIds.map((l) => (l === 'SCHEDULED' ? 'SENT' : l));
      m.internalDate = m.sendTime;
      changed = true;
    }
  }
  if (changed) ctx.changed();
};

export const nextHistory = (ctx: EmulatorContext) => (slice(ctx).historyId += 1);

export const format = (req: EmulatorRequest, allowed: Format[] = FORMATS): Format => {
  const f = q(req, 'format') ?? 'full';
  if (!allowed.includes(f as Format)) throw mailErr.bad();
  return f as Format;
};

export const checkSize = (req: EmulatorRequest) => {
  const v = q(req, 'maxResults');
  if (v !== undefined && v !== '' && !/^\d+$/.test(v)) throw mailErr.bad();
  if (v === '0') throw mailErr.bad();
};

export const boolParam = (req: EmulatorRequest, name: string) => {
  const v = q(req, name);
  if (v === undefined || v === '') return false;
  if (v !== 'true' && v !== 'false') throw mailErr.bad();
  return v === 'true';
};

export const page = <T>(ctx: EmulatorContext, req: EmulatorRequest, items: T[]) => {
  checkSize(req);
  return ctx.paginate(req, items, {
    defaultSize: 50,
    maxSize: 500,
    tokenParam: 'pageToken',
    sizeParam: 'maxResults',
  });
};

export const findMessage = (ctx: EmulatorContext, id: string) => {
  const m = slice(ctx).messages.find((x) => x.id === id);
  if (!m) throw mailErr.notFound();
  return m;
};

/** Messages a list call sees: labelIds (all must match), q, and SPAM/TRASH only when asked. */
export const visible = (ctx: EmulatorContext, req: EmulatorRequest) => {
  const labels = listParam(req, 'labelIds').map((l) => l.toUpperCase());
  const qs = q(req, 'q');
  const spamTrash =
    boolParam(req, 'includeSpamTrash') ||
    labels.some((l) => l === 'SPAM' || l === 'TRASH') ||
    /\bin:(spam|trash|anywhere)\b/i.test(qs ?? '');
  return slice(ctx)
    .messages.filter((m) => spamTrash || !m.labelIds.some((l) => l === 'SPAM' || l === 'TRASH'))
    .filter((m) => labels.every((l) => m.labelIds.some((x) => x.toUpperCase() === l)))
    .filter((m) => matches(m, qs))
    .sort((a, b) => b.internalDate - a.internalDate || b.id.localeCompare(a.id));
};

export const threadOf = (
  ctx: EmulatorContext,
  m: Pick<MailMessage, 'inReplyTo' | 'references'>,
  explicit?: unknown,
): string | undefined => {
  const all = slice(ctx).messages;
  if (typeof explicit === 'string' && explicit) {
    if (!all.some((x) => x.threadId === explicit)) throw mailErr.notFound();
    return explicit;
  }
  const refs = [m.inReplyTo, ...(m.references ?? [])].filter((x): x is string => !!x);
  return all.find((x) => refs.includes(x.messageId))?.threadId;
};

/** A message record from parsed RFC 2822 (drafts may have no recipients). */
export const fromParsed = (
  ctx: EmulatorContext,
  raw: ParsedRaw,
  labelIds: string[],
  existing?: MailMessage,
  threadHint?: unknown,
): MailMessage => {
  const id = existing?.id ?? newMailId();
  const from =
    raw.from && addressOf(raw.from).toLowerCase() === ctx.demo.email.toLowerCase() ? raw.from : demoFrom(ctx);
  const base = {
    inReplyTo: raw.inReplyTo,
    references: raw.references.length ? raw.references : raw.inReplyTo ? [raw.inReplyTo] : undefined,
  };
  return {
    id,
    threadId: existing?.threadId ?? threadOf(ctx, base, threadHint) ?? id,
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
    historyId: nextHistory(ctx),
  };
};

export const emptyRaw = (): ParsedRaw => ({ to: [], cc: [], bcc: [], subject: '', body: '', references: [] });

export const ids = (m: MailMessage) => ({ id: m.id, threadId: m.threadId, labelIds: m.labelIds });

export const userLabels = (v: unknown): string[] => {
  if (v === undefined) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw mailErr.bad();
  return v.filter((l) => !['SENT', 'DRAFT', 'INBOX', 'SPAM', 'TRASH', 'SCHEDULED'].includes(l.toUpperCase()));
};

export const findDraft = (ctx: EmulatorContext, id: string) => {
  const d = slice(ctx).drafts.find((x) => x.id === id);
  const m = d && slice(ctx).messages.find((x) => x.id === d.messageId);
  if (!d || !m) throw mailErr.notFound();
  return { d, m };
};

/** The `message` of a draft body: undefined when absent, 400 when malformed. */
export const draftMessage = (b: Record<string, unknown>, required: boolean): ParsedRaw | undefined => {
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
