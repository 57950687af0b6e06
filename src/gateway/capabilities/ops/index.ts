/**
 * Every capability operation, by group file.
 */
import type { Operation } from '../operation.js';
import { clipsOps } from './clips.js';
import { contactsOps } from './contacts.js';
import { conversationOps } from './conversation.js';
import { meetingsOps } from './meetings.js';
import { phoneOps } from './phone.js';
import { recordingsOps } from './recordings.js';

export const OPERATIONS: readonly Operation[] = [
  ...meetingsOps,
  ...recordingsOps,
  ...contactsOps,
  ...conversationOps,
  ...clipsOps,
  ...phoneOps,
];
