/**
 * Every emulated API group, in registration order.
 */
import type { EmulatorModule } from '../context.js';
import { calendarModule } from './calendar.js';
import { chatModule } from './chat.js';
import { clipsModule } from './clips.js';
import { docsModule } from './docs.js';
import { mailModule } from './mail.js';
import { marketplaceModule } from './marketplace.js';
import { meetingsModule } from './meetings.js';
import { phoneModule } from './phone.js';
import { recordingsModule } from './recordings.js';
import { usersModule } from './users.js';
import { zoomEventsModule } from './zoom-events.js';
import { zraModule } from './zra.js';

export const EMULATOR_MODULES: EmulatorModule[] = [
  usersModule,
  meetingsModule,
  recordingsModule,
  calendarModule,
  chatModule,
  clipsModule,
  phoneModule,
  zraModule,
  docsModule,
  zoomEventsModule,
  marketplaceModule,
  mailModule,
] as EmulatorModule[];
