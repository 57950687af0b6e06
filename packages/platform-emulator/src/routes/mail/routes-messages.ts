/**
 * Mail message routes: the mailbox profile, messages (list with label and search filters, get in
 * full|minimal|metadata|raw) and sending one as base64url RFC 2822.
 */
import { body, p } from '../../context.js';
import { parseRaw, rawOf, renderMessage } from './mime.js';
import { MAIL_SCOPES, mailErr } from './records.js';
import type { EmulatorContext } from '../../context.js';
import {
  slice,
  mailbox,
  format,
  page,
  findMessage,
  visible,
  fromParsed,
  ids,
  userLabels,
  listParam,
} from './lookups.js';

export function registerMessageRoutes(ctx: EmulatorContext): void {
  getProfile(ctx);
  getMessages(ctx);
  getMessage(ctx);
  postMessageSend(ctx);
}

function getProfile(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/profile',
    scopes: MAIL_SCOPES.profile,
    label: 'LIGHT',
    handler: (req) => {
      mailbox(ctx, req);
      const s = slice(ctx);
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
}

function getMessages(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/messages',
    scopes: MAIL_SCOPES.listMessages,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      const pg = page(ctx, req, visible(ctx, req));
      return {
        messages: pg.items.map((m) => ({ id: m.id, threadId: m.threadId })),
        ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
        resultSizeEstimate: pg.totalRecords,
      };
    },
  });
}

function getMessage(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/messages/:messageId',
    scopes: MAIL_SCOPES.getMessage,
    label: 'LIGHT',
    handler: (req) => {
      mailbox(ctx, req);
      const f = format(req);
      return renderMessage(findMessage(ctx, p(req, 'messageId')), f, listParam(req, 'metadataHeaders'));
    },
  });
}

function postMessageSend(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/emails/mailboxes/:email/messages/send',
    scopes: MAIL_SCOPES.send,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
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
        ctx,
        parsed,
        [sendTime !== undefined ? 'SCHEDULED' : 'SENT', ...extra],
        undefined,
        b['threadId'],
      );
      if (sendTime !== undefined) m.sendTime = sendTime;
      slice(ctx).messages.push(m);
      ctx.changed();
      return ids(m);
    },
  });
}
