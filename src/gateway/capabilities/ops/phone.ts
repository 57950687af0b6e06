/**
 * phone: the linked user's Zoom Phone call history, voicemails, call recordings, and one AI
 * call summary. Lists take a from/to window of days (default: the last 7 days, at most a month).
 */
import * as z from 'zod';
import { date, dayWindow, defineOp, id, pageOf, pageSchema, paging, seg } from '../operation.js';

interface PlatformCall {
  id?: string;
  call_id?: string;
  direction?: string;
  connect_type?: string;
  result?: string;
  caller_name?: string;
  caller_did_number?: string;
  caller_ext_number?: string;
  callee_name?: string;
  callee_did_number?: string;
  callee_ext_number?: string;
  start_time?: string;
  answer_time?: string;
  end_time?: string;
  talk_time?: number;
  hold_time?: number;
  wait_time?: number;
  recording_id?: string;
  voicemail_id?: string;
  ai_call_summary_id?: string;
}

interface PlatformVoicemail {
  id?: string;
  call_history_id?: string;
  caller_name?: string;
  caller_number?: string;
  callee_name?: string;
  callee_number?: string;
  date_time?: string;
  duration?: number;
  status?: string;
  download_url?: string;
}

interface PlatformPhoneRecording {
  id?: string;
  call_history_id?: string;
  direction?: string;
  caller_name?: string;
  caller_number?: string;
  callee_name?: string;
  callee_number?: string;
  date_time?: string;
  duration?: number;
  download_url?: string;
  transcript_download_url?: string;
}

interface PlatformAiCallSummary {
  ai_call_summary_id?: string;
  call_id?: string;
  call_summary?: string;
  next_steps?: string;
  detailed_summary?: string;
  transcript_language?: string;
  call_summary_rate?: string;
  created_time?: string;
  modified_time?: string;
  edited?: boolean;
}

const GROUP = 'phone';
const DEFAULT_DAYS = 7;
/** The Phone lists answer one month's worth of data per request. */
const MAX_SPAN_DAYS = 31;

/** Call results the platform's call history can be filtered by. */
const CALL_RESULTS = [
  'answered',
  'accepted',
  'picked_up',
  'connected',
  'succeeded',
  'voicemail',
  'hang_up',
  'canceled',
  'call_failed',
  'unconnected',
  'rejected',
  'busy',
  'ring_timeout',
  'overflowed',
  'no_answer',
  'invalid_key',
  'invalid_operation',
  'abandoned',
  'system_blocked',
  'service_unavailable',
] as const;

const window = {
  from: date.optional().describe('first day (UTC), yyyy-mm-dd; default 7 days before to'),
  to: date.optional().describe('last day (UTC), yyyy-mm-dd, inclusive; default today'),
};

// Our views: the platform's fields as given, a missing one as null (no value is guaranteed).
const text = z.string().nullable();
const seconds = z.number().nullable().describe('seconds');
const time = text.describe('ISO 8601 instant, as the platform gives it');

const callLogView = z.object({
  id: text.describe('the call history entry id'),
  call_id: text.describe('the call id, shared by the entries of one call'),
  direction: text.describe('inbound or outbound'),
  connect_type: text.describe('internal (a colleague) or external (an outside number)'),
  result: text.describe('the outcome, like answered, no_answer or voicemail'),
  caller_name: text,
  caller_number: text.describe("the caller's direct number, else extension"),
  caller_ext_number: text,
  callee_name: text,
  callee_number: text.describe("the callee's direct number, else extension"),
  callee_ext_number: text,
  start_time: time,
  answer_time: time,
  end_time: time,
  talk_time: seconds,
  hold_time: seconds,
  wait_time: seconds,
  recording_id: text.describe('its recording, when recorded (see call_recordings)'),
  voicemail_id: text.describe('the voicemail it left, if any (see voicemails)'),
  ai_call_summary_id: text.describe('its AI summary, if any: summary_id of ai_call_summary'),
});

const voicemailView = z.object({
  id: text,
  call_history_id: text.describe('the call log entry it came from'),
  caller_name: text,
  caller_number: text,
  callee_name: text,
  callee_number: text,
  date_time: time,
  duration: seconds,
  status: text.describe('read or unread'),
  download_url: text.describe('the audio file (needs a platform token)'),
});

const phoneRecordingView = z.object({
  id: text,
  call_history_id: text.describe('the call log entry it came from'),
  direction: text.describe('inbound or outbound'),
  caller_name: text,
  caller_number: text,
  callee_name: text,
  callee_number: text,
  date_time: time,
  duration: seconds,
  download_url: text.describe('the audio file (needs a platform token)'),
  transcript_download_url: text.describe('the transcript file (needs a platform token)'),
});

const aiCallSummaryView = z.object({
  ai_call_summary_id: z.string(),
  call_id: text,
  call_summary: text,
  next_steps: text,
  detailed_summary: text,
  transcript_language: text.describe('language code, like en'),
  call_summary_rate: text.describe("the user's rating of the summary: thumb_up or thumb_down"),
  created_time: time,
  modified_time: time,
  edited: z.boolean().describe('whether someone edited the summary'),
});

const callLog = (c: PlatformCall): z.output<typeof callLogView> => ({
  id: c.id ?? null,
  call_id: c.call_id ?? null,
  direction: c.direction ?? null,
  connect_type: c.connect_type ?? null,
  result: c.result ?? null,
  caller_name: c.caller_name ?? null,
  caller_number: c.caller_did_number ?? c.caller_ext_number ?? null,
  caller_ext_number: c.caller_ext_number ?? null,
  callee_name: c.callee_name ?? null,
  callee_number: c.callee_did_number ?? c.callee_ext_number ?? null,
  callee_ext_number: c.callee_ext_number ?? null,
  start_time: c.start_time ?? null,
  answer_time: c.answer_time ?? null,
  end_time: c.end_time ?? null,
  talk_time: c.talk_time ?? null,
  hold_time: c.hold_time ?? null,
  wait_time: c.wait_time ?? null,
  recording_id: c.recording_id ?? null,
  voicemail_id: c.voicemail_id ?? null,
  ai_call_summary_id: c.ai_call_summary_id ?? null,
});

const voicemail = (v: PlatformVoicemail): z.output<typeof voicemailView> => ({
  id: v.id ?? null,
  call_history_id: v.call_history_id ?? null,
  caller_name: v.caller_name ?? null,
  caller_number: v.caller_number ?? null,
  callee_name: v.callee_name ?? null,
  callee_number: v.callee_number ?? null,
  date_time: v.date_time ?? null,
  duration: v.duration ?? null,
  status: v.status ?? null,
  download_url: v.download_url ?? null,
});

const phoneRecording = (r: PlatformPhoneRecording): z.output<typeof phoneRecordingView> => ({
  id: r.id ?? null,
  call_history_id: r.call_history_id ?? null,
  direction: r.direction ?? null,
  caller_name: r.caller_name ?? null,
  caller_number: r.caller_number ?? null,
  callee_name: r.callee_name ?? null,
  callee_number: r.callee_number ?? null,
  date_time: r.date_time ?? null,
  duration: r.duration ?? null,
  download_url: r.download_url ?? null,
  transcript_download_url: r.transcript_download_url ?? null,
});

export const phoneOps = [
  defineOp({
    group: 'phone',
    name: 'call_logs',
    scopes: [
      'phone:read:list_call_logs',
      'phone:read:list_call_logs:admin',
      'phone:read',
      'phone:read:admin',
    ],

    rest: [{ method: 'GET', url: '/api/video/phone/call-logs' }],
    summary:
      "Lists the linked user's phone calls (call history), newest first, that started between from and to (default: the last 7 days).",
    kind: 'read',
    input: z.object({
      ...window,
      direction: z.enum(['inbound', 'outbound']).optional(),
      result: z.enum(CALL_RESULTS).optional().describe('only calls with this outcome, e.g. no_answer'),
      connect_type: z
        .enum(['internal', 'external'])
        .optional()
        .describe('internal: with a colleague; external: an outside number'),
      keyword: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('a name, number or extension of either party'),
      ...paging(300, 30),
    }),
    output: pageSchema(callLogView),
    async run(ctx, i) {
      const { from, to } = dayWindow(ctx.now(), i, DEFAULT_DAYS, MAX_SPAN_DAYS);
      const r = await ctx.platform.call<{ call_logs?: PlatformCall[]; next_page_token?: string }>({
        method: 'GET',
        path: `/phone/users/${seg(ctx.uid)}/call_history`,
        query: {
          from,
          to,
          directions: i.direction,
          call_results: i.result,
          connect_types: i.connect_type,
          keyword: i.keyword,
          page_size: i.limit,
          next_page_token: i.cursor,
        },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.call_logs ?? []).map(callLog), r.data.next_page_token);
    },
  }),
  defineOp({
    group: 'phone',
    name: 'voicemails',
    scopes: [
      'phone:read:list_voicemails',
      'phone:read:list_voicemails:admin',
      'phone:read',
      'phone:read:admin',
    ],

    rest: [{ method: 'GET', url: '/api/video/phone/voicemails' }],
    summary:
      "Lists the linked user's voicemails, newest first, left between from and to (default: the last 7 days).",
    kind: 'read',
    input: z.object({
      ...window,
      status: z.enum(['all', 'read', 'unread']).default('all'),
      ...paging(300, 30),
    }),
    output: pageSchema(voicemailView),
    async run(ctx, i) {
      const { from, to } = dayWindow(ctx.now(), i, DEFAULT_DAYS, MAX_SPAN_DAYS);
      const r = await ctx.platform.call<{ voice_mails?: PlatformVoicemail[]; next_page_token?: string }>({
        method: 'GET',
        path: `/phone/users/${seg(ctx.uid)}/voice_mails`,
        query: { from, to, status: i.status, page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.voice_mails ?? []).map(voicemail), r.data.next_page_token);
    },
  }),
  defineOp({
    group: 'phone',
    name: 'call_recordings',
    scopes: [
      'phone:read:list_recordings',
      'phone:read:list_recordings:admin',
      'phone:read',
      'phone:read:admin',
    ],

    rest: [{ method: 'GET', url: '/api/video/phone/recordings' }],
    summary:
      "Lists the linked user's phone call recordings, newest first, made between from and to (default: the last 7 days).",
    kind: 'read',
    input: z.object({ ...window, ...paging(300, 30) }),
    output: pageSchema(phoneRecordingView),
    async run(ctx, i) {
      const { from, to } = dayWindow(ctx.now(), i, DEFAULT_DAYS, MAX_SPAN_DAYS);
      const r = await ctx.platform.call<{ recordings?: PlatformPhoneRecording[]; next_page_token?: string }>({
        method: 'GET',
        path: `/phone/users/${seg(ctx.uid)}/recordings`,
        query: { from, to, page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.recordings ?? []).map(phoneRecording), r.data.next_page_token);
    },
  }),
  defineOp({
    group: 'phone',
    name: 'ai_call_summary',
    scopes: ['phone:read:call_summary', 'phone:read:call_summary:admin', 'phone:read', 'phone:read:admin'],

    rest: [{ method: 'GET', url: '/api/video/phone/ai-summaries/:summary_id' }],
    summary:
      'The AI summary of one recorded phone call (its ai_call_summary_id is on the call log): summary, next steps and details.',
    kind: 'read',
    input: z.object({
      summary_id: id('summary_id').describe('ai_call_summary_id from a call log'),
    }),
    output: aiCallSummaryView,
    async run(ctx, i): Promise<z.output<typeof aiCallSummaryView>> {
      const r = await ctx.platform.call<PlatformAiCallSummary>({
        method: 'GET',
        path: `/phone/user/${seg(ctx.uid)}/ai_call_summary/${seg(i.summary_id)}`,
        label: 'MEDIUM',
        group: GROUP,
      });
      const s = r.data;
      return {
        ai_call_summary_id: s.ai_call_summary_id ?? i.summary_id,
        call_id: s.call_id ?? null,
        call_summary: s.call_summary ?? null,
        next_steps: s.next_steps ?? null,
        detailed_summary: s.detailed_summary ?? null,
        transcript_language: s.transcript_language ?? null,
        call_summary_rate: s.call_summary_rate ?? null,
        created_time: s.created_time ?? null,
        modified_time: s.modified_time ?? null,
        edited: s.edited ?? false,
      };
    },
  }),
];
