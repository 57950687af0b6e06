/** Chat lookups and wire mappers (people, channels, messages, conversations), bound to an emulator context. */
import { q, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { zoomTime } from '../../time.js';
import type { UsersSlice } from '../users.js';
import type { ChannelRec, ChatSlice, ContactRec, FileRec, MessageRec, Person } from './types.js';

/** The conversation a query names: a channel, or the 1:1 chat with a contact. */
export type Session = { channel: ChannelRec } | { contact: Person };

/** The helpers the chat routes share, closing over the context as the routes do. */
export function chatShapes(ctx: EmulatorContext) {
  const people = chatPeople(ctx);
  return { ...people, ...chatWire(ctx, people) };
}

export type ChatShapes = ReturnType<typeof chatShapes>;

/** People, channels and conversations: who a value names, and the messages the demo user can see. */
function chatPeople(ctx: EmulatorContext) {
  const slice = () => ctx.slice<ChatSlice>('chat');
  const now = () => ctx.now().getTime();

  /** The users module's colleague ids are the account's ids; chat keeps its own otherwise. */
  const userIdOf = (c: ContactRec): string => {
    if (c.kind === 'external') return '';
    const users = ctx.slice<UsersSlice | undefined>('users');
    return users?.colleagues.find((u) => u.email.toLowerCase() === c.email)?.id ?? c.id;
  };
  const demoPerson = (): Person => ({
    email: ctx.demo.email,
    userId: ctx.demo.id,
    memberId: slice().demoMemberId,
    name: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
  });
  const person = (email: string): Person => {
    if (email === ctx.demo.email) return demoPerson();
    const c = slice().contacts.find((x) => x.email === email);
    return c
      ? { email, userId: userIdOf(c), memberId: c.member_id, name: `${c.first_name} ${c.last_name}` }
      : { email, userId: '', memberId: '', name: email };
  };

  /** `to_contact` is an email, user id or member id; 404 code 1001 otherwise. */
  const findContact = (value: string): Person => {
    const v = value.trim();
    const d = demoPerson();
    if (v.toLowerCase() === d.email || v === d.userId || v === d.memberId) return d;
    const c = slice().contacts.find(
      (x) => x.email === v.toLowerCase() || x.member_id === v || (userIdOf(x) !== '' && userIdOf(x) === v),
    );
    if (!c) throw new ZoomError(404, 1001, `User does not exist: ${value}.`);
    return person(c.email);
  };
  const findChannel = (id: string): ChannelRec => {
    const c = slice().channels.find((x) => x.id === id);
    if (!c) throw new ZoomError(404, 4130, `Channel does not exist: ${id}.`);
    return c;
  };

  const sessionOf = (req: EmulatorRequest, quoted: boolean): Session | undefined => {
    const ch = q(req, 'to_channel');
    const to = q(req, 'to_contact');
    if (ch) return { channel: findChannel(ch) };
    if (to) return { contact: findContact(to) };
    if (quoted) throw new ZoomError(400, 300, 'Must provide either "contact" or "channel" parameter.');
    return undefined;
  };
  const inSession = (m: MessageRec, sess: Session) =>
    'channel' in sess ? m.channel === sess.channel.id : m.contact === sess.contact.email;
  /** Messages the demo user can see: every channel they belong to, and their 1:1 chats; nothing scheduled for later. */
  const visible = () => {
    const mine = new Set(
      slice()
        .channels.filter((c) => c.members.includes(ctx.demo.email))
        .map((c) => c.id),
    );
    const t = now();
    return slice().messages.filter(
      (m) => m.ts <= t && (m.contact !== undefined || (m.channel !== undefined && mine.has(m.channel))),
    );
  };

  return {
    slice,
    now,
    userIdOf,
    demoPerson,
    person,
    findContact,
    findChannel,
    sessionOf,
    inSession,
    visible,
  };
}

const channelUrl = (ctx: EmulatorContext, c: ChannelRec) =>
  `${ctx.baseUrl}/launch/chat/v2/${Buffer.from(JSON.stringify({ sid: `${c.id}@conference.xmpp.zoom.us` })).toString('base64url')}`;

const fileFields = (ctx: EmulatorContext, files: FileRec[] | undefined) => {
  const first = files?.[0];
  if (!files || !first) return {};
  const url = (f: FileRec) =>
    `${ctx.baseUrl}/file/download/${f.file_id}?filename=${encodeURIComponent(f.file_name)}`;
  return {
    file_id: first.file_id,
    file_name: first.file_name,
    file_size: first.file_size,
    download_url: url(first),
    files: files.map((f) => ({
      file_id: f.file_id,
      file_name: f.file_name,
      file_size: f.file_size,
      download_url: url(f),
    })),
  };
};

/** The wire shapes of channels and messages. */
function chatWire(ctx: EmulatorContext, people: ReturnType<typeof chatPeople>) {
  const { slice, person } = people;
  const channelObject = (c: ChannelRec, full: boolean) => ({
    id: c.id,
    jid: `${c.id}@conference.xmpp.zoom.us`,
    name: c.name,
    type: c.type,
    channel_url: channelUrl(ctx, c),
    channel_settings: {
      ...c.settings,
      ...(full && c.settings.posting_permissions === 3
        ? {
            designated_posting_members: c.members
              .filter((e) => e !== ctx.demo.email)
              .slice(0, 1)
              .map((e) => ({ member_id: person(e).memberId, user_id: person(e).userId })),
          }
        : {}),
    },
  });

  /** The message fields both the list and the single-message endpoints share. */
  const baseMessage = (m: MessageRec) => {
    const from = person(m.sender);
    const main = m.reply_main_message_id
      ? slice().messages.find((x) => x.id === m.reply_main_message_id)
      : undefined;
    return {
      id: m.id,
      message: m.message,
      sender: m.sender,
      sender_display_name: from.name,
      send_member_id: from.memberId,
      date_time: zoomTime(new Date(m.ts)),
      timestamp: m.ts,
      message_type: m.message_type,
      ...(m.reply_main_message_id
        ? { reply_main_message_id: m.reply_main_message_id, reply_main_message_timestamp: main?.ts ?? m.ts }
        : {}),
      ...fileFields(ctx, m.files),
      ...(m.at_items?.length
        ? {
            at_items: m.at_items.map((a) => ({
              at_type: a.at_type,
              ...(a.at_contact
                ? {
                    at_contact: person(a.at_contact).userId,
                    at_contact_member_id: person(a.at_contact).memberId,
                  }
                : {}),
              start_position: a.start_position,
              end_position: a.end_position,
            })),
          }
        : {}),
      ...(m.rich_text?.length ? { rich_text: m.rich_text } : {}),
      ...(m.interactive_cards?.length ? { interactive_cards: m.interactive_cards } : {}),
    };
  };
  const listMessage = (m: MessageRec, withStatus: boolean) => ({
    ...baseMessage(m),
    ...(m.reactions?.length
      ? {
          reactions: m.reactions.map((r) => ({
            emoji: r.emoji,
            total_count: r.senders.length,
            senders: r.senders.map((e) => ({ user_id: person(e).userId, member_id: person(e).memberId })),
          })),
        }
      : {}),
    ...(withStatus ? { status: 'Normal' } : {}),
  });
  const fullMessage = (m: MessageRec) => ({
    ...baseMessage(m),
    ...(m.reactions?.length
      ? {
          reactions: m.reactions.map((r) => ({
            emoji: r.emoji,
            total_count: r.senders.length,
            user_ids: r.senders.map((e) => person(e).userId).filter((x) => x !== ''),
            member_ids: r.senders.map((e) => person(e).memberId),
          })),
        }
      : {}),
    message_url: `${ctx.baseUrl}/launch/chat/v2/${Buffer.from(JSON.stringify({ mid: m.id, sid: m.channel ?? m.contact ?? '' })).toString('base64url')}`,
  });

  return { channelObject, baseMessage, listMessage, fullMessage };
}
