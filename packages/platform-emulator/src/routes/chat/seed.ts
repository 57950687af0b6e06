/** Builds the chat slice from the seed data: contacts, rooms, channels and dated messages. */
import type { SeedContext } from '../../context.js';
import { ALNUM, CHANNELS, DMS, EXTERNAL_DOMAINS, HEX, PEOPLE, WHO, type Line } from './seed-data.js';
import type { ChannelRec, ChatSlice, ContactRec, MessageRec, RoomRec } from './types.js';

export const uuidFrom = (s: SeedContext) => {
  const h = s.rng.id(32, HEX).toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-A${h.slice(17, 20)}-${h.slice(20)}`;
};

export function seedChat(s: SeedContext): ChatSlice {
  const contacts: ContactRec[] = PEOPLE.map(
    ([first, last, kind, company, dept, title, location, presence]) => ({
      id: s.rng.id(22, `${ALNUM}-_`),
      member_id: s.rng.id(46, ALNUM),
      email:
        kind === 'company'
          ? `${first.toLowerCase()}.${last.toLowerCase()}@meridianfleet.example`
          : `${first.toLowerCase()}.${last.toLowerCase()}@${EXTERNAL_DOMAINS[company] ?? 'example.com'}`,
      first_name: first,
      last_name: last,
      kind,
      company,
      dept,
      job_title: title,
      location,
      phone: `${kind === 'company' ? '312' : '219'}555${s.rng.digits(4)}`,
      extension: kind === 'company' ? String(s.rng.int(100, 199)) : '',
      direct_number: kind === 'company' ? `+1312555${s.rng.digits(4)}` : '',
      presence,
    }),
  );
  const demoMemberId = s.rng.id(46, ALNUM);
  const emailOf = (who: string) => {
    if (who === 'A') return s.demo.email;
    const c = contacts.find((x) => x.first_name === WHO[who]);
    return c?.email ?? s.demo.email;
  };
  const messages: MessageRec[] = [];
  const sink: LineSink = { s, contacts, emailOf, messages };
  const addLines = (l: Line[], where: Where, members: string[]) => addMessages(sink, l, where, members);
  const channels: ChannelRec[] = CHANNELS.map((c) => {
    const id = s.rng.id(32, HEX);
    addLines(c.lines, { channel: id }, c.members);
    return {
      id,
      name: c.name,
      type: c.type,
      members: c.members.map(emailOf),
      settings: {
        posting_permissions: c.posting,
        add_member_permissions: c.type >= 3 ? 1 : 2,
        mention_all_permissions: c.name === 'general' ? 2 : 1,
        allow_to_add_external_users: c.type === 3 ? 0 : 3,
        new_members_can_see_previous_messages_files: true,
      },
    };
  });
  for (const dm of DMS) addLines(dm.lines, { contact: emailOf(dm.with) }, ['A', dm.with]);
  const rooms: RoomRec[] = [
    { member_id: s.rng.id(46, ALNUM), name: 'Chicago HQ - Boardroom', location: 'Chicago, IL' },
    { member_id: s.rng.id(46, ALNUM), name: 'Joliet Yard - Dispatch Huddle', location: 'Joliet, IL' },
  ];
  return { demoMemberId, contacts, rooms, channels, messages };
}

type Where = { channel: string } | { contact: string };

/** What writing a conversation's lines needs: the seed, the contacts, who a letter is, and where messages go. */
interface LineSink {
  s: SeedContext;
  contacts: ContactRec[];
  emailOf: (who: string) => string;
  messages: MessageRec[];
}

/** One conversation's lines as messages: times through the day, replies under the last main message, files, reactions, mentions. */
function addMessages(sink: LineSink, lines: Line[], where: Where, members: string[]): void {
  const { s, contacts, emailOf, messages } = sink;
  let lastDay = Number.NaN;
  let t = 0;
  let main: MessageRec | undefined;
  for (const [day, who, text, opts = {}] of lines) {
    if (day !== lastDay) {
      // Early-morning dispatch on the current day, office hours (US Central) before that.
      t = Date.parse(s.at(day, day === 0 ? 10 : 13, 0)) + s.rng.int(0, 150) * 60_000;
      lastDay = day;
    } else {
      t += s.rng.int(4, 75) * 60_000;
    }
    const m: MessageRec = {
      id: uuidFrom(s),
      ...where,
      sender: emailOf(who),
      message: text,
      ts: t + s.rng.int(0, 59_999),
      message_type: opts.file?.[2] ?? 'plain_text_message',
    };
    if (opts.reply && main) m.reply_main_message_id = main.id;
    else main = m;
    if (opts.file)
      m.files = [{ file_id: s.rng.id(22, `${ALNUM}-_`), file_name: opts.file[0], file_size: opts.file[1] }];
    if (opts.react) {
      const others = members.filter((x) => x !== who).slice(0, s.rng.int(1, 3));
      m.reactions = [{ emoji: opts.react, senders: others.map(emailOf) }];
    }
    if (opts.at) {
      const name = `@${WHO[opts.at] ?? ''} ${contacts.find((c) => c.first_name === WHO[opts.at ?? ''])?.last_name ?? ''}`;
      const start = text.indexOf(name);
      m.at_items = [
        {
          at_type: 1,
          at_contact: emailOf(opts.at),
          start_position: Math.max(0, start),
          end_position: Math.max(0, start) + name.length - 1,
        },
      ];
    }
    messages.push(m);
  }
}
