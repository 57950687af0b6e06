/** Zoom Phone: voicemail, recording, AI call summary, audio download and transcript routes. */
import { p, q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { PHONE_SCOPES } from './constants.js';
import type { PhoneHelpers } from './helpers.js';
import { first, ME, plus } from './seed.js';
import type { PhoneShapes } from './shapes.js';
import { dateWindow, oneOf, truthy } from './validation.js';

export function registerMediaRoutes(ctx: EmulatorContext, h: PhoneHelpers, sh: PhoneShapes): void {
  const {
    slice,
    now,
    myName,
    callById,
    phoneUser,
    page,
    findVoicemail,
    recordings,
    sendAudio,
    transcriptOf,
  } = h;
  const { voicemailEntry, recordingEntry } = sh;

  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/voice_mails',
    scopes: PHONE_SCOPES.voicemails,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      phoneUser(req);
      const w = dateWindow(req, now(), 30 * 86_400_000, zerr.badParam);
      const status = oneOf(req, 'status', ['all', 'read', 'unread'] as const, zerr.badParam) ?? 'all';
      // Nothing is ever deleted here, so the trash is empty.
      const trash = truthy(req, 'trash', zerr.badParam) ?? false;
      const items = trash
        ? []
        : slice()
            .voicemails.filter((v) => {
              const t = Date.parse(v.date_time);
              return t >= w.fromMs && t <= w.toMs && t <= now() && (status === 'all' || v.status === status);
            })
            .sort((a, b) => b.date_time.localeCompare(a.date_time));
      const pg = page(req, items, 400);
      return {
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
        voice_mails: pg.items.map(voicemailEntry),
      };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/phone/voice_mails/:voicemailId',
    scopes: PHONE_SCOPES.voicemail,
    label: 'LIGHT',
    product: 'phone',
    handler: (req) => {
      const v = findVoicemail(p(req, 'voicemailId'), 300);
      return {
        ...voicemailEntry(v),
        transcription: { content: v.transcript, status: 2, engine: 'zoom' },
        intent_detect_status: 'success',
        intent_results: [],
      };
    },
  });

  ctx.route({
    method: 'PATCH',
    url: '/phone/voice_mails/:voicemailId',
    scopes: PHONE_SCOPES.voicemailUpdate,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const v = findVoicemail(p(req, 'voicemailId'), 404);
      const status = q(req, 'read_status');
      if (status !== 'Read' && status !== 'Unread')
        throw new ZoomError(400, 400, 'The read status is invalid.');
      v.status = status === 'Read' ? 'read' : 'unread';
      ctx.changed();
      return reply.code(204).send();
    },
  });

  ctx.route({
    method: 'GET',
    url: '/phone/users/:userId/recordings',
    scopes: PHONE_SCOPES.recordings,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      phoneUser(req);
      const w = dateWindow(req, now(), 30 * 86_400_000, zerr.badParam);
      const items = recordings()
        .filter((r) => Date.parse(r.date_time) >= w.fromMs && Date.parse(r.date_time) <= w.toMs)
        .sort((a, b) => b.date_time.localeCompare(a.date_time));
      const pg = page(req, items);
      return {
        from: w.from,
        to: w.to,
        next_page_token: pg.nextPageToken,
        page_count: Math.ceil(pg.totalRecords / pg.pageSize),
        page_size: pg.pageSize,
        total_records: pg.totalRecords,
        recordings: pg.items.map(recordingEntry),
      };
    },
  });

  ctx.route({
    method: 'GET',
    url: '/phone/user/:userId/ai_call_summary/:aiCallSummaryId',
    scopes: PHONE_SCOPES.aiSummary,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req) => {
      phoneUser(req);
      const id = p(req, 'aiCallSummaryId');
      const s = slice().summaries.find((x) => x.id === id && Date.parse(x.created_time) <= now());
      // The platform documents a bare 404 here; this body follows its usual style.
      if (!s) throw new ZoomError(404, 404, `AI call summary does not exist: ${id}.`);
      return {
        ai_call_summary_id: s.id,
        account_id: ctx.demo.accountId,
        call_id: callById(s.call)?.call_id ?? '',
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

  ctx.route({
    method: 'GET',
    url: '/phone/voice_mails/download/:fileId',
    scopes: PHONE_SCOPES.voicemail,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req, reply) => {
      const v = slice().voicemails.find(
        (x) => x.file_id === p(req, 'fileId') && Date.parse(x.date_time) <= now(),
      );
      if (!v) throw new ZoomError(400, 404, 'File does not exist.');
      return sendAudio(reply, `voicemail_${v.id}`);
    },
  });

  ctx.route({
    method: 'GET',
    url: '/phone/recording/download/:fileId',
    scopes: PHONE_SCOPES.recordingFile,
    label: 'MEDIUM',
    product: 'phone',
    handler: (req, reply) => {
      const r = recordings().find((x) => x.file_id === p(req, 'fileId'));
      if (!r) throw new ZoomError(400, 404, 'File does not exist.');
      return sendAudio(reply, `recording_${r.id}`);
    },
  });
  ctx.route({
    method: 'GET',
    url: '/phone/recording_transcript/download/:recordingId',
    scopes: PHONE_SCOPES.transcript,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const r = transcriptOf(req);
      return reply.redirect(`${ctx.baseUrl}/v2/phone/recording_transcript/download/${r.id}/file`, 302);
    },
  });
  ctx.route({
    method: 'GET',
    url: '/phone/recording_transcript/download/:recordingId/file',
    scopes: PHONE_SCOPES.transcript,
    label: 'LIGHT',
    product: 'phone',
    handler: (req, reply) => {
      const r = transcriptOf(req);
      const c = callById(r.call);
      const s = slice().summaries.find((x) => x.call === r.call);
      const peer = c?.peer.name ?? 'Caller';
      const lines: [string, string][] = [
        [myName, `Hi ${first(peer)}, this is Avery with Meridian. Thanks for taking the time.`],
        [peer, `Sure. I wanted to go over ${c?.peer.topic ?? 'a few things'}.`],
        [myName, s?.call_summary ?? 'Let us go through it.'],
        [peer, 'That works for me.'],
        [myName, s?.next_steps ?? 'I will follow up in writing.'],
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
            userId: who === myName ? ME.ext : c?.peer.ext || c?.peer.number || '',
            userIds: [],
            channelMark: who === myName ? 'L' : 'R',
          })),
        });
    },
  });
}
