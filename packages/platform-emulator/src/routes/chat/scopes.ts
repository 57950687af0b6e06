/** OAuth scopes of the chat routes and small query/date helpers they share. */

export const SCOPES = {
  listMessages: [
    'team_chat:read:list_user_messages',
    'team_chat:read:list_user_messages:admin',
    'chat_message:read',
    'chat_message:write',
    'chat_message:read:admin',
    'chat_message:write:admin',
  ],
  send: [
    'team_chat:write:user_message',
    'team_chat:write:user_message:admin',
    'chat_message:write',
    'chat_message:write:admin',
  ],
  getMessage: [
    'team_chat:read:user_message',
    'team_chat:read:user_message:admin',
    'chat_message:read',
    'chat_message:read:admin',
    'chat_message:write',
    'chat_message:write:admin',
  ],
  listChannels: [
    'team_chat:read:list_user_channels',
    'team_chat:read:list_user_channels:admin',
    'chat_channel:read',
    'chat_channel:write',
    'chat_channel:read:admin',
    'chat_channel:write:admin',
  ],
  getChannel: [
    'team_chat:read:channel',
    'team_chat:read:channel:admin',
    'chat_channel:read',
    'chat_channel:write',
    'chat_channel:read:admin',
    'chat_channel:write:admin',
  ],
  contacts: ['team_chat:read:list_contacts', 'chat_contact:read'],
  contact: ['team_chat:read:contact', 'chat_contact:read'],
  search: [
    'contact:read:list_contacts',
    'contact:read:list_contacts:admin',
    'contact:read:admin',
    'contact:read',
  ],
};

export const DAY = 86_400_000;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export const bare = (id: string) => id.replace(/^\{|\}$/g, '').toUpperCase();
export const truthy = (v: string | undefined) => v === 'true';
