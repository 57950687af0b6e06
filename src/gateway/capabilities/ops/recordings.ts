/**
 * recordings: the linked user's cloud recordings (listed over a date range the gateway walks a
 * month at a time, since the platform answers at most one month per request), one meeting's
 * recording and its files, and the meeting's transcript.
 */
import * as z from 'zod';
import {
  addDays,
  date,
  dayOf,
  daysInMonth,
  defineOp,
  id,
  invalid,
  isRealDay,
  type OpContext,
  type Page,
  pageSchema,
  paging,
  seg,
} from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformRecordingFile {
  id?: string;
  file_type?: string;
  file_extension?: string;
  file_size?: number;
  recording_type?: string;
  download_url?: string;
  status?: string;
}

interface PlatformRecording {
  uuid?: string;
  id?: number | string;
  topic?: string;
  start_time?: string;
  duration?: number;
  total_size?: number;
  recording_count?: number;
  share_url?: string;
  recording_files?: PlatformRecordingFile[];
}

interface PlatformRecordingList {
  from?: string;
  to?: string;
  next_page_token?: string;
  meetings?: PlatformRecording[];
}

interface PlatformTranscript {
  meeting_id?: string;
  meeting_topic?: string;
  transcript_created_time?: string;
  can_download?: boolean;
  download_url?: string;
  download_restriction_reason?: string;
}

const GROUP = 'recordings';
/** The platform's default and our longest walk: 30 days back, at most 6 calendar months. */
const DEFAULT_DAYS = 30;
const MAX_MONTHS = 6;

/**
 * The same day `n` calendar months earlier, clamped to that month's last day (as the platform
 * counts). Arithmetic on the text: Date.UTC and toISOString cost ~15 µs a call here.
 */
export function monthsBefore(d: string, n: number): string {
  const [y, mo, dd] = d.split('-').map(Number) as [number, number, number];
  const months = y * 12 + (mo - 1) - n;
  const ty = Math.floor(months / 12);
  const tm = months - ty * 12 + 1;
  const day = Math.min(dd, daysInMonth(ty, tm));
  return `${String(ty).padStart(4, '0')}-${String(tm).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export const videoId = id('video_id').describe(
  'the meeting: its numeric meeting ID (latest instance) or one instance UUID',
);

const recordingFileView = z.object({
  id: z.string().nullable(),
  file_type: z.string().nullable().describe('MP4, M4A, TRANSCRIPT, CHAT, SUMMARY, ...'),
  file_extension: z.string().nullable(),
  file_size: z.number().nullable().describe('bytes'),
  recording_type: z.string().nullable().describe('shared_screen_with_speaker_view, audio_only, ...'),
  download_url: z.string().nullable().describe("fetch with the platform's bearer token"),
  status: z.string().nullable(),
});

export const recordingFile = (f: PlatformRecordingFile): z.output<typeof recordingFileView> => ({
  id: f.id ?? null,
  file_type: f.file_type ?? null,
  file_extension: f.file_extension ?? null,
  file_size: f.file_size ?? null,
  recording_type: f.recording_type ?? null,
  download_url: f.download_url ?? null,
  status: f.status ?? null,
});

const recordingItemView = z.object({
  video_id: z.string().nullable().describe('the numeric meeting ID'),
  uuid: z.string().nullable().describe('the meeting instance UUID'),
  topic: z.string().nullable(),
  start_time: z.string().nullable(),
  duration: z.number().nullable().describe('minutes'),
  total_size: z.number().nullable().describe('bytes, all files'),
  files: z.number().describe('how many recording files'),
});

const recordingItem = (m: PlatformRecording): z.output<typeof recordingItemView> => ({
  video_id: m.id === undefined ? null : String(m.id),
  uuid: m.uuid ?? null,
  topic: m.topic ?? null,
  start_time: m.start_time ?? null,
  duration: m.duration ?? null,
  total_size: m.total_size ?? null,
  files: m.recording_count ?? m.recording_files?.length ?? 0,
});

/**
 * Where a recordings walk stands: the range's first day, the end of the month-window being read
 * and the platform's page token inside it. Opaque to callers (base64url JSON).
 */
interface WalkState {
  f: string;
  t: string;
  p?: string;
}

const encodeCursor = (s: WalkState) => Buffer.from(JSON.stringify(s)).toString('base64url');

function decodeCursor(cursor: string): WalkState {
  try {
    const s = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<WalkState>;
    if (
      typeof s.f === 'string' &&
      typeof s.t === 'string' &&
      isRealDay(s.f) &&
      isRealDay(s.t) &&
      s.f <= s.t &&
      (s.p === undefined || (typeof s.p === 'string' && s.p.length > 0 && s.p.length <= 512))
    ) {
      return s.p === undefined ? { f: s.f, t: s.t } : { f: s.f, t: s.t, p: s.p };
    }
  } catch {
    // falls through to the error below
  }
  throw invalid('cursor', 'is not a cursor this operation returned');
}

/** The range asked for, with the defaults filled in and the bounds checked. */
function rangeOf(ctx: OpContext, from: string | undefined, to: string | undefined) {
  const today = dayOf(ctx.now());
  const end = to ?? (from !== undefined && from > today ? from : today);
  const start = from ?? addDays(end, -DEFAULT_DAYS);
  if (start > end) throw invalid('to', 'must not be before from');
  if (start < monthsBefore(end, MAX_MONTHS))
    throw invalid('from', `must be at most ${MAX_MONTHS} months before to`);
  return { from: start, to: end };
}

type RecordingItem = z.output<typeof recordingItemView>;

const recordingView = recordingItemView.extend({
  share_url: z.string().nullable(),
  files: z.array(recordingFileView),
});

/** A list that is never paged: the platform answers it whole. */
const wholeList = (item: z.ZodType) =>
  z.object({ items: z.array(item), nextCursor: z.null().describe('always null: the list is whole') });

export const transcriptView = z.object({
  video_id: z.string().describe('as asked: a meeting ID or an instance UUID'),
  uuid: z.string().nullable().describe('the instance UUID'),
  topic: z.string().nullable(),
  transcript_created_time: z.string().nullable(),
  can_download: z.boolean(),
  download_url: z.string().nullable().describe('the WebVTT file (bearer token)'),
  download_restriction_reason: z.string().nullable(),
  text: z
    .string()
    .nullable()
    .describe('the transcript as "Speaker: words" lines; null when it cannot be downloaded'),
});

/**
 * Lists recordings newest first over [from, to], one platform request per month-window, filling
 * the page from the next (older) window when one runs out.
 */
async function listRecordings(
  ctx: OpContext,
  i: { from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined },
): Promise<Page<RecordingItem>> {
  const state: WalkState = i.cursor
    ? decodeCursor(i.cursor)
    : (({ from, to }) => ({ f: from, t: to }))(rangeOf(ctx, i.from, i.to));
  const items: RecordingItem[] = [];
  let windowTo = state.t;
  let token = state.p;
  // Bounded: at most one request per month of a 6-month range plus its page tokens.
  for (let calls = 0; calls < 64; calls++) {
    const monthBack = monthsBefore(windowTo, 1);
    const windowFrom = monthBack > state.f ? monthBack : state.f;
    const r = await ctx.platform.call<PlatformRecordingList>({
      method: 'GET',
      path: `/users/${seg(ctx.uid)}/recordings`,
      query: {
        from: windowFrom,
        to: windowTo,
        page_size: i.limit - items.length,
        next_page_token: token,
      },
      label: 'MEDIUM',
      group: GROUP,
    });
    items.push(...(r.data.meetings ?? []).map(recordingItem));
    const next = r.data.next_page_token;
    if (typeof next === 'string' && next !== '') {
      if (items.length >= i.limit) {
        return { items, nextCursor: encodeCursor({ f: state.f, t: windowTo, p: next }) };
      }
      token = next;
      continue;
    }
    // This window is done. The platform may have moved `from` up (its month cap): go on from there.
    const echoed = r.data.from;
    const covered =
      typeof echoed === 'string' && isRealDay(echoed) && echoed > windowFrom && echoed <= windowTo
        ? echoed
        : windowFrom;
    if (covered <= state.f) return { items, nextCursor: null };
    windowTo = addDays(covered, -1);
    token = undefined;
    if (items.length >= i.limit) return { items, nextCursor: encodeCursor({ f: state.f, t: windowTo }) };
  }
  return { items, nextCursor: encodeCursor({ f: state.f, t: windowTo, ...(token ? { p: token } : {}) }) };
}

async function getRecording(ctx: OpContext, video: string) {
  const r = await ctx.platform.call<PlatformRecording>({
    method: 'GET',
    path: `/meetings/${seg(video)}/recordings`,
    label: 'LIGHT',
    group: GROUP,
  });
  return r.data;
}

/**
 * One meeting's transcript, as the transcript API describes it. The VTT text itself sits behind
 * `download_url` (bearer token; text/vtt, not JSON), which the platform client cannot fetch yet.
 */
export async function meetingTranscript(
  ctx: OpContext,
  video: string,
  group: string,
): Promise<z.output<typeof transcriptView>> {
  const r = await ctx.platform.call<PlatformTranscript>({
    method: 'GET',
    path: `/meetings/${seg(video)}/transcript`,
    label: 'MEDIUM',
    group,
  });
  const t = r.data;
  // The text itself, when the platform allows the download (its own host only; see download()).
  let text: string | null = null;
  if (t.can_download && t.download_url) {
    const file = await ctx.platform.download(t.download_url, group);
    text = vttToText(file.body.toString('utf8'));
  }
  return {
    video_id: video,
    uuid: t.meeting_id ?? null,
    topic: t.meeting_topic ?? null,
    transcript_created_time: t.transcript_created_time ?? null,
    can_download: t.can_download ?? false,
    download_url: t.download_url ?? null,
    download_restriction_reason: t.download_restriction_reason ?? null,
    text,
  };
}

/** Plain "Speaker: words" lines from a WebVTT transcript (cue numbers, timings and notes dropped). */
export function vttToText(vtt: string): string {
  return vtt
    .replace(/^\uFEFF/, '')
    .split(/\r?\n\r?\n/)
    .map((block) => block.split(/\r?\n/))
    .filter((lines) => lines.some((l) => l.includes('-->')))
    .map((lines) =>
      lines
        .slice(lines.findIndex((l) => l.includes('-->')) + 1)
        .join(' ')
        .trim(),
    )
    .filter(Boolean)
    .join('\n');
}

export const recordingsOps = [
  defineOp({
    group: 'recordings',
    name: 'list_user_recordings',
    scopes: granular('cloud_recording:read:list_user_recordings'),

    rest: [{ method: 'GET', url: '/api/video/recordings' }],
    summary:
      "Lists the linked user's cloud recordings, newest first, for meetings that started between from and to (default: the last 30 days; at most 6 months).",
    kind: 'read',
    input: z.object({
      from: date.optional().describe('first day (UTC), yyyy-mm-dd; default 30 days before to'),
      to: date.optional().describe('last day (UTC), yyyy-mm-dd; default today'),
      ...paging(300, 30),
    }),
    output: pageSchema(recordingItemView),
    run: (ctx, i) => listRecordings(ctx, i),
  }),
  defineOp({
    group: 'recordings',
    name: 'get_recording',
    scopes: granular('cloud_recording:read:list_recording_files'),

    rest: [{ method: 'GET', url: '/api/video/recordings/:video_id' }],
    summary: "One meeting's cloud recording with its files (video, audio, transcript, chat, summary).",
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: recordingView,
    async run(ctx, i): Promise<z.output<typeof recordingView>> {
      const m = await getRecording(ctx, i.video_id);
      return {
        ...recordingItem(m),
        share_url: m.share_url ?? null,
        files: (m.recording_files ?? []).map(recordingFile),
      };
    },
  }),
  defineOp({
    group: 'recordings',
    name: 'list_recording_files',
    scopes: granular('cloud_recording:read:list_recording_files'),

    rest: [{ method: 'GET', url: '/api/video/recordings/:video_id/files' }],
    summary: "The files of one meeting's cloud recording.",
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: wholeList(recordingFileView),
    async run(ctx, i) {
      const m = await getRecording(ctx, i.video_id);
      return { items: (m.recording_files ?? []).map(recordingFile), nextCursor: null };
    },
  }),
  defineOp({
    group: 'recordings',
    name: 'meeting_transcript',
    scopes: granular('cloud_recording:read:meeting_transcript'),

    rest: [{ method: 'GET', url: '/api/video/recordings/:video_id/transcript' }],
    summary:
      "One meeting's transcript: when it was made, whether it can be downloaded, and its download URL (WebVTT).",
    kind: 'read',
    input: z.object({ video_id: videoId }),
    output: transcriptView,
    run: (ctx, i) => meetingTranscript(ctx, i.video_id, 'recordings'),
  }),
];
