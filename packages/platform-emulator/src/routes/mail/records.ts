/**
 * The mail emulator's records (messages, drafts, threads, labels) and its errors, which carry the
 * HTTP status as `code` as the platform's mail API does.
 */
import { ZoomError } from '../../context.js';

export interface MailMessage {
  id: string;
  threadId: string;
  labelIds: string[];
  /** "Name <address>" or a bare address. */
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** The text/plain body. */
  body: string;
  /** Epoch milliseconds. */
  internalDate: number;
  /** The RFC 2822 Message-ID, with its angle brackets. */
  messageId: string;
  inReplyTo?: string | undefined;
  references?: string[] | undefined;
  historyId: number;
  /** Epoch milliseconds, for a scheduled message. */
  sendTime?: number | undefined;
}

export interface MailDraft {
  id: string;
  messageId: string;
}

export interface MailSlice {
  /** Mailbox creation, epoch seconds. */
  createTime: number;
  historyId: number;
  messages: MailMessage[];
  drafts: MailDraft[];
}

const READ = ['mail:read', 'mail:read:admin'];
const WRITE = ['mail:write', 'mail:write:admin'];
export const MAIL_SCOPES = {
  profile: ['email:read:profile', 'email:read:profile:admin', ...READ],
  listMessages: ['email:read:list_msgs', 'email:read:list_msgs:admin', ...READ],
  getMessage: ['email:read:msg', 'email:read:msg:admin', ...READ],
  send: ['email:write:send_msg', 'email:write:send_msg:admin', ...WRITE],
  createDraft: ['email:write:draft', 'email:write:draft:admin', ...WRITE],
  listDrafts: ['email:read:list_drafts', 'email:read:list_drafts:admin', ...READ],
  getDraft: ['email:read:draft', 'email:read:draft:admin', ...READ],
  updateDraft: ['email:update:draft', 'email:update:draft:admin', ...WRITE],
  deleteDraft: ['email:delete:draft', 'email:delete:draft:admin', ...WRITE],
  sendDraft: ['email:write:send_draft', 'email:write:send_draft:admin', ...WRITE],
  listThreads: ['email:read:list_threads', 'email:read:list_threads:admin', ...READ],
  getThread: ['email:read:thread', 'email:read:thread:admin', ...READ],
};

/** Mail errors: the code is the HTTP status, with the platform's messages. */
export const mailErr = {
  bad: () => new ZoomError(400, 400, 'Invalid Request.'),
  notFound: () => new ZoomError(404, 404, 'Not Found.'),
};
