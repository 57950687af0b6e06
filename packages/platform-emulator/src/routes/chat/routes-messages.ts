/** Chat message routes: list a conversation's messages, send a message, get one message. */
import { randomUUID } from 'node:crypto';
import { body, p, q, zerr, ZoomError, type EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { bare, DATE_RE, DATETIME_RE, DAY, SCOPES, truthy } from './scopes.js';
import type { ChatShapes } from './shapes.js';
import type { MessageRec, AtItem, RichText } from './types.js';

/** Registers the routes on the context; `h` holds the shared lookups and mappers. */
export function registerMessageRoutes(ctx: EmulatorContext, h: ChatShapes): void {
  const {
    slice,
    now,
    userIdOf,
    findContact,
    findChannel,
    listMessage,
    fullMessage,
    sessionOf,
    inSession,
    visible,
  } = h;

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
      const sess = sessionOf(req, false);
      if (!sess && !searching)
        throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');

      // The window: `date` (a whole UTC day, today by default) wins over `from`/`to`.
      const t = now();
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
      if (start < oldest)
        throw new ZoomError(400, 300, 'Only provide past chat messages in recent 6 months.');

      const key = searchKey?.toLowerCase() ?? '';
      const withStatus = truthy(q(req, 'include_deleted_and_edited_message')) && !searching;
      const items = visible()
        .filter((m) => (!sess || inSession(m, sess)) && m.ts >= start && m.ts <= end)
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
        messages: page.items.map((m) => listMessage(m, withStatus)),
      };
    },
  });

  ctx.route({
    method: 'POST',
    url: '/chat/users/:userId/messages',
    scopes: SCOPES.send,
    label: 'MEDIUM',
    handler: (req, reply) => {
      ctx.user(req, p(req, 'userId'));
      const b = body(req);
      const errors: { field: string; message: string }[] = [];
      const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
      const str = (k: string) => {
        const v = b[k];
        return typeof v === 'string' ? v : undefined;
      };
      const message = str('message');
      if (message === undefined || message.length > 1024) bad('message');
      for (const k of ['to_contact', 'to_channel', 'reply_main_message_id', 'scheduled_time'])
        if (k in b && typeof b[k] !== 'string') bad(k);
      const fileIds = b['file_ids'];
      if (
        fileIds !== undefined &&
        (!Array.isArray(fileIds) || fileIds.length > 6 || fileIds.some((x) => typeof x !== 'string'))
      )
        bad('file_ids');
      const atRaw = b['at_items'];
      const atItems: AtItem[] = [];
      if (atRaw !== undefined) {
        if (!Array.isArray(atRaw)) bad('at_items');
        else
          for (const a of atRaw as unknown[]) {
            const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
            const type = o['at_type'];
            const sp = o['start_position'];
            const ep = o['end_position'];
            if (
              (type !== 1 && type !== 2) ||
              !Number.isInteger(sp) ||
              !Number.isInteger(ep) ||
              (type === 1 && typeof o['at_contact'] !== 'string')
            ) {
              bad('at_items');
              break;
            }
            atItems.push({
              at_type: type,
              ...(type === 1 ? { at_contact: findContact(o['at_contact'] as string).email } : {}),
              start_position: sp as number,
              end_position: ep as number,
            });
          }
      }
      const richRaw = b['rich_text'];
      const rich: RichText[] = [];
      const FORMATS = [
        'Bold',
        'Italic',
        'Strikethrough',
        'BulletedList',
        'NumberedList',
        'Underline',
        'FontSize',
        'FontColor',
        'BackgroundColor',
        'LeftIndent',
        'Paragraph',
        'Quote',
        'AddLink',
      ];
      if (richRaw !== undefined) {
        if (!Array.isArray(richRaw)) bad('rich_text');
        else
          for (const r of richRaw as unknown[]) {
            const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
            if (
              !Number.isInteger(o['start_position']) ||
              !Number.isInteger(o['end_position']) ||
              !FORMATS.includes(o['format_type'] as string)
            ) {
              bad('rich_text');
              break;
            }
            rich.push({
              start_position: o['start_position'] as number,
              end_position: o['end_position'] as number,
              format_type: o['format_type'] as string,
              ...(typeof o['format_attr'] === 'string' ? { format_attr: o['format_attr'] } : {}),
            });
          }
      }
      const cardsRaw = b['interactive_cards'];
      if (
        cardsRaw !== undefined &&
        (!Array.isArray(cardsRaw) ||
          cardsRaw.some(
            (c) =>
              typeof c !== 'object' ||
              c === null ||
              typeof (c as Record<string, unknown>)['card_json'] !== 'string',
          ))
      )
        bad('interactive_cards');
      if (errors.length) throw zerr.validation(errors);

      const toChannel = str('to_channel');
      const toContact = str('to_contact');
      if (!toChannel && !toContact)
        throw new ZoomError(400, 300, 'Must provide either contact or channel parameter.');
      const channel = toChannel ? findChannel(toChannel) : undefined;
      const contact = channel ? undefined : findContact(toContact ?? '');
      if (channel && !channel.members.includes(ctx.demo.email))
        throw new ZoomError(400, 5301, 'Message sending failed.');
      if (Array.isArray(fileIds) && fileIds.length > 0)
        throw new ZoomError(400, 5301, 'Message sending failed.');

      let replyTo: MessageRec | undefined;
      const replyId = str('reply_main_message_id');
      if (replyId) {
        replyTo = slice().messages.find(
          (m) =>
            m.id === bare(replyId) && (channel ? m.channel === channel.id : m.contact === contact?.email),
        );
        if (!replyTo) throw new ZoomError(400, 5301, 'Message sending failed.');
        if (replyTo.reply_main_message_id)
          throw new ZoomError(400, 5402, 'This only supports replies to a main message.');
      }
      const cards: { card_id: string; card_json: string }[] = [];
      for (const c of (cardsRaw ?? []) as Record<string, unknown>[]) {
        try {
          JSON.parse(c['card_json'] as string);
        } catch {
          throw new ZoomError(400, 5405, 'Failed to create interactive card.');
        }
        cards.push({ card_id: ctx.newId('alnum', 22) as string, card_json: c['card_json'] as string });
      }

      let ts = now();
      const scheduled = str('scheduled_time');
      if (scheduled !== undefined) {
        const at = DATETIME_RE.test(scheduled) ? Date.parse(scheduled) : Number.NaN;
        if (Number.isNaN(at) || at <= ts + 30 * 60_000 || at >= ts + 180 * DAY)
          throw new ZoomError(
            400,
            300,
            'Invalid parameter: send_time. The time requirement is more than 30 minutes from now and within 180 days.',
          );
        ts = at;
      }

      const id = randomUUID().toUpperCase();
      const m: MessageRec = {
        id,
        ...(channel ? { channel: channel.id } : { contact: contact?.email ?? '' }),
        sender: ctx.demo.email,
        message: message ?? '',
        ts,
        message_type: 'plain_text_message',
        ...(replyTo ? { reply_main_message_id: replyTo.id } : {}),
        ...(atItems.length ? { at_items: atItems } : {}),
        ...(rich.length ? { rich_text: rich } : {}),
        ...(cards.length ? { interactive_cards: cards } : {}),
      };
      slice().messages.push(m);
      ctx.changed();
      if (scheduled === undefined) {
        const other = contact ? slice().contacts.find((c) => c.email === contact.email) : undefined;
        ctx.webhooks.emit(
          'chat_message.sent',
          {
            id,
            type: channel ? 'to_channel' : 'to_contact',
            date_time: zoomTime(new Date(ts)),
            timestamp: ts,
            session_id: channel ? channel.id : (contact?.memberId ?? ''),
            contact_email: contact?.email ?? '',
            contact_id: other ? userIdOf(other) : (contact?.userId ?? ''),
            channel_id: channel?.id ?? '',
            channel_name: channel?.name ?? '',
            message: m.message,
          },
          { operator: ctx.demo.email, operator_id: ctx.demo.id },
        );
      }
      return reply.code(201).send({ id });
    },
  });

  ctx.route({
    method: 'GET',
    url: '/chat/users/:userId/messages/:messageId',
    scopes: SCOPES.getMessage,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const sess = sessionOf(req, true);
      const id = p(req, 'messageId');
      const m = sess ? visible().find((x) => x.id === bare(id) && inSession(x, sess)) : undefined;
      if (!m) throw new ZoomError(400, 300, `Message does not exist: ${id}.`);
      return fullMessage(m);
    },
  });
}
