/** Chat slice records: contacts, rooms, channels, messages, and the person view the routes use. */

export type Presence = 'Available' | 'Away' | 'Do_Not_Disturb' | 'Offline';

export interface ContactRec {
  /** The user id when the contact is on the account (the users module's id wins, matched by email). */
  id: string;
  member_id: string;
  email: string;
  first_name: string;
  last_name: string;
  kind: 'company' | 'external';
  company: string;
  dept: string;
  job_title: string;
  location: string;
  phone: string;
  extension: string;
  direct_number: string;
  presence: Presence;
}

export interface RoomRec {
  member_id: string;
  name: string;
  location: string;
}

export interface ChannelRec {
  id: string;
  name: string;
  type: number;
  members: string[];
  settings: {
    posting_permissions: number;
    add_member_permissions: number;
    mention_all_permissions: number;
    allow_to_add_external_users: number;
    new_members_can_see_previous_messages_files: boolean;
  };
}

export interface FileRec {
  file_id: string;
  file_name: string;
  file_size: number;
}

export interface AtItem {
  at_type: number;
  /** Email of the mentioned contact (type 1). */
  at_contact?: string;
  start_position: number;
  end_position: number;
}

export interface RichText {
  start_position: number;
  end_position: number;
  format_type: string;
  format_attr?: string;
}

export interface MessageRec {
  id: string;
  /** Channel id, for channel messages. */
  channel?: string;
  /** Email of the other person, for 1:1 messages. */
  contact?: string;
  /** Email of the sender. */
  sender: string;
  message: string;
  ts: number;
  message_type: string;
  reply_main_message_id?: string;
  files?: FileRec[];
  reactions?: { emoji: string; senders: string[] }[];
  at_items?: AtItem[];
  rich_text?: RichText[];
  interactive_cards?: { card_id: string; card_json: string }[];
}

export interface ChatSlice {
  demoMemberId: string;
  contacts: ContactRec[];
  rooms: RoomRec[];
  channels: ChannelRec[];
  messages: MessageRec[];
}

export interface Person {
  email: string;
  userId: string;
  memberId: string;
  name: string;
}
