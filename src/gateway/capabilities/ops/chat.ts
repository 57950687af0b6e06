/**
 * chat: Team Chat messages of the linked user — reading a channel or a 1:1 chat one day at a
 * time (newest first), and sending a message to a channel or a contact.
 */
import * as z from 'zod';
import { date, defineOp, id, pageOf, pageSchema, paging, seg } from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformChatMessage {
  id?: string;
  message?: string;
  sender?: string;
  sender_display_name?: string;
  date_time?: string;
  message_type?: string;
  reply_main_message_id?: string;
  files?: { file_id?: string; file_name?: string; file_size?: number }[];
}

const chatMessage = z.object({
  id: z.string(),
  message: z.string(),
  sender: z.string().nullable().describe("the sender's email"),
  sender_display_name: z.string().nullable(),
  date_time: z.string().nullable().describe('when it was sent, ISO 8601'),
  message_type: z.string().nullable().describe('the platform message type, e.g. plain_text_message'),
  reply_main_message_id: z.string().nullable().describe('the message this one replies to, in a thread'),
  files: z.array(
    z.object({
      file_id: z.string(),
      file_name: z.string(),
      file_size: z.number().nullable().describe('bytes'),
    }),
  ),
});

const messageOf = (m: PlatformChatMessage): z.output<typeof chatMessage> => ({
  id: m.id ?? '',
  message: m.message ?? '',
  sender: m.sender ?? null,
  sender_display_name: m.sender_display_name ?? null,
  date_time: m.date_time ?? null,
  message_type: m.message_type ?? null,
  reply_main_message_id: m.reply_main_message_id ?? null,
  files: (m.files ?? []).map((f) => ({
    file_id: f.file_id ?? '',
    file_name: f.file_name ?? '',
    file_size: f.file_size ?? null,
  })),
});

const target = {
  channel_id: id('channel_id').optional().describe('Team Chat channel id; give this or contact'),
  contact: z
    .email()
    .max(254)
    .optional()
    .describe('email of the person of a 1:1 chat; give this or channel_id'),
};

/** Exactly one of channel_id and contact. */
const oneTarget = (
  i: { channel_id?: string | undefined; contact?: string | undefined },
  c: z.RefinementCtx,
) => {
  if ((i.channel_id === undefined) === (i.contact === undefined)) {
    c.addIssue({
      code: 'custom',
      path: ['channel_id'],
      message: 'give exactly one of channel_id and contact',
    });
  }
};

const messagesPath = (uid: string) => `/chat/users/${seg(uid)}/messages`;

export const chatOps = [
  defineOp({
    group: 'chat',
    name: 'read_message',
    scopes: granular('team_chat:read:list_user_messages'),
    summary:
      'Reads the Team Chat messages of one day (default: today, UTC) in a channel or in the 1:1 chat with a contact, newest first.',
    kind: 'read',
    input: z
      .object({
        ...target,
        date: date
          .optional()
          .describe('the UTC day to read (a real calendar date), within the last 6 months; default: today'),
        ...paging(50, 20),
      })
      .superRefine(oneTarget),
    output: pageSchema(chatMessage),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ messages?: PlatformChatMessage[]; next_page_token?: string }>({
        method: 'GET',
        path: messagesPath(ctx.uid),
        query: {
          to_channel: i.channel_id,
          to_contact: i.contact,
          date: i.date,
          page_size: i.limit,
          next_page_token: i.cursor,
        },
        label: 'MEDIUM',
        group: 'chat',
      });
      return pageOf((r.data.messages ?? []).map(messageOf), r.data.next_page_token);
    },
  }),

  defineOp({
    group: 'chat',
    name: 'send_message',
    scopes: granular('team_chat:write:user_message'),
    summary: 'Sends a Team Chat message to a channel the user belongs to, or to a contact (by email).',
    kind: 'write',
    creates: true,
    input: z
      .object({
        message: z.string().trim().min(1).max(1024).describe('the text, at most 1024 characters'),
        ...target,
      })
      .superRefine(oneTarget),
    output: z.object({ id: z.string().describe('the new message id') }),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ id?: string }>({
        method: 'POST',
        path: messagesPath(ctx.uid),
        body: {
          message: i.message,
          ...(i.channel_id !== undefined ? { to_channel: i.channel_id } : { to_contact: i.contact }),
        },
        label: 'MEDIUM',
        group: 'chat',
      });
      return { id: r.data.id ?? '' };
    },
  }),
];
