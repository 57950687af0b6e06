/** What the clip routes share: the slice, the clip's wire shape, the clip asked for, and the list with the platform's filters and window. */
import { q, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext, EmulatorRequest } from '../../context.js';
import {
  ADMIN_LIST_SCOPES,
  DAY,
  STATUSES,
  type ClipRec,
  type ClipStatus,
  type ClipsSlice,
} from './records.js';

/** The platform writes clip dates as `2024-10-11T01:51:50.631+00:00`. */
const clipTime = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '+00:00');

/** `yyyy-MM-dd'T'HH:mm:ss'Z'`, or a plain date (its start, UTC). */
function parseWhen(v: string): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(t) ? undefined : t;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

export const slice = (ctx: EmulatorContext) => ctx.slice<ClipsSlice>('clips');
export const now = (ctx: EmulatorContext) => ctx.now().getTime();

export const clipObject = (ctx: EmulatorContext, c: ClipRec) => ({
  clip_id: c.clip_id,
  title: c.title,
  description: c.description,
  duration: c.duration,
  status: c.status,
  owner_id: ctx.demo.id,
  file_size: c.file_size,
  share_link: `${ctx.baseUrl}/clips/share/${c.clip_id}`,
  share_link_settings: {
    share_scope: c.share_scope,
    enable_passcode: c.enable_passcode,
    ...(c.enable_passcode ? { passcode: c.passcode } : {}),
  },
  ...(c.status === 'RECORD_SUCCESS' || c.status === 'RECORD_DELETE'
    ? {
        thumbnail_link: `${ctx.baseUrl}/file/${c.thumb_id}?attachType=preview&filename=${c.thumb_id}.jpg&subType=552x310`,
      }
    : {}),
  created_date: clipTime(c.created),
  modified_date: clipTime(c.modified),
});

/** A clip that exists now (seeded clips "recorded" later today do not yet); 404 code 2000 otherwise. */
export const findClip = (ctx: EmulatorContext, id: string): ClipRec => {
  const c = slice(ctx).clips.find((x) => x.clip_id === id && x.created <= now(ctx));
  if (!c) throw new ZoomError(404, 2000, `Clip does not exist: ${id}.`);
  return c;
};

export const listed = (ctx: EmulatorContext, req: EmulatorRequest) => {
  const userId = q(req, 'user_id');
  if (userId !== undefined && userId !== '' && userId !== 'me') {
    if (!req.auth.scopes.some((s) => ADMIN_LIST_SCOPES.includes(s)))
      throw new ZoomError(403, 1003, 'No permission to operate');
    ctx.user(req, userId);
  }
  const status = q(req, 'status');
  if (status !== undefined && !STATUSES.includes(status as ClipStatus)) throw zerr.badParam('status');
  const filterType = q(req, 'date_filter_type') ?? 'MODIFIED_DATE';
  if (filterType !== 'CREATED_DATE' && filterType !== 'MODIFIED_DATE')
    throw zerr.badParam('date_filter_type');
  // Without from/to the platform looks at today only (from = today, to = tomorrow); the window is at most a month.
  const fromQ = q(req, 'from');
  const toQ = q(req, 'to');
  const from = fromQ !== undefined ? parseWhen(fromQ) : undefined;
  const to = toQ !== undefined ? parseWhen(toQ) : undefined;
  if (fromQ !== undefined && from === undefined) throw zerr.badParam('from');
  if (toQ !== undefined && to === undefined) throw zerr.badParam('to');
  const today = Date.parse(`${ctx.now().toISOString().slice(0, 10)}T00:00:00Z`);
  const start = from ?? (to !== undefined ? to - DAY : today);
  const end =
    to ?? (from !== undefined ? Math.max(from, Math.min(from + 31 * DAY, today + DAY)) : today + DAY);
  if (end < start) throw zerr.badParam('to');
  if (end - start > 31 * DAY) throw zerr.badParam('from');
  const key = q(req, 'search_key')?.toLowerCase();
  const field = (c: ClipRec) => (filterType === 'CREATED_DATE' ? c.created : c.modified);
  return slice(ctx)
    .clips.filter((c) => c.created <= now(ctx))
    .filter((c) => (status ? c.status === status : c.status !== 'RECORD_DELETE'))
    .filter((c) => field(c) >= start && field(c) <= end)
    .filter((c) => !key || c.title.toLowerCase().includes(key))
    .sort((a, b) => field(b) - field(a));
};
