/**
 * Zoom Clips: the demo user's clips (list with the platform's filters and its default window of
 * "today" when no from/to is given, get, soft delete) and their comments. Served under /v2 like
 * the rest of the API. Chapters and analytics have no public endpoint, so none is emulated.
 */
import { defineModule, p, q, zerr, ZoomError } from '../context.js';
import type { EmulatorContext, EmulatorRequest, SeedContext } from '../context.js';
import { zoomTime } from '../time.js';

type ClipStatus =
  'RECORD_START' | 'RECORD_FAILED' | 'RECORD_END' | 'RECORD_SUCCESS' | 'RECORD_DELETE' | 'SUSPENDED';
type ShareScope = 'ANYONE' | 'SAME_ORGANIZATON' | 'INVITED_MEMBERS_ONLY' | 'PRIVATE';

export interface ClipRec {
  clip_id: string;
  title: string;
  description: string;
  /** Seconds. */
  duration: number;
  status: ClipStatus;
  file_size: number;
  share_scope: ShareScope;
  passcode: string;
  enable_passcode: boolean;
  thumb_id: string;
  /** Epoch ms. */
  created: number;
  modified: number;
}

export interface CommentRec {
  comment_id: string;
  author: string;
  author_email: string;
  avatar_id: string;
  content: string;
  mentions: { display_name: string; email: string }[];
  created: number;
  modified: number;
  parent?: string;
}

export interface ClipsSlice {
  clips: ClipRec[];
  comments: Record<string, CommentRec[]>;
}

const SCOPES = {
  list: ['clips:read:list_user_clips', 'clips:read:list_user_clips:admin', 'clips:read', 'clips:read:admin'],
  get: ['clips:read:clip', 'clips:read:clip:admin', 'clips:read', 'clips:read:admin'],
  delete: ['clips:delete:clip', 'clips:delete:clip:admin', 'clips:write', 'clips:write:admin'],
  comments: ['clips:read:list_comments', 'clips:read:list_comments:admin', 'clips:read', 'clips:read:admin'],
};
/** With one of these, `user_id` may name any user of the account; otherwise only `me`. */
const ADMIN_LIST_SCOPES = [
  'clips:read:list_user_clips:admin',
  'clips:read:list_user_clips:master',
  'clips:read:admin',
];

const STATUSES: ClipStatus[] = [
  'RECORD_START',
  'RECORD_FAILED',
  'RECORD_END',
  'RECORD_SUCCESS',
  'RECORD_DELETE',
  'SUSPENDED',
];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const DAY = 86_400_000;

// [title, description, created (days from today), modified (days from today), status, share scope]
const CLIPS: [string, string, number, number, ClipStatus, ShareScope][] = [
  [
    'GrowthOS v3.2 launch walkthrough',
    'Five-minute tour of the new lead-scoring dashboard for the sales team.',
    -1,
    0,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Dispatch board tour',
    'How to read the new dispatch board and claim uncovered loads.',
    0,
    0,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Safety minute: pre-trip inspection',
    'The 12-point pre-trip check every Meridian Freight driver runs before rolling.',
    0,
    0,
    'RECORD_END',
    'SAME_ORGANIZATON',
  ],
  [
    'Freight lane rate update: Midwest',
    'Why detention billing starts after two hours on the Milwaukee lanes.',
    -2,
    -2,
    'RECORD_SUCCESS',
    'INVITED_MEMBERS_ONLY',
  ],
  [
    'How to log a FleetWorks PM inspection',
    'Step-by-step for logging preventive maintenance in FleetWorks.',
    -3,
    -3,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Meridian Capital: term sheet explainer',
    'What each line of an equipment-loan term sheet means for borrowers.',
    -5,
    -4,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'Mortgage rate-lock FAQ',
    'Answers to the five questions borrowers ask most about rate locks.',
    -7,
    -7,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'Housing: unit turn checklist',
    'The make-ready checklist for Meridian Housing unit turns.',
    -9,
    -8,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Contracting bid review tips',
    'Three things to check before a Meridian Contracting bid goes out.',
    -11,
    -11,
    'RECORD_SUCCESS',
    'PRIVATE',
  ],
  [
    'Early Learning open house invite',
    'A welcome from the Meridian Early Learning director for families.',
    -14,
    -13,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'CDL cohort #14 welcome',
    'Welcome message for the new Meridian Learning CDL cohort.',
    -18,
    -18,
    'RECORD_SUCCESS',
    'ANYONE',
  ],
  [
    'MOG weekly update',
    'Operating-group highlights: freight volume, capital pipeline, housing occupancy.',
    -21,
    -21,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Brand refresh preview',
    'First look at the refreshed Meridian Fleet wordmark and subsidiary lockups.',
    -26,
    -25,
    'RECORD_SUCCESS',
    'INVITED_MEMBERS_ONLY',
  ],
  [
    'Expense policy in two minutes',
    'The short version of the expense policy for all subsidiaries.',
    -34,
    -34,
    'RECORD_SUCCESS',
    'SAME_ORGANIZATON',
  ],
  [
    'Customer onboarding: Lakeshore Logistics',
    'Kickoff recap for the Lakeshore Logistics account.',
    -45,
    -44,
    'RECORD_FAILED',
    'PRIVATE',
  ],
];

const COLLEAGUES: [string, string][] = [
  ['Jordan Reyes', 'jordan.reyes@meridianfleet.example'],
  ['Priya Natarajan', 'priya.natarajan@meridianfleet.example'],
  ['Marcus Bell', 'marcus.bell@meridianfleet.example'],
  ['Elena Sokolova', 'elena.sokolova@meridianfleet.example'],
  ['Sam Okafor', 'sam.okafor@meridianfleet.example'],
];
const REMARKS = [
  'Super clear, sharing this with the whole team.',
  'Can we get a version with captions for the yard screens?',
  'The section at 1:20 answers the question we keep getting.',
  'Nice. Could you add the link to the checklist in the description?',
  'Great pacing. This replaces our old slide deck.',
];
const REPLIES = ['Good idea, will do.', 'Thanks! Updated.', 'Added the link.'];

const uuid = (s: SeedContext) => {
  const h = s.rng.id(32, HEX);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
};

function seedClips(s: SeedContext): ClipsSlice {
  const clips: ClipRec[] = [];
  const comments: Record<string, CommentRec[]> = {};
  const demoName = `${s.demo.firstName} ${s.demo.lastName}`;
  CLIPS.forEach(([title, description, createdDay, modifiedDay, status, scope], i) => {
    // Today's clips are recorded in the early hours (UTC) so they exist for most of the day.
    const created =
      Date.parse(s.at(createdDay, createdDay === 0 ? 1 : 14, 0)) +
      s.rng.int(0, 240) * 60_000 +
      s.rng.int(0, 59_999);
    const modified =
      modifiedDay === createdDay
        ? created + s.rng.int(1, 30) * 60_000
        : Date.parse(s.at(modifiedDay, modifiedDay === 0 ? 3 : 15, 0)) + s.rng.int(0, 180) * 60_000;
    const enablePass = scope === 'ANYONE' && i % 2 === 0;
    const clip: ClipRec = {
      clip_id: s.rng.id(38, ALNUM),
      title,
      description,
      duration: status === 'RECORD_SUCCESS' ? s.rng.int(45, 420) : 0,
      status,
      file_size:
        status === 'RECORD_SUCCESS' || status === 'RECORD_END' ? s.rng.int(2_000_000, 90_000_000) : 0,
      share_scope: scope,
      passcode: enablePass ? s.rng.id(8, 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789*') : '',
      enable_passcode: enablePass,
      thumb_id: s.rng.id(22, ALNUM),
      created,
      modified,
    };
    clips.push(clip);
    if (status !== 'RECORD_SUCCESS' || i % 3 === 2) return;
    const list: CommentRec[] = [];
    const n = s.rng.int(1, 3);
    for (let k = 0; k < n; k++) {
      const [name, email] = s.rng.pick(COLLEAGUES);
      const at = Math.min(
        modified + (k + 1) * s.rng.int(20, 240) * 60_000,
        Date.parse(s.at(modifiedDay, 23, 0)),
      );
      const mention = k === 0 && i % 2 === 0;
      const c: CommentRec = {
        comment_id: uuid(s),
        author: name,
        author_email: email,
        avatar_id: s.rng.id(22, ALNUM),
        content: mention
          ? `@[${demoName}](user:${s.demo.email}) ${REMARKS[(i + k) % REMARKS.length] ?? ''}`
          : (REMARKS[(i + k) % REMARKS.length] ?? ''),
        mentions: mention ? [{ display_name: demoName, email: s.demo.email }] : [],
        created: at,
        modified: at,
      };
      list.push(c);
      if (k === 0 && i % 4 === 0) {
        list.push({
          comment_id: uuid(s),
          author: demoName,
          author_email: s.demo.email,
          avatar_id: s.rng.id(22, ALNUM),
          content: REPLIES[i % REPLIES.length] ?? '',
          mentions: [],
          created: at + 12 * 60_000,
          modified: at + 12 * 60_000,
          parent: c.comment_id,
        });
      }
    }
    comments[clip.clip_id] = list;
  });
  return { clips, comments };
}

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

export const clipsModule = defineModule<ClipsSlice>({
  name: 'clips',
  seed: seedClips,
  register(ctx: EmulatorContext) {
    const slice = () => ctx.slice<ClipsSlice>('clips');
    const now = () => ctx.now().getTime();

    const clipObject = (c: ClipRec) => ({
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
    const findClip = (id: string): ClipRec => {
      const c = slice().clips.find((x) => x.clip_id === id && x.created <= now());
      if (!c) throw new ZoomError(404, 2000, `Clip does not exist: ${id}.`);
      return c;
    };

    const listed = (req: EmulatorRequest) => {
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
      return slice()
        .clips.filter((c) => c.created <= now())
        .filter((c) => (status ? c.status === status : c.status !== 'RECORD_DELETE'))
        .filter((c) => field(c) >= start && field(c) <= end)
        .filter((c) => !key || c.title.toLowerCase().includes(key))
        .sort((a, b) => field(b) - field(a));
    };

    ctx.route({
      method: 'GET',
      url: '/clips',
      scopes: SCOPES.list,
      label: 'LIGHT',
      handler: (req) => {
        const page = ctx.paginate(req, listed(req), { defaultSize: 30, maxSize: 300 });
        return {
          data: page.items.map(clipObject),
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
          total_records: page.totalRecords,
        };
      },
    });

    ctx.route({
      method: 'GET',
      url: '/clips/:clipId',
      scopes: SCOPES.get,
      label: 'LIGHT',
      handler: (req) => clipObject(findClip(p(req, 'clipId'))),
    });

    ctx.route({
      method: 'DELETE',
      url: '/clips/:clipId',
      scopes: SCOPES.delete,
      label: 'LIGHT',
      handler: (req, reply) => {
        const c = findClip(p(req, 'clipId'));
        // A soft delete: the clip goes to the trash and is listed again only with status=RECORD_DELETE.
        if (c.status === 'RECORD_DELETE')
          throw new ZoomError(404, 2000, `Clip does not exist: ${c.clip_id}.`);
        c.status = 'RECORD_DELETE';
        c.modified = now();
        ctx.changed();
        return reply.code(204).send();
      },
    });

    ctx.route({
      method: 'GET',
      url: '/clips/:clipId/comments',
      scopes: SCOPES.comments,
      label: 'LIGHT',
      handler: (req) => {
        const c = findClip(p(req, 'clipId'));
        const all = (slice().comments[c.clip_id] ?? []).filter((x) => x.created <= now());
        const out = (x: CommentRec) => ({
          comment_id: x.comment_id,
          content: x.content,
          created_date: zoomTime(new Date(x.created)),
          modified_date: zoomTime(new Date(x.modified)),
          display_name: x.author,
          avatar: `${ctx.baseUrl}/p/${x.avatar_id}/avatar.png`,
          ...(x.parent ? { parent_node_id: x.parent } : {}),
          edited: x.modified !== x.created,
          mentions: x.mentions,
          content_type: x.mentions.length ? 'TEXT_WITH_MENTION' : 'TEXT',
        });
        const top = all.filter((x) => !x.parent).sort((a, b) => b.created - a.created);
        const page = ctx.paginate(req, top, { defaultSize: 15, maxSize: 50 });
        return {
          data: page.items.map((x) => ({
            ...out(x),
            children_comments: all.filter((y) => y.parent === x.comment_id).map(out),
          })),
          next_page_token: page.nextPageToken,
          page_size: page.pageSize,
        };
      },
    });
  },
});
