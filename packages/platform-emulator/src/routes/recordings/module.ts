/** The recordings module: its slice (only what the API changed), the `recording.completed` webhook on demand, and its routes. */
import { defineModule } from '../../context.js';
import type { MeetingsSlice } from '../meetings.js';
import { registerDownloadRoute } from './routes-download.js';
import { registerRecordingRoutes } from './routes-recordings.js';
import { registerTranscriptRoutes } from './routes-transcripts.js';
import type { RecordingsSlice } from './state.js';
import { emitRecordingCompleted } from './tokens.js';

export const recordingsModule = defineModule<RecordingsSlice>({
  name: 'recordings',
  emit(ctx, event, object) {
    if (event !== 'recording.completed' || object['id'] === undefined) return false;
    const m = ctx
      .slice<MeetingsSlice>('meetings')
      .meetings.find((x) => String(x.id) === String(object['id']));
    if (!m) return false;
    emitRecordingCompleted(ctx, m);
    return true;
  },
  seed: () => ({ trashed: {}, trashedFiles: {}, deleted: [], deletedFiles: [] }),
  register(ctx) {
    registerRecordingRoutes(ctx);
    registerTranscriptRoutes(ctx);
    registerDownloadRoute(ctx);
  },
});
