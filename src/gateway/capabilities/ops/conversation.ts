/**
 * conversation: what is known about ONE past meeting — its details and head count, its AI
 * Companion summary, and its transcript (the same operation as recordings/meeting_transcript).
 */
import * as z from 'zod';
import { defineOp, seg } from '../operation.js';
import { granular } from '../scopes.js';
import { meetingTranscript, transcriptView, videoId } from './recordings.js';

interface PlatformPastMeeting {
  id?: number | string;
  uuid?: string;
  topic?: string;
  type?: number;
  start_time?: string;
  end_time?: string;
  duration?: number;
  participants_count?: number;
  user_name?: string;
  user_email?: string;
  has_meeting_summary?: boolean;
}

interface PlatformMeetingSummary {
  meeting_id?: number | string;
  summary_title?: string;
  summary_overview?: string;
  summary_details?: { label?: string; summary?: string }[];
  next_steps?: string[];
}

const GROUP = 'conversation';

const pastMeeting = z.object({
  video_id: z.string().describe('the meeting id (digits)'),
  uuid: z.string().nullable().describe('this occurrence of the meeting'),
  topic: z.string().nullable(),
  type: z.number().nullable().describe('1 instant, 2 scheduled, 3 recurring without fixed time, 8 recurring'),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  duration: z.number().nullable().describe('minutes'),
  participants_count: z.number().nullable().describe('how many took part'),
  host_name: z.string().nullable(),
  host_email: z.string().nullable(),
  has_meeting_summary: z.boolean().describe('whether an AI Companion summary exists (see summary)'),
});

const meetingSummary = z.object({
  video_id: z.string(),
  title: z.string().nullable(),
  overview: z.string().nullable(),
  details: z.array(z.object({ label: z.string(), summary: z.string() })).describe('the summary by topic'),
  next_steps: z.array(z.string()),
});

export const conversationOps = [
  defineOp({
    group: 'conversation',
    name: 'metadata',
    scopes: granular('meeting:read:past_meeting'),
    summary:
      'Details of one past meeting: topic, when it started and ended, how long it ran, who hosted it and how many took part.',
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: pastMeeting,
    async run(ctx, i): Promise<z.output<typeof pastMeeting>> {
      const r = await ctx.platform.call<PlatformPastMeeting>({
        method: 'GET',
        path: `/past_meetings/${seg(i.video_id)}`,
        label: 'LIGHT',
        group: GROUP,
      });
      const m = r.data;
      return {
        video_id: m.id === undefined ? i.video_id : String(m.id),
        uuid: m.uuid ?? null,
        topic: m.topic ?? null,
        type: m.type ?? null,
        start_time: m.start_time ?? null,
        end_time: m.end_time ?? null,
        duration: m.duration ?? null,
        participants_count: m.participants_count ?? null,
        host_name: m.user_name ?? null,
        host_email: m.user_email ?? null,
        has_meeting_summary: m.has_meeting_summary ?? false,
      };
    },
  }),
  defineOp({
    group: 'conversation',
    name: 'summary',
    scopes: granular('meeting:read:summary'),
    summary:
      'The AI Companion summary of one past meeting: title, overview, details by topic and next steps.',
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: meetingSummary,
    async run(ctx, i): Promise<z.output<typeof meetingSummary>> {
      const r = await ctx.platform.call<PlatformMeetingSummary>({
        method: 'GET',
        path: `/meetings/${seg(i.video_id)}/meeting_summary`,
        label: 'LIGHT',
        group: GROUP,
      });
      const s = r.data;
      return {
        video_id: s.meeting_id === undefined ? i.video_id : String(s.meeting_id),
        title: s.summary_title ?? null,
        overview: s.summary_overview ?? null,
        details: (s.summary_details ?? []).map((d) => ({ label: d.label ?? '', summary: d.summary ?? '' })),
        next_steps: s.next_steps ?? [],
      };
    },
  }),
  defineOp({
    group: 'conversation',
    name: 'transcript',
    scopes: granular('cloud_recording:read:meeting_transcript'),
    summary:
      "One past meeting's transcript: when it was made, whether it can be downloaded, and its download URL (WebVTT).",
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: transcriptView,
    run: (ctx, i) => meetingTranscript(ctx, i.video_id, GROUP),
  }),
];
