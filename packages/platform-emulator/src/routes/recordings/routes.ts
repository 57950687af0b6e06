/** The recordings module: REST routes to list, get, trash, delete and recover recordings and transcripts, and downloads. */
import { body, defineModule, p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorRequest } from '../../context.js';
import { zoomTime } from '../../time.js';
import { findMeeting, type MeetingRec, type MeetingsSlice } from '../meetings.js';
import { dayOf, DOWNLOAD_SCOPES, monthBefore, SCOPES, validDate } from './scopes.js';
import {
  fileObject,
  recordingFiles,
  recordingHead,
  recordingPassword,
  webhookHead,
  type FileView,
} from './shapes.js';
import { slice, type RecordingsSlice } from './state.js';
import { emitRecordingCompleted, recordingDownload, recordingDownloadToken } from './tokens.js';

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
    const meetings = () => ctx.slice<MeetingsSlice>('meetings').meetings;
    const operator = { operator: ctx.demo.email, operator_id: ctx.demo.id };

    /** The meeting, or the given error when it does not exist (the platform answers with its recording codes). */
    const meetingOr = (req: EmulatorRequest, err: () => ZoomError): MeetingRec => {
      try {
        return findMeeting(ctx, p(req, 'meetingId'));
      } catch (e) {
        if (e instanceof ZoomError && e.code === 3001) throw err();
        throw e;
      }
    };

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
        for (const m of meetings()) {
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

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/recordings',
      scopes: SCOPES.get,
      label: 'LIGHT',
      handler: (req) => {
        const m = meetingOr(req, zerr.noRecording);
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

    /** Trash (default) or delete for good some of a meeting's files, and tell the webhook. */
    const remove = (m: MeetingRec, files: FileView[], action: string, whole: boolean) => {
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
        operator,
      );
    };
    const actionOf = (req: EmulatorRequest) => {
      const action = q(req, 'action') ?? 'trash';
      if (action !== 'trash' && action !== 'delete')
        throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
      return action;
    };

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/recordings',
      scopes: SCOPES.delete,
      label: 'LIGHT',
      handler: (req, reply) => {
        const action = actionOf(req);
        const m = meetingOr(req, zerr.noRecording);
        const all = recordingFiles(m, slice(ctx), ctx.now());
        // Trashing needs live files; deleting for good also takes what is in the trash.
        const files = all.filter(
          (f) => f.state === 'active' || (action === 'delete' && f.state === 'trashed'),
        );
        if (!files.length) throw zerr.noRecording();
        remove(m, files, action, true);
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/meetings/:meetingId/recordings/status',
      scopes: SCOPES.recover,
      label: 'LIGHT',
      handler: (req, reply) => {
        const b = body(req);
        if (b['action'] !== 'recover')
          throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
        const m = meetingOr(req, zerr.noRecording);
        const files = recordingFiles(m, slice(ctx), ctx.now()).filter((f) => f.state === 'trashed');
        if (!files.length) throw zerr.noRecording();
        const s = slice(ctx);
        delete s.trashed[m.uuid];
        for (const f of files) delete s.trashedFiles[f.id];
        ctx.changed();
        ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, files), operator);
        return reply.code(200).send();
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/recordings/:recordingId',
      scopes: SCOPES.deleteFile,
      label: 'LIGHT',
      handler: (req, reply) => {
        const action = actionOf(req);
        const m = meetingOr(req, zerr.noRecording);
        const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
        if (!f || f.state === 'deleted' || (action === 'trash' && f.state === 'trashed'))
          throw zerr.noRecording();
        remove(m, [f], action, false);
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'PUT',
      url: '/meetings/:meetingId/recordings/:recordingId/status',
      scopes: SCOPES.recoverFile,
      label: 'LIGHT',
      handler: (req, reply) => {
        const b = body(req);
        if (b['action'] !== 'recover')
          throw zerr.validation([{ field: 'action', message: 'Invalid field.' }]);
        const m = meetingOr(req, zerr.noRecording);
        const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.id === p(req, 'recordingId'));
        // A file trashed with its whole recording comes back with PUT …/recordings/status.
        if (!f || f.state !== 'trashed' || slice(ctx).trashed[m.uuid]) throw zerr.noRecording();
        delete slice(ctx).trashedFiles[f.id];
        ctx.changed();
        ctx.webhooks.emit('recording.recovered', webhookHead(ctx, m, [f]), operator);
        return reply.code(204).send();
      },
    });

    const transcriptOf = (req: EmulatorRequest) => {
      const m = meetingOr(req, zerr.noTranscript);
      const f = recordingFiles(m, slice(ctx), ctx.now()).find((x) => x.kind === 'transcript');
      if (!f || f.state === 'deleted') throw zerr.noTranscript();
      return { m, f };
    };

    ctx.route({
      method: 'GET',
      url: '/meetings/:meetingId/transcript',
      scopes: SCOPES.transcript,
      label: 'MEDIUM',
      handler: (req) => {
        const { m, f } = transcriptOf(req);
        return {
          meeting_id: m.uuid,
          account_id: ctx.demo.accountId,
          meeting_topic: m.topic,
          host_id: ctx.demo.id,
          transcript_created_time: zoomTime(new Date(Date.parse(f.end) + 180_000)),
          can_download: f.state === 'active',
          auto_delete: false,
          ...(f.state === 'active'
            ? { download_url: `${ctx.baseUrl}/v2/rec/download/${f.id}` }
            : { download_restriction_reason: 'DELETED_OR_TRASHED' }),
        };
      },
    });

    ctx.route({
      method: 'DELETE',
      url: '/meetings/:meetingId/transcript',
      scopes: SCOPES.deleteTranscript,
      label: 'MEDIUM',
      handler: (req, reply) => {
        const { f } = transcriptOf(req);
        const s = slice(ctx);
        s.deletedFiles.push(f.id);
        delete s.trashedFiles[f.id];
        ctx.changed();
        return reply.code(204).send();
      },
    });

    // Not a documented REST operation: the target of every download_url, as zoom.us/rec/download is.
    ctx.route({
      method: 'GET',
      url: '/rec/download/:fileId',
      scopes: DOWNLOAD_SCOPES,
      label: 'LIGHT',
      handler: (req, reply) => {
        const file = recordingDownload(ctx, p(req, 'fileId'));
        if (!file) throw zerr.noRecording();
        return reply
          .code(200)
          .headers({
            'content-type': file.contentType,
            'content-length': String(file.bytes.length),
            'content-disposition': `attachment; filename="${file.fileName}"`,
          })
          .send(file.bytes);
      },
    });
  },
});
