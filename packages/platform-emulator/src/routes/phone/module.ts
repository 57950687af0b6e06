/** Zoom Phone: the module definition; registers the call routes, then the voicemail/recording routes. */
import { defineModule } from '../../context.js';
import { phoneHelpers } from './helpers.js';
import { registerCallRoutes } from './routes-calls.js';
import { registerMediaRoutes } from './routes-media.js';
import { seedPhone } from './seed.js';
import { phoneShapes } from './shapes.js';
import type { PhoneSlice } from './types.js';

export const phoneModule = defineModule<PhoneSlice>({
  name: 'phone',
  seed: seedPhone,
  register(ctx) {
    const h = phoneHelpers(ctx);
    const sh = phoneShapes(ctx, h);
    registerCallRoutes(ctx, h, sh);
    registerMediaRoutes(ctx, h, sh);
  },
});
