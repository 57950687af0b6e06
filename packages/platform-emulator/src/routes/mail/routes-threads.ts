/**
 * Mail thread routes: the threads of the mailbox (list with the message filters) and one thread
 * with its messages.
 */
import { p } from '../../context.js';
import { renderMessage, snippetOf } from './mime.js';
import { MAIL_SCOPES, mailErr } from './records.js';
import type { MailMessage } from './records.js';
import type { EmulatorContext } from '../../context.js';
import { slice, mailbox, format, page, visible, listParam } from './lookups.js';

export function registerThreadRoutes(ctx: EmulatorContext): void {
  getThreads(ctx);
  getThread(ctx);
}

function getThreads(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/threads',
    scopes: MAIL_SCOPES.listThreads,
    label: 'MEDIUM',
    handler: (req) => {
      mailbox(ctx, req);
      const hit = new Set(visible(ctx, req).map((m) => m.threadId));
      const byThread = new Map<string, MailMessage[]>();
      for (const m of slice(ctx).messages)
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
      const pg = page(ctx, req, threads);
      return {
        threads: pg.items.map((x) => x.thread),
        ...(pg.nextPageToken ? { nextPageToken: pg.nextPageToken } : {}),
        resultSizeEstimate: pg.totalRecords,
      };
    },
  });
}

function getThread(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/emails/mailboxes/:email/threads/:threadId',
    scopes: MAIL_SCOPES.getThread,
    label: 'LIGHT',
    handler: (req) => {
      mailbox(ctx, req);
      const f = format(req, ['full', 'metadata', 'minimal']);
      const msgs = slice(ctx)
        .messages.filter((m) => m.threadId === p(req, 'threadId'))
        .sort((a, b) => a.internalDate - b.internalDate);
      const first = msgs[0];
      if (!first) throw mailErr.notFound();
      const pg = page(ctx, req, msgs);
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
}
