/**
 * Mail draft routes: create, list, get, update, delete and send a draft.
 */
import { body, p, q } from '../../context.js';
import { renderMessage } from './mime.js';
import { MAIL_SCOPES, mailErr } from './records.js';
import type { MailDraft, MailMessage } from './records.js';
import { matches } from './search.js';
import { newMailId } from './seed.js';
import type { EmulatorContext } from '../../context.js';
import {
  slice,
  mailbox,
  nextHistory,
  format,
  boolParam,
  page,
  fromParsed,
  emptyRaw,
  ids,
  findDraft,
  draftMessage,
} from './lookups.js';

export function registerDraftRoutes(ctx: EmulatorContext): void {
  postDraft(ctx);
  getDrafts(ctx);
  getDraft(ctx);
  putDraft(ctx);
  deleteDraft(ctx);
  postDraftSend(ctx);
}

function postDraft(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/emails/mailboxes/:email/drafts',
    scopes: MAIL_SCOPES.createDraft,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      const parsed = draftMessage(body(req), false) ?? emptyRaw();
      const m = fromParsed(ctx, parsed, ['DRAFT']);
      const d: MailDraft = { id: `r${newMailId()}`, messageId: m.id };
      slice(ctx).messages.push(m);
      slice(ctx).drafts.push(d);
      ctx.changed();
      return { id: d.id, message: ids(m) };
    },
  });
}

function getDrafts(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/drafts',
    scopes: MAIL_SCOPES.listDrafts,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      boolParam(req, 'includeSpamTrash');
      const qs = q(req, 'q');
      const byId = new Map(slice(ctx).messages.map((m) => [m.id, m]));
      const items = slice(ctx)
        .drafts.map((d) => ({ d, m: byId.get(d.messageId) }))
        .filter((x): x is { d: MailDraft; m: MailMessage } => !!x.m && matches(x.m, qs))
        .sort((a, b) => b.m.internalDate - a.m.internalDate);
      const pg = page(ctx, req, items);
      return {
        drafts: pg.items.map(({ d, m }) => ({ id: d.id, message: { id: m.id, threadId: m.threadId } })),
        ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
        resultSizeEstimate: pg.totalRecords,
      };
    },
  });
}

function getDraft(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/drafts/:draftId',
    scopes: MAIL_SCOPES.getDraft,
    label: 'LIGHT',
    handler: (req) => {
      mailbox(ctx, req);
      const f = format(req);
      const { d, m } = findDraft(ctx, p(req, 'draftId'));
      return { id: d.id, message: renderMessage(m, f, []) };
    },
  });
}

function putDraft(ctx: EmulatorContext): void {
  ctx.route({
    method: 'PUT',
    url: '/emails/mailboxes/:email/drafts/:draftId',
    scopes: MAIL_SCOPES.updateDraft,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      const { d, m } = findDraft(ctx, p(req, 'draftId'));
      const parsed = draftMessage(body(req), true) ?? emptyRaw();
      const next = fromParsed(ctx, parsed, m.labelIds, m);
      Object.assign(m, next);
      ctx.changed();
      return { id: d.id, message: ids(m) };
    },
  });
}

function deleteDraft(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/emails/mailboxes/:email/drafts/:draftId',
    scopes: MAIL_SCOPES.deleteDraft,
    label: 'LIGHT',
    handler: (req, reply) => {
      mailbox(ctx, req);
      const { d, m } = findDraft(ctx, p(req, 'draftId'));
      const s = slice(ctx);
      s.drafts = s.drafts.filter((x) => x !== d);
      s.messages = s.messages.filter((x) => x !== m);
      nextHistory(ctx);
      ctx.changed();
      return reply.code(204).send();
    },
  });
}

function postDraftSend(ctx: EmulatorContext): void {
  ctx.route({
    method: 'POST',
    url: '/emails/mailboxes/:email/drafts/send',
    scopes: MAIL_SCOPES.sendDraft,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      const b = body(req);
      if (typeof b['id'] !== 'string' || b['id'] === '') throw mailErr.bad();
      const { d, m } = findDraft(ctx, b['id']);
      const parsed = draftMessage(b, false);
      const content = parsed ? fromParsed(ctx, parsed, m.labelIds, m) : m;
      if (content.to.length + content.cc.length + content.bcc.length === 0) throw mailErr.bad();
      Object.assign(m, content, {
        labelIds: ['SENT', ...m.labelIds.filter((l) => l !== 'DRAFT' && l !== 'SENT')],
        internalDate: ctx.now().getTime(),
        historyId: nextHistory(ctx),
      });
      const s = slice(ctx);
      s.drafts = s.drafts.filter((x) => x !== d);
      ctx.changed();
      return ids(m);
    },
  });
}
