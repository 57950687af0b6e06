/**
 * Mail (the platform's Gmail-like API, camelCase): the demo user's mailbox (`me` or its address)
 * with profile, messages (list / get in full|minimal|metadata|raw / send), drafts (create, list,
 * get, update, delete, send) and threads. Sent and drafted mail is given as base64url RFC 2822
 * and parsed for its headers and text. Errors carry the HTTP status as `code`, as the platform's
 * mail API does (400 "Invalid Request.", 404 "Not Found."). This file holds the routes; the
 * records, MIME building and parsing, search and the seed are in mail/.
 */
import { body, defineModule, p, q } from '../context.js';
import type { EmulatorRequest } from '../context.js';
import { addressOf, parseRaw, rawOf, renderMessage, snippetOf } from './mail/mime.js';
import type { Format, ParsedRaw } from './mail/mime.js';
import { MAIL_SCOPES, mailErr } from './mail/records.js';
import type { MailDraft, MailMessage, MailSlice } from './mail/records.js';
import { matches } from './mail/search.js';
import { newMailId, seedMail } from './mail/seed.js';

const FORMATS: Format[] = ['full', 'minimal', 'metadata', 'raw'];

/** A query parameter that may be repeated or comma-separated. */
function listParam(req: EmulatorRequest, name: string): string[] {
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
    const mailbox = (req: EmulatorRequest) => {
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
    const format = (req: EmulatorRequest, allowed: Format[] = FORMATS): Format => {
      const f = q(req, 'format') ?? 'full';
      if (!allowed.includes(f as Format)) throw mailErr.bad();
      return f as Format;
    };
    const checkSize = (req: EmulatorRequest) => {
      const v = q(req, 'maxResults');
      if (v !== undefined && v !== '' && !/^\d+$/.test(v)) throw mailErr.bad();
      if (v === '0') throw mailErr.bad();
    };
    const boolParam = (req: EmulatorRequest, name: string) => {
      const v = q(req, name);
      if (v === undefined || v === '') return false;
      if (v !== 'true' && v !== 'false') throw mailErr.bad();
      return v === 'true';
    };
    const page = <T>(req: EmulatorRequest, items: T[]) => {
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
    const visible = (req: EmulatorRequest) => {
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
