/**
 * Cloud recording routes: list the user's recordings (by day, or what is in the trash), one
 * meeting's recordings, trash or delete them (whole or one file) and recover them.
 */
import { body, p, q, zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import type { MeetingRec } from '../meetings.js';
import { dayOf, monthBefore, SCOPES, validDate } from './scopes.js';
import {
  fileObject,
  recordingFiles,
  recordingHead,
  recordingPassword,
  webhookHead,
  type FileView,
} from './shapes.js';
import { slice } from './state.js';
import { recordingDownloadToken } from './tokens.js';
import { actionOf, meetingOr, meetings, operatorOf, removeFiles } from './lookups.js';

export function registerRecordingRoutes(ctx: EmulatorContext): void {
  getRecordings(ctx);
  getMeetingRecordings(ctx);
  deleteMeetingRecordings(ctx);
  putMeetingRecordingsStatus(ctx);
  deleteRecordingFile(ctx);
  putRecordingFileStatus(ctx);
}

function getRecordings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/users/:userId/recordings',
    scopes: SCOPES.list,
    label: 'MEDIUM',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      const errors: { field: string; message: string }[] = [];
      const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
      const rawFrom = q(req, 'from');
      const rawTo = q(req, 'to');
      const trashRaw = q(req, 'trash') ?? 'false';
      const trashType = q(req, 'trash_type') ?? 'meeting_recordings';
      const meetingId = q(req, 'meeting_id');
      if (rawFrom !== undefined && !validDate(rawFrom)) bad('from');
      if (rawTo !== undefined && !validDate(rawTo)) bad('to');
      if (trashRaw !== 'true' && trashRaw !== 'false') bad('trash');
      if (trashType !== 'meeting_recordings' && trashType !== 'recording_file') bad('trash_type');
      if (meetingId !== undefined && !/^\d+$/.test(meetingId)) bad('meeting_id');
      if (errors.length) throw zerr.validation(errors);
      const today = dayOf(ctx.now());
      const tomorrow = dayOf(new Date(ctx.now().getTime() + 86_400_000));
      // Defaults as documented: today..tomorrow. The platform answers at most one month,
      // ending at `to`: an older `from` is moved up (and echoed back), not rejected.
      const to = rawTo ?? tomorrow;
      let from = rawFrom ?? (rawTo !== undefined && rawTo < today ? rawTo : today);
      if (from > to) throw zerr.validation([{ field: 'to', message: 'Invalid field.' }]);
      if (from < monthBefore(to)) from = monthBefore(to);
      const trash = trashRaw === 'true';
      const now = ctx.now();
      const rows: { m: MeetingRec; files: FileView[] }[] = [];
      for (const m of meetings(ctx)) {
        if (meetingId !== undefined && String(m.id) !== meetingId) continue;
        const all = recordingFiles(m, slice(ctx), now);
        if (!all.length) continue;
        let files: FileView[];
        if (!trash) {
          // Trashed files cannot be filtered by date; live ones are by their UTC start day.
          const day = m.start_time.slice(0, 10);
          if (day < from || day > to) continue;
          files = all.filter((f) => f.state === 'active');
        } else if (trashType === 'meeting_recordings') {
          files = slice(ctx).trashed[m.uuid] ? all.filter((f) => f.state === 'trashed') : [];
        } else {
          files = slice(ctx).trashed[m.uuid] ? [] : all.filter((f) => f.state === 'trashed');
        }
        if (files.length) rows.push({ m, files });
      }
      rows.sort((a, b) => b.m.start_time.localeCompare(a.m.start_time));
      const page = ctx.paginate(req, rows, { defaultSize: 30, maxSize: 300 });
      return {
        from,
        to,
        page_count: Math.max(1, Math.ceil(page.totalRecords / page.pageSize)),
        page_size: page.pageSize,
        total_records: page.totalRecords,
        next_page_token: page.nextPageToken,
        meetings: page.items.map(({ m, files }) => ({
          ...recordingHead(ctx, m, files),
          recording_files: files.map((f) => fileObject(ctx, m, f, trash)),
        })),
      };
    },
  });
}

function getMeetingRecordings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'GET',
    url: '/meetings/:meetingId/recordings',
    scopes: SCOPES.get,
    label: 'LIGHT',
    handler: (req) => {
      const m = meetingOr(ctx, req, zerr.noRecording);
      const include = (q(req, 'include_fields') ?? '').split(',').map((s) => s.trim());
      const ttlRaw = q(req, 'ttl');
      const ttl = ttlRaw === undefined ? 86_400 : Number(ttlRaw);
      if (!Number.isInteger(ttl) || ttl < 0 || ttl > 604_800)
        throw zerr.validation([{ field: 'ttl', message: 'Invalid field.' }]);
      const files = recordingFiles(m, slice(ctx), ctx.now()).filter((f) => f.state === 'active');
      if (!files.length) throw zerr.noRecording();
      return {
        ...recordingHead(ctx, m, files),
        recording_files: files.map((f) => fileObject(ctx, m, f, false)),
        password: recordingPassword(m),
        ...(include.includes('download_access_token')
          ? { download_access_token: recordingDownloadToken(ctx, m, ttl) }
          : {}),
      };
    },
  });
}

function deleteMeetingRecordings(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/meetings/:meetingId/recordings',
    scopes: SCOPES.delete,
    label: 'LIGHT',
    handler: (req, reply) => {
      const action = actionOf(req);
      const m = meetingOr(ctx, req, zerr.noRecording);
      const all = recordingFiles(m, slice(ctx), ctx.now());
      // Trashing needs live files; deleting for good also takes what is in the trash.
      const files = all.filter((f) => f.state === 'active' || (action === 'delete' && f.state === 'trashed'));
      if (!files.length) throw zerr.noRecording();
      removeFiles(ctx, m, files, action, true);
      return reply.code(204).send();
    },
  });
}

function putMeetingRecordingsStatus(ctx: EmulatorContext): void {
  ctx.route({
    method: 'PUT',
    url: '/meetings/:meetingId/recordings/status',
    scopes: SCOPES.recover,
    label: 'LIGHT',
    handler: (req, reply) => {
      const b = body(req);
      if (b['action'] !== 'recover') throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
      const m = meetingOr(ctx, req, zerr.noRecording);
      const files = recordingFiles(m, slice(ctx), ctx.now()).filter((f) => f.state === 'trashed');
      if (!files.length) throw zerr.noRecording();
      const s = slice(ctx);
      delete s.trashed[m.uuid];
      for (const f of files) delete s.trashedFiles[f.id];
      ctx.changed();
      ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, files), operatorOf(ctx));
      return reply.code(200).send();
    },
  });
}

function deleteRecordingFile(ctx: EmulatorContext): void {
  ctx.route({
    method: 'DELETE',
    url: '/meetings/:meetingId/recordings/:recordingId',
    scopes: SCOPES.deleteFile,
    label: 'LIGHT',
    handler: (req, reply) => {
      const action = actionOf(req);
      const m = meetingOr(ctx, req, zerr.noRecording);
      const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
      if (!f || f.state === 'deleted' || (action === 'trash' && f.state === 'trashed'))
        throw zerr.noRecording();
      removeFiles(ctx, m, [f], action, false);
      return reply.code(204).send();
    },
  });
}

function putRecordingFileStatus(ctx: EmulatorContext): void {
  ctx.route({
    method: 'PUT',
    url: '/meetings/:meetingId/recordings/:recordingId/status',
    scopes: SCOPES.recoverFile,
    label: 'LIGHT',
    handler: (req, reply) => {
      const b = body(req);
      if (b['action'] !== 'recover') throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
      const m = meetingOr(ctx, req, zerr.noRecording);
      const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
      // A file trashed with its whole recording comes back with PUT …/recordings/status.
      if (!f || f.state !== 'trashed' || slice(ctx).trashed[m.uuid]) throw zerr.noRecording();
      delete slice(ctx).trashedFiles[f.id];
      ctx.changed();
      ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, [f]), operatorOf(ctx));
      return reply.code(204).send();
    },
  });
}
