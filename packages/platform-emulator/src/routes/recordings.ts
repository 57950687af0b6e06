/**
 * Cloud recordings and transcripts. Recordings are not stored: every meeting of the meetings
 * slice that has ended with `settings.auto_recording: 'cloud'` has one, with file ids and
 * content derived from the meeting's UUID, so they are stable across restarts and resets. This
 * slice only remembers what the API changed (trashed and deleted recordings and files).
 *
 * Files are real, small bytes served by `GET /v2/rec/download/{fileId}`: an MP4 and an M4A
 * (ISO-BMFF boxes only), a WebVTT transcript, the chat TXT and the AI summary JSON, with a
 * dialogue about the meeting's topic that the hosted-MCP stand-in searches too.
 */
export type { RecordingsSlice } from './recordings/state.js';
export type { Cue, MeetingContent } from './recordings/content.js';
export { meetingContent } from './recordings/content.js';
export { transcriptVtt } from './recordings/files.js';
export type { FileView } from './recordings/shapes.js';
export {
  hasCloudRecording,
  recordingFiles,
  transcriptAvailable,
  recordingCompletedObject,
  transcriptCompletedObject,
} from './recordings/shapes.js';
export {
  recordingDownloadToken,
  verifyDownloadToken,
  emitRecordingCompleted,
  recordingDownload,
} from './recordings/tokens.js';
export { recordingsModule } from './recordings/module.js';
