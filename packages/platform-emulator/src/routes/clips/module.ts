/** The clips module: its seed, then the clip routes and the comment routes. */
import { defineModule } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import type { ClipsSlice } from './records.js';
import { registerClipRoutes } from './routes-clips.js';
import { registerCommentRoutes } from './routes-comments.js';
import { seedClips } from './seed.js';

export const clipsModule = defineModule<ClipsSlice>({
  name: 'clips',
  seed: seedClips,
  register(ctx: EmulatorContext) {
    registerClipRoutes(ctx);
    registerCommentRoutes(ctx);
  },
});
