/**
 * Team Chat and contacts: the demo user's channels, the messages in them and in 1:1 chats
 * (newest first, one day at a time, only the last 6 months), sending messages (201 `{id}` and
 * the `chat_message.sent` webhook), one message, one channel, the user's company and external
 * contacts, and the company directory search (`GET /contacts`).
 */
export type { ContactRec, RoomRec, ChannelRec, MessageRec, ChatSlice } from './chat/types.js';
export { chatModule } from './chat/module.js';
