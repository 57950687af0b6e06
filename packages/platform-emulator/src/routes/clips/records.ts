/** The clips slice's records, the scopes of its routes and the clip statuses. */
export type ClipStatus =
  'RECORD_START' | 'RECORD_FAILED' | 'RECORD_END' | 'RECORD_SUCCESS' | 'RECORD_DELETE' | 'SUSPENDED';
export type ShareScope = 'ANYONE' | 'SAME_ORGANIZATON' | 'INVITED_MEMBERS_ONLY' | 'PRIVATE';

export interface ClipRec {
  clip_id: string;
  title: string;
  description: string;
  /** Seconds. */
  duration: number;
  status: ClipStatus;
  file_size: number;
  share_scope: ShareScope;
  passcode: string;
  enable_passcode: boolean;
  thumb_id: string;
  /** Epoch ms. */
  created: number;
  modified: number;
}

export interface CommentRec {
  comment_id: string;
  author: string;
  author_email: string;
  avatar_id: string;
  content: string;
  mentions: { display_name: string; email: string }[];
  created: number;
  modified: number;
  parent?: string;
}

export interface ClipsSlice {
  clips: ClipRec[];
  comments: Record<string, CommentRec[]>;
}

export const SCOPES = {
  list: ['clips:read:list_user_clips', 'clips:read:list_user_clips:admin', 'clips:read', 'clips:read:admin'],
  get: ['clips:read:clip', 'clips:read:clip:admin', 'clips:read', 'clips:read:admin'],
  delete: ['clips:delete:clip', 'clips:delete:clip:admin', 'clips:write', 'clips:write:admin'],
  comments: ['clips:read:list_comments', 'clips:read:list_comments:admin', 'clips:read', 'clips:read:admin'],
};
/** With one of these, `user_id` may name any user of the account; otherwise only `me`. */
export const ADMIN_LIST_SCOPES = [
  'clips:read:list_user_clips:admin',
  'clips:read:list_user_clips:master',
  'clips:read:admin',
];

export const STATUSES: ClipStatus[] = [
  'RECORD_START',
  'RECORD_FAILED',
  'RECORD_END',
  'RECORD_SUCCESS',
  'RECORD_DELETE',
  'SUSPENDED',
];

export const DAY = 86_400_000;
