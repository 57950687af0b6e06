/** The chat module: its slice, seed and route registration (messages, then channels and contacts). */
import { defineModule } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { registerContactRoutes } from './routes-contacts.js';
import { registerMessageRoutes } from './routes-messages.js';
import { seedChat } from './seed.js';
import { chatShapes } from './shapes.js';
import type { ChatSlice } from './types.js';

export const chatModule = defineModule<ChatSlice>({
  name: 'chat',
  seed: seedChat,
  register(ctx: EmulatorContext) {
    const h = chatShapes(ctx);
    registerMessageRoutes(ctx, h);
    registerContactRoutes(ctx, h);
  },
});
