/**
 * clips: the linked user's Zoom Clips, listed over a date window (the platform answers at most
 * a month per request) and one by id. Chapters and analytics have no public endpoint.
 */
import * as z from 'zod';
import { date, dayWindow, defineOp, id, pageOf, pageSchema, paging, seg, unoffered } from '../operation.js';
import { granular } from '../scopes.js';

interface PlatformClip {
  clip_id?: string;
  title?: string;
  description?: string;
  duration?: number;
  status?: string;
  file_size?: number;
  share_link?: string;
  share_link_settings?: { share_scope?: string; enable_passcode?: boolean; passcode?: string };
  thumbnail_link?: string;
  created_date?: string;
  modified_date?: string;
}

const GROUP = 'clips';
const DEFAULT_DAYS = 30;
/** The platform's window is at most 31 days; from 00:00 to 23:59:59 inclusive that is 30 days apart. */
const MAX_SPAN_DAYS = 30;

const STATUSES = [
  'RECORD_START',
  'RECORD_FAILED',
  'RECORD_END',
  'RECORD_SUCCESS',
  'RECORD_DELETE',
  'SUSPENDED',
] as const;

const clipView = z.object({
  clip_id: z.string().nullable(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  duration: z.number().nullable().describe('seconds'),
  status: z
    .string()
    .nullable()
    .describe(`the platform's state: ${STATUSES.join(', ')}`),
  file_size: z.number().nullable().describe('bytes'),
  share_link: z.string().nullable(),
  share_scope: z
    .string()
    .nullable()
    .describe('who the share link opens for: ANYONE, SAME_ORGANIZATON, INVITED_MEMBERS_ONLY or PRIVATE'),
  enable_passcode: z.boolean().describe('whether the share link asks for a passcode'),
  thumbnail_link: z.string().nullable(),
  created_date: z.string().nullable(),
  modified_date: z.string().nullable(),
});

const clip = (c: PlatformClip): z.output<typeof clipView> => ({
  clip_id: c.clip_id ?? null,
  title: c.title ?? null,
  description: c.description ?? null,
  duration: c.duration ?? null,
  status: c.status ?? null,
  file_size: c.file_size ?? null,
  share_link: c.share_link ?? null,
  share_scope: c.share_link_settings?.share_scope ?? null,
  enable_passcode: c.share_link_settings?.enable_passcode ?? false,
  thumbnail_link: c.thumbnail_link ?? null,
  created_date: c.created_date ?? null,
  modified_date: c.modified_date ?? null,
});

export const clipsOps = [
  defineOp({
    group: 'clips',
    name: 'list_clips',
    scopes: granular('clips:read:list_user_clips'),

    rest: [{ method: 'GET', url: '/api/video/clips' }],
    summary:
      "Lists the linked user's clips, newest first, created or modified between from and to (default: the last 30 days; at most 31 days), 30 to 300 a page.",
    kind: 'read',
    input: z.object({
      from: date.optional().describe('first day (UTC), yyyy-mm-dd; default 30 days before to'),
      to: date.optional().describe('last day (UTC), yyyy-mm-dd, inclusive; default today'),
      date_filter: z
        .enum(['modified', 'created'])
        .default('modified')
        .describe('which date from/to apply to'),
      status: z.enum(STATUSES).optional().describe('only clips in this state; RECORD_DELETE lists the trash'),
      q: z.string().trim().min(1).max(100).optional().describe('words in the clip title'),
      // The platform takes 30 to 300 clips a page.
      ...paging(300, 30, 30),
    }),
    output: pageSchema(clipView),
    async run(ctx, i) {
      const { from, to } = dayWindow(ctx.now(), i, DEFAULT_DAYS, MAX_SPAN_DAYS);
      const r = await ctx.platform.call<{ data?: PlatformClip[]; next_page_token?: string }>({
        method: 'GET',
        path: '/clips',
        query: {
          from,
          // The platform reads a bare date as its midnight; the last second of `to` keeps the day in.
          to: `${to}T23:59:59Z`,
          date_filter_type: i.date_filter === 'created' ? 'CREATED_DATE' : 'MODIFIED_DATE',
          status: i.status,
          search_key: i.q,
          page_size: i.limit,
          next_page_token: i.cursor,
        },
        label: 'LIGHT',
        group: GROUP,
      });
      return pageOf((r.data.data ?? []).map(clip), r.data.next_page_token);
    },
  }),
  defineOp({
    group: 'clips',
    name: 'get_clip',
    scopes: granular('clips:read:clip'),

    rest: [{ method: 'GET', url: '/api/video/clips/:clip_id' }],
    summary: 'One clip by id, with its share link settings (and passcode, when one is set).',
    kind: 'read',
    input: z.object({ clip_id: id('clip_id') }),
    output: clipView.extend({
      passcode: z.string().nullable().describe("the share link's passcode; null when none is set"),
    }),
    async run(ctx, i) {
      const r = await ctx.platform.call<PlatformClip>({
        method: 'GET',
        path: `/clips/${seg(i.clip_id)}`,
        label: 'LIGHT',
        group: GROUP,
      });
      return { ...clip(r.data), passcode: r.data.share_link_settings?.passcode ?? null };
    },
  }),
];

/** What the platform offers no public endpoint for (after the operations, in the seed's order). */
export const clipsUnoffered = [
  unoffered('clips', 'chapters', 'Clip chapters have no public endpoint.'),
  unoffered('clips', 'analytics', 'Clip analytics have no public endpoint.'),
];
