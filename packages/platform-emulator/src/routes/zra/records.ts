/**
 * The revenue-analysis emulator's records (deals, conversations, comments) and the scopes each
 * operation accepts.
 */

export type Business = 'growthos' | 'capital' | 'mortgage' | 'freight';

export interface DealRec {
  id: string;
  name: string;
  business: Business;
  stage: string;
  /** When the deal entered its current stage. */
  stage_since: string;
  description: string;
  /** Owner's email; resolved to the account's user at request time. */
  owner: string;
  closed: boolean;
  private: boolean;
  created: string;
  account: string;
  amount: number;
  close_date: string;
  contacts: { name: string; email: string }[];
  emails: {
    message_id: string;
    subject: string;
    date: string;
    count: number;
    direction: 'inbound' | 'outbound';
  }[];
}

export interface ConversationRec {
  /** `<meeting uuid>,<start ms>`, as the platform forms it. */
  id: string;
  meeting_id: number;
  meeting_uuid: string;
  host: string;
  deal: string;
  topic: string;
  type: 'meeting' | 'phone';
  direction: 'inbound' | 'outbound';
  start_time: string;
  duration_sec: number;
  processed_time: string;
  engagement: number;
  sentiment: number;
  filler: number;
  /** Stage of the deal when the conversation happened. */
  stage: string;
  /** Mentioned topic ids (keys of TOPICS). */
  topics: string[];
  /** Indicator ids that fired. */
  indicators: string[];
  questions: number;
  next_steps: number;
  reps: string[];
  customers: { name: string; email: string }[];
  scored: boolean;
  views: number;
  calendar: 'Google' | 'Outlook' | '';
  event_id: string;
}

export interface CommentRec {
  id: string;
  conversation: string;
  parent: string;
  author: string;
  created: string;
  modified: string;
  comment: string;
  /** Emails of mentioned users. */
  mentions: string[];
  teams: string[];
  private: boolean;
  time_in_recording: string;
}

export interface ZraSlice {
  teams: { id: string; name: string; members: string[] }[];
  indicators: { id: string; name: string; key_word: string }[];
  deals: DealRec[];
  conversations: ConversationRec[];
  comments: CommentRec[];
}

// Scopes as iq.json lists them. The POST comments operation lists the *read* granular scope (a
// documentation slip, it seems); its deprecated /iq twin lists zra:write:conversation_comment,
// so both are accepted.
const CONVERSATION_MACRO = [
  'iq_conversation:read',
  'iq_conversation:write',
  'iq_conversation:read:admin',
  'iq_conversation:write:admin',
];
const DEAL_MACRO = ['iq_deal:read', 'iq_deal:read:admin', 'iq_deal:write', 'iq_deal:write:admin'];
export const ZRA_SCOPES = {
  listConversations: [
    'zra:read:list_conversations',
    'zra:read:list_conversations:admin',
    ...CONVERSATION_MACRO,
  ],
  conversation: ['zra:read:conversations', 'zra:read:conversations:admin', ...CONVERSATION_MACRO],
  analysis: ['zra:read:conversation_analysis', 'zra:read:conversation_analysis:admin', ...CONVERSATION_MACRO],
  comments: [
    'zra:read:list_conversation_comments',
    'zra:read:list_conversation_comments:admin',
    'iq_comment:read',
    'iq_comment:write',
    'iq_comment:read:admin',
    'iq_comment:write:admin',
  ],
  addComment: [
    'zra:read:list_conversation_comments',
    'zra:read:list_conversation_comments:admin',
    'zra:write:conversation_comment',
    'zra:write:conversation_comment:admin',
    'iq_comment:write',
    'iq_comment:write:admin',
  ],
  deals: ['zra:read:list_deals', 'zra:read:list_deals:admin', ...DEAL_MACRO],
  deal: ['zra:read:deal', 'zra:read:deal:admin', ...DEAL_MACRO],
  activities: ['zra:read:list_deal_activities', 'zra:read:list_deal_activities:admin', ...DEAL_MACRO],
};
