/** Which recordings exist and in what state, and their wire shapes for the REST API and webhooks. */
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import type { MeetingRec } from '../meetings.js';
import { digest, windowOf } from './content.js';
import { fileBytes, fileIdOf, fileName, KINDS, opaque, type Kind } from './files.js';
import { slice, type RecordingsSlice } from './state.js';

/** Whether the meeting has ended with cloud recording on, so the platform made a recording. */
export function hasCloudRecording(m: MeetingRec, now: Date): boolean {
  if (m.settings['auto_recording'] !== 'cloud') return false;
  if (m.status === 'ended') return true;
  return m.status !== 'started' && Date.parse(m.start_time) + m.duration * 60_000 < now.getTime();
}

export interface FileView {
  kind: Kind;
  id: string;
  start: string;
  end: string;
  size: number;
  state: 'active' | 'trashed' | 'deleted';
  deletedTime?: string;
}

/** Every file of the meeting's recording with its state; [] when there is no recording at all. */
export function recordingFiles(m: MeetingRec, slice: RecordingsSlice, now: Date): FileView[] {
  if (!hasCloudRecording(m, now)) return [];
  const { start, end } = windowOf(m);
  const kinds: Kind[] = [
    'mp4',
    'm4a',
    'transcript',
    'chat',
    ...(m.has_summary ? (['summary'] as Kind[]) : []),
  ];
  const gone = slice.deleted.includes(m.uuid);
  const trashedAt = slice.trashed[m.uuid];
  return kinds.map((kind) => {
    const id = fileIdOf(m, kind);
    const own = slice.trashedFiles[id];
    const state =
      gone || slice.deletedFiles.includes(id) ? 'deleted' : trashedAt || own ? 'trashed' : 'active';
    const deletedTime = trashedAt ?? own;
    return {
      kind,
      id,
      start: zoomTime(new Date(start)),
      end: zoomTime(new Date(end)),
      size: fileBytes(m, kind).length,
      state,
      ...(state === 'trashed' && deletedTime ? { deletedTime } : {}),
    };
  });
}

/** Whether the meeting's transcript can still be read (it exists and is neither trashed nor deleted). */
export function transcriptAvailable(m: MeetingRec, slice: RecordingsSlice, now: Date): boolean {
  return recordingFiles(m, slice, now).some((f) => f.kind === 'transcript' && f.state === 'active');
}

const typeString = (t: number) =>
  ['1', '2', '3', '4', '5', '6', '7', '8', '9', '99'].includes(String(t)) ? String(t) : '2';
const typeNumber = (t: number) => Number(typeString(t));

export function fileObject(ctx: EmulatorContext, m: MeetingRec, f: FileView, withDeletedTime: boolean) {
  const k = KINDS[f.kind];
  return {
    id: f.id,
    meeting_id: m.uuid,
    recording_start: f.start,
    recording_end: f.end,
    file_type: k.fileType,
    file_extension: k.ext,
    file_size: f.size,
    play_url: `${ctx.baseUrl}/rec/play/${opaque(`${f.id}|play`, 43)}`,
    download_url: `${ctx.baseUrl}/v2/rec/download/${f.id}`,
    status: 'completed',
    recording_type: k.recordingType,
    ...(withDeletedTime && f.deletedTime ? { deleted_time: f.deletedTime } : {}),
  };
}

/** The file as webhooks carry it: no deleted_time, plus file_name. */
function webhookFile(ctx: EmulatorContext, m: MeetingRec, f: FileView) {
  return { ...fileObject(ctx, m, f, false), file_name: fileName(m, f.kind) };
}

const shareUrl = (ctx: EmulatorContext, m: MeetingRec) =>
  `${ctx.baseUrl}/rec/share/${opaque(`${m.uuid}|share`, 64)}`;
const playPasscode = (m: MeetingRec) => opaque(`${m.uuid}|passcode`, 32);
export const recordingPassword = (m: MeetingRec) => {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789.@*+';
  return [...digest(`${m.uuid}|password`).subarray(0, 8)].map((b) => alphabet[b % alphabet.length]).join('');
};

export function recordingHead(ctx: EmulatorContext, m: MeetingRec, files: FileView[]) {
  return {
    uuid: m.uuid,
    id: m.id,
    account_id: ctx.demo.accountId,
    host_id: ctx.demo.id,
    topic: m.topic,
    type: typeString(m.type),
    start_time: m.start_time,
    timezone: m.timezone,
    duration: m.duration,
    total_size: files.reduce((n, f) => n + f.size, 0),
    recording_count: files.length,
    share_url: shareUrl(ctx, m),
    recording_play_passcode: playPasscode(m),
    auto_delete: false,
  };
}

/** The base of the platform's recording webhook objects (`type` is a number there). */
export function webhookHead(ctx: EmulatorContext, m: MeetingRec, files: FileView[]) {
  return {
    id: m.id,
    uuid: m.uuid,
    host_id: ctx.demo.id,
    account_id: ctx.demo.accountId,
    topic: m.topic,
    type: typeNumber(m.type),
    start_time: m.start_time,
    timezone: m.timezone,
    duration: m.duration,
    share_url: shareUrl(ctx, m),
    total_size: files.reduce((n, f) => n + f.size, 0),
    recording_count: files.length,
    recording_files: files.map((f) => webhookFile(ctx, m, f)),
  };
}

/**
 * The `recording.completed` webhook object for a meeting with a cloud recording (the transcript
 * comes later, in `recording.transcript_completed`, as on the platform). Send it with
 * {@link emitRecordingCompleted}, which adds the top-level `download_token`.
 */
export function recordingCompletedObject(ctx: EmulatorContext, m: MeetingRec) {
  const files = recordingFiles(m, slice(ctx), ctx.now()).filter(
    (f) => f.state === 'active' && f.kind !== 'transcript',
  );
  return {
    ...webhookHead(ctx, m, files),
    host_email: ctx.demo.email,
    password: recordingPassword(m),
    on_prem: false,
    recording_play_passcode: playPasscode(m),
    auto_delete: false,
  };
}

/** The `recording.transcript_completed` webhook object: the transcript file alone. */
export function transcriptCompletedObject(ctx: EmulatorContext, m: MeetingRec) {
  const files = recordingFiles(m, slice(ctx), ctx.now()).filter(
    (f) => f.state === 'active' && f.kind === 'transcript',
  );
  return { ...webhookHead(ctx, m, files), host_email: ctx.demo.email, password: recordingPassword(m) };
}
