/** What the recording routes share: the meeting asked for, the action asked for, trashing or deleting files, the transcript. */
import { p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import { zoomTime } from '../../time.js';
import { findMeeting, type MeetingRec, type MeetingsSlice } from '../meetings.js';
import { recordingFiles, webhookHead, type FileView } from './shapes.js';
import { slice } from './state.js';

export const meetings = (ctx: EmulatorContext) => ctx.slice<MeetingsSlice>('meetings').meetings;

/** Who did it, for the webhooks: the demo user. */
export const operatorOf = (ctx: EmulatorContext) => ({ operator: ctx.demo.email, operator_id: ctx.demo.id });

/** The meeting, or the given error when it does not exist (the platform answers with its recording codes). */
export function meetingOr(ctx: EmulatorContext, req: EmulatorRequest, err: () => ZoomError): MeetingRec {
  try {
    return findMeeting(ctx, p(req, 'meetingId'));
  } catch (e) {
    if (e instanceof ZoomError && e.code === 3001) throw err();
    throw e;
  }
}

/** Trash (default) or delete for good some of a meeting's files, and tell the webhook. */
export function removeFiles(
  ctx: EmulatorContext,
  m: MeetingRec,
  files: FileView[],
  action: string,
  whole: boolean,
): void {
  const s = slice(ctx);
  const stamp = zoomTime(ctx.now());
  if (action === 'trash') {
    if (whole) s.trashed[m.uuid] = stamp;
    else for (const f of files) s.trashedFiles[f.id] = stamp;
  } else if (whole) {
    s.deleted.push(m.uuid);
    delete s.trashed[m.uuid];
  } else {
    for (const f of files) {
      s.deletedFiles.push(f.id);
      delete s.trashedFiles[f.id];
    }
  }
  ctx.changed();
  ctx.webhooks.emit(
    action === 'trash' ? 'recording.trashed' : 'recording.deleted',
    webhookHead(ctx, m, files),
    operatorOf(ctx),
  );
}

export function actionOf(req: EmulatorRequest): 'trash' | 'delete' {
  const action = q(req, 'action') ?? 'trash';
  if (action !== 'trash' && action !== 'delete')
    throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
  return action;
}

/** The meeting and its transcript file; 404 when there is none or it was deleted. */
export function transcriptOf(ctx: EmulatorContext, req: EmulatorRequest): { m: MeetingRec; f: FileView } {
  const m = meetingOr(ctx, req, zerr.noTranscript);
  const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.kind === 'transcript');
  if (!f || f.state === 'deleted') throw zerr.noTranscript();
  return { m, f };
}
