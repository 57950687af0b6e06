/**
 * Every capability, by group file, in the seed's order (a contract: the status report, the
 * monitor, the capability list and tools/list all follow it): the operations and the capabilities
 * the platform offers no public endpoint for.
 */
import type { Declared } from '../operation.js';
import { aiOps, aiUnoffered } from './ai.js';
import { calendarOps } from './calendar.js';
import { chatOps } from './chat.js';
import { clipsOps, clipsUnoffered } from './clips.js';
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

export const DECLARED: readonly Declared[] = [
  ...meetingsOps,
  ...calendarOps,
  ...recordingsOps,
  ...contactsOps,
  ...conversationOps,
  ...aiOps,
  ...aiUnoffered,
  ...chatOps,
  ...clipsOps,
  ...clipsUnoffered,
  ...phoneOps,
  ...raOps,
  ...hubOps,
  ...videoEventsOps,
  ...marketplaceOps,
  ...emailOps,
];
