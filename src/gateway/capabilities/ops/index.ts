/**
 * Every capability operation, by group file.
 */
import type { Operation } from '../operation.js';
import { aiOps } from './ai.js';
import { calendarOps } from './calendar.js';
import { chatOps } from './chat.js';
import { clipsOps } from './clips.js';
import { contactsOps } from './contacts.js';
import { conversationOps } from './conversation.js';
import { emailOps } from './email.js';
import { hubOps } from './hub.js';
import { marketplaceOps } from './marketplace.js';
import { meetingsOps } from './meetings.js';
import { phoneOps } from './phone.js';
import { raOps } from './ra.js';
import { recordingsOps } from './recordings.js';
import { videoEventsOps } from './video-events.js';

export const OPERATIONS: readonly Operation[] = [
  ...meetingsOps,
  ...calendarOps,
  ...recordingsOps,
  ...contactsOps,
  ...conversationOps,
  ...aiOps,
  ...chatOps,
  ...clipsOps,
  ...phoneOps,
  ...raOps,
  ...hubOps,
  ...videoEventsOps,
  ...marketplaceOps,
  ...emailOps,
];
