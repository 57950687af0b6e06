/** Chat message routes: list a conversation's messages, send a message, get one message. */
import { randomUUID } from 'node:crypto';
import { body, p, q, zerr, ZoomError, type EmulatorContext, type EmulatorRequest } from '../../context.js';
import { zoomTime } from '../../time.js';
import { bare, DATE_RE, DATETIME_RE, DAY, SCOPES, truthy } from './scopes.js';
import { parseSendBody, type SendInput } from './send-input.js';
import type { ChatShapes } from './shapes.js';
import type { ChannelRec, MessageRec, Person } from './types.js';

/** Registers the routes on the context; `h` holds the shared lookups and mappers. */
export function registerMessageRoutes(ctx: EmulatorContext, h: ChatShapes): void {
  getMessages(ctx, h);
  postMessage(ctx, h);
  getMessage(ctx, h);
}

function getMessages(ctx: EmulatorContext, h: ChatShapes): void {
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
      const sess = h.sessionOf(req, false);
      if (!sess && !searching)
        throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');
      const { start, end, window } = messageWindow(ctx, h, req, searching);

      const key = searchKey?.toLowerCase() ?? '';
      const withStatus = truthy(q(req, 'include_deleted_and_edited_message')) && !searching;
      const items = h
        .visible()
        .filter((m) => (!sess || h.inSession(m, sess)) && m.ts >= start && m.ts <= end)
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
        messages: page.items.map((m) => h.listMessage(m, withStatus)),
      };
    },
  });
}

/** The window listed: `date` (a whole UTC day, today by default) wins over `from`/`to`. */
function messageWindow(
  ctx: EmulatorContext,
  h: ChatShapes,
  req: EmulatorRequest,
  searching: boolean,
): { start: number; end: number; window: Record<string, string> } {
  const t = h.now();
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
  if (start < oldest) throw new ZoomError(400, 300, 'Only provide past chat messages in recent 6 months.');
  return { start, end, window };
}

function postMessage(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'POST',
    url: '/chat/users/:userId/messages',
    scopes: SCOPES.send,
    label: 'MEDIUM',
    handler: (req, reply) => {
      ctx.user(req, p(req, 'userId'));
      const input = parseSendBody(body(req), h.findContact);
      const { str } = input;
      const toChannel = str('to_channel');
      const toContact = str('to_contact');
      if (!toChannel && !toContact)
        throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');
      const channel = toChannel ? h.findChannel(toChannel) : undefined;
      const contact = channel ? undefined : h.findContact(toContact ?? '');
      if (channel && !channel.members.includes(ctx.demo.email))
        throw new ZoomError(400, 5301, 'Message sending failed.');
      if (Array.isArray(input.fileIds) && input.fileIds.length > 0)
        throw new ZoomError(400, 5301, 'Message sending failed.');
      const replyTo = replyTarget(h, str('reply_main_message_id'), channel, contact);
      const cards = interactiveCards(ctx, input.cardsRaw);
      const scheduled = str('scheduled_time');
      const ts = sendTime(h.now(), scheduled);

      const id = randomUUID().toUpperCase();
      const m: MessageRec = {
        id,
        ...(channel ? { channel: channel.id } : { contact: contact?.email ?? '' }),
        sender: ctx.demo.email,
        message: input.message ?? '',
        ts,
        message_type: 'plain_text_message',
        ...(replyTo ? { reply_main_message_id: replyTo.id } : {}),
        ...(input.atItems.length ? { at_items: input.atItems } : {}),
        ...(input.rich.length ? { rich_text: input.rich } : {}),
        ...(cards.length ? { interactive_cards: cards } : {}),
      };
      h.slice().messages.push(m);
      ctx.changed();
      if (scheduled === undefined) emitSent(ctx, h, m, channel, contact);
      return reply.code(201).send({ id });
    },
  });
}

/** The main message a reply answers, in the same conversation; 5301 or 5402 otherwise. */
function replyTarget(
  h: ChatShapes,
  replyId: string | undefined,
  channel: ChannelRec | undefined,
  contact: Person | undefined,
): MessageRec | undefined {
  if (!replyId) return undefined;
  const replyTo = h
    .slice()
    .messages.find(
      (m) => m.id === bare(replyId) && (channel ? m.channel === channel.id : m.contact === contact?.email),
    );
  if (!replyTo) throw new ZoomError(400, 5301, 'Message sending failed.');
  if (replyTo.reply_main_message_id)
    throw new ZoomError(400, 5402, 'This only supports replies to a main message.');
  return replyTo;
}

function interactiveCards(ctx: EmulatorContext, cardsRaw: SendInput['cardsRaw']) {
  const cards: { card_id: string; card_json: string }[] = [];
  for (const c of (cardsRaw ?? []) as Record<string, unknown>[]) {
    try {
      JSON.parse(c['card_json'] as string);
    } catch {
      throw new ZoomError(400, 5405, 'Failed to create interactive card.');
    }
    cards.push({ card_id: ctx.newId('alnum', 22) as string, card_json: c['card_json'] as string });
  }
  return cards;
}

/** Now, or the scheduled time: more than 30 minutes ahead and within 180 days. */
function sendTime(now: number, scheduled: string | undefined): number {
  if (scheduled === undefined) return now;
  const at = DATETIME_RE.test(scheduled) ? Date.parse(scheduled) : Number.NaN;
  if (Number.isNaN(at) || at <= now + 30 * 60_000 || at >= now + 180 * DAY)
    throw new ZoomError(
      400,
      300,
      'Invalid parameter: send_time. The time requirement is more than 30 minutes from now and within 180 days.',
    );
  return at;
}

function emitSent(
  ctx: EmulatorContext,
  h: ChatShapes,
  m: MessageRec,
  channel: ChannelRec | undefined,
  contact: Person | undefined,
): void {
  const other = contact ? h.slice().contacts.find((c) => c.email === contact.email) : undefined;
  ctx.webhooks.emit(
    'chat_message.sent',
    {
      id: m.id,
      type: channel ? 'to_channel' : 'to_contact',
      date_time: zoomTime(new Date(m.ts)),
      timestamp: m.ts,
      session_id: channel ? channel.id : (contact?.memberId ?? ''),
      contact_email: contact?.email ?? '',
      contact_id: other ? h.userIdOf(other) : (contact?.userId ?? ''),
      channel_id: channel?.id ?? '',
      channel_name: channel?.name ?? '',
      message: m.message,
    },
    { operator: ctx.demo.email, operator_id: ctx.demo.id },
  );
}

function getMessage(ctx: EmulatorContext, h: ChatShapes): void {
  ctx.route({
    method: 'GET',
    url: '/chat/users/:userId/messages/:messageId',
    scopes: SCOPES.getMessage,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const sess = h.sessionOf(req, true);
      const id = p(req, 'messageId');
      const m = sess ? h.visible().find((x) => x.id === bare(id) && h.inSession(x, sess)) : undefined;
      if (!m) throw new ZoomError(400, 300, `Message does not exist: ${id}.`);
      return h.fullMessage(m);
    },
  });
}
