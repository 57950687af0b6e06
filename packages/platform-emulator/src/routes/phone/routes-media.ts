/** Zoom Phone: voicemail, recording, AI call summary, audio download and transcript routes. */
import { p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { PHONE_SCOPES } from './constants.js';
import type { PhoneHelpers } from './helpers.js';
import { first, ME, plus } from './seed.js';
import type { PhoneShapes } from './shapes.js';
import { dateWindow, oneOf, truthy } from './validation.js';

export function registerMediaRoutes(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  getVoicemails(ctx, h, sh);
  getVoicemail(ctx, h, sh);
  deleteVoicemail(ctx, h);
  getRecordings(ctx, h, sh);
  getAiCallSummary(ctx, h);
  getVoicemailDownload(ctx, h);
  getRecordingDownload(ctx, h);
  getTranscriptDownload(ctx, h);
  getTranscriptFileDownload(ctx, h);
}

function getVoicemails(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/voice_mails',
    scopes: PHONE_SCOPES.voicemails,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      h.phoneUser(req);
      const w = dateWindow(req, h.now(), 30 * 86_400_000, zerr.badParam);
      const status = oneOf(req, 'status', ['all', 'read', 'unread'] as const, zerr.badParam) ?? 'all';
      // Nothing is ever deleted here, so the trash is empty.
      const trash = truthy(req, 'trash', zerr.badParam) ?? false;
      const items = trash
        ? []
        : h
            .slice()
            .voicemails.filter((v) => {
              const t = Date.parse(v.date_time);
              return (
                t >= w.fromMs && t <= w.toMs && t <= h.now() && (status === 'all' || v.status === status)
              );
            })
            .sort((a, b) => b.date_time.localeCompare(a.date_time));
      const pg = h.page(req, items, 400);
      return {
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
        voice_mails: pg.items.map(sh.voicemailEntry),
      };
    },
  });
}

function getVoicemail(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/voice_mails/:voicemailId',
    scopes: PHONE_SCOPES.voicemail,
    label: 'LIGHT',
    product: 'phone',
    handler: (req) => {
      const v = h.findVoicemail(p(req, 'voicemailId'), 300);
      return {
        ...sh.voicemailEntry(v),
        transcription: { content: v.transcript, status: 2, engine: 'zoom' },
        intent_detect_status: 'success',
        intent_results: [],
      };
    },
  });
}

function deleteVoicemail(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'PATCH',
    url: '/phone/voice_mails/:voicemailId',
    scopes: PHONE_SCOPES.voicemailUpdate,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const v = h.findVoicemail(p(req, 'voicemailId'), 404);
      const status = q(req, 'read_status');
      if (status !== 'Read' && status !== 'Unread')
        throw new ZoomError(400, 400, 'The read status is invalid.');
      v.status = status === 'Read' ? 'read' : 'unread';
      ctx.changed();
      return reply.code(204).send();
    },
  });
}

function getRecordings(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/recordings',
    scopes: PHONE_SCOPES.recordings,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      h.phoneUser(req);
      const w = dateWindow(req, h.now(), 30 * 86_400_000, zerr.badParam);
      const items = h
        .recordings()
        .filter((r) => Date.parse(r.date_time) >= w.fromMs && Date.parse(r.date_time) <= w.toMs)
        .sort((a, b) => b.date_time.localeCompare(a.date_time));
      const pg = h.page(req, items);
      return {
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
        recordings: pg.items.map(sh.recordingEntry),
      };
    },
  });
}

function getAiCallSummary(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'GET',
    url: '/phone/user/:userId/ai_call_summary/:aiCallSummaryId',
    scopes: PHONE_SCOPES.aiSummary,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      h.phoneUser(req);
      const id = p(req, 'aiCallSummaryId');
      const s = h.slice().summaries.find((x) => x.id === id && Date.parse(x.created_time) <= h.now());
      // The platform documents a bare 404 here; this body follows its usual style.
      if (!s) throw new ZoomError(404, 404, `AI call summary does not exist: ${id}.`);
      return {
        ai_call_summary_id: s.id,
        account_id: ctx.demo.accountId,
        call_id: h.callById(s.call)?.call_id ?? '',
        user_id: ctx.demo.id,
        ...(s.rate ? { call_summary_rate: s.rate } : {}),
        transcript_language: 'en',
        call_summary: s.call_summary,
        next_steps: s.next_steps,
        detailed_summary: s.detailed_summary,
        created_time: s.created_time,
        modified_time: s.modified_time,
        edited: s.edited,
      };
    },
  });
}

function getVoicemailDownload(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'GET',
    url: '/phone/voice_mails/download/:fileId',
    scopes: PHONE_SCOPES.voicemail,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req, reply) => {
      const v = h
        .slice()
        .voicemails.find((x) => x.file_id === p(req, 'fileId') && Date.parse(x.date_time) <= h.now());
      if (!v) throw new ZoomError(400, 404, 'File does not exist.');
      return h.sendAudio(reply, `voicemail_${v.id}`);
    },
  });
}

function getRecordingDownload(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'GET',
    url: '/phone/recording/download/:fileId',
    scopes: PHONE_SCOPES.recordingFile,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req, reply) => {
      const r = h.recordings().find((x) => x.file_id === p(req, 'fileId'));
      if (!r) throw new ZoomError(400, 404, 'File does not exist.');
      return h.sendAudio(reply, `recording_${r.id}`);
    },
  });
}

function getTranscriptDownload(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'GET',
    url: '/phone/recording_transcript/download/:recordingId',
    scopes: PHONE_SCOPES.transcript,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const r = h.transcriptOf(req);
      return reply.redirect(`${ctx.baseUrl}/v2/phone/recording_transcript/download/${r.id}/file`, 302);
    },
  });
}

function getTranscriptFileDownload(ctx: EmulatorContext, h: PhoneHelpers): void {
  ctx.route({
    method: 'GET',
    url: '/phone/recording_transcript/download/:recordingId/file',
    scopes: PHONE_SCOPES.transcript,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const r = h.transcriptOf(req);
      const c = h.callById(r.call);
      const s = h.slice().summaries.find((x) => x.call === r.call);
      const peer = c?.peer.name ?? 'Caller';
      const lines: [string, string][] = [
        [h.myName, `Hi ${first(peer)}, this is Avery with Meridian. Thanks for taking the time.`],
        [peer, `Sure. I wanted to go over ${c?.peer.topic ?? 'a few things'}.`],
        [h.myName, s?.call_summary ?? 'Let us go through it.'],
        [peer, 'That works for me.'],
        [h.myName, s?.next_steps ?? 'I will follow up in writing.'],
      ];
      const stamp = (sec: number) => new Date(sec * 1000).toISOString().slice(11, 23);
      const step = Math.max(2, Math.floor(r.duration / lines.length));
      return reply
        .header('content-type', 'application/json')
        .header('content-disposition', `attachment; filename="transcript_${r.id}.json"`)
        .send({
          type: 'zoom_transcript',
          ver: 1,
          recording_id: r.id,
          meeting_id: '',
          account_id: ctx.demo.accountId,
          host_id: ctx.demo.id,
          recording_start: r.date_time,
          recording_end: plus(r.date_time, r.duration),
          timeline: lines.map(([who, text], i) => ({
            text,
            raw_text: text,
            ts: stamp(i * step),
            end_ts: stamp((i + 1) * step - 1),
            users: [],
            userId: who === h.myName ? ME.ext : c?.peer.ext || c?.peer.number || '',
            userIds: [],
            channelMark: who === h.myName ? 'L' : 'R',
          })),
        });
    },
  });
}
