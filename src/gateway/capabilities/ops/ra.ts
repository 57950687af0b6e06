/**
 * ra (revenue accelerator): the platform's analysed sales conversations (meetings and phone
 * calls), the CRM deals they belong to with their activity timeline, a conversation's content
 * analysis, and its comment thread (read and post). All under the platform's `/zra/*` paths.
 */
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import {
  defineOp,
  id,
  instant,
  objectUnion,
  pageOf,
  pageSchema,
  paging,
  seg,
  type RestBinding,
} from '../operation.js';
import { bodyOf, pathParam, queryWithPathId, withPathId } from '../rest-input.js';
import { granular } from '../scopes.js';

const GROUP = 'ra';

/** Conversation ids look like `<meeting uuid>,<start ms>` and hold `+`, `/`, `=` and `,`. */
const conversationId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.+=/,-]+$/, 'conversation_id has characters the platform never uses')
  .describe('conversation_id from list_conversations or deal_activities, like "abc+/D==,1700000000000"');

/** The platform wants `yyyy-MM-ddTHH:mm:ssZ` exactly (UTC, no fraction). */
const utc = (v: string) => new Date(v).toISOString().replace(/\.\d{3}Z$/, 'Z');

const bool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// Our views: the platform's fields as given, a missing one as null (no value is guaranteed).
const text = z.string().nullable();
const number = z.number().nullable();
const time = text.describe('ISO 8601 instant, as the platform gives it');
const score = number.describe("the platform's score, as given");

interface PlatformConversation {
  conversation_id?: string;
  host_id?: string;
  meeting_id?: number | string;
  meeting_uuid?: string;
  deal_id?: string;
  topic?: string;
  conversation_topic?: string;
  duration?: number;
  duration_sec?: number;
  conversation_type?: string;
  meeting_start_time?: string;
  iq_processed_time?: string;
  engagement_score?: number;
  sentiment_score?: number;
  engaging_questions_count?: number;
  next_steps_count?: number;
  filler_words_count?: number;
  processing_analysis?: boolean;
}

const conversationView = z.object({
  conversation_id: text.describe('for conversation_analysis and comments'),
  topic: text,
  conversation_type: text.describe('meeting or phone'),
  deal_id: text.describe('its CRM deal (see list_deals)'),
  host_id: text,
  video_id: text.describe("the platform's meeting id, as text"),
  meeting_uuid: text,
  meeting_start_time: time,
  duration_sec: number.describe('seconds'),
  processing_analysis: z.boolean().describe('true while the platform is still analysing it'),
  iq_processed_time: time.describe('when the analysis finished'),
  engagement_score: score,
  sentiment_score: score,
  engaging_questions_count: number,
  next_steps_count: number,
  filler_words_count: number,
});

const conversation = (c: PlatformConversation): z.output<typeof conversationView> => ({
  conversation_id: c.conversation_id ?? null,
  topic: c.conversation_topic ?? c.topic ?? null,
  conversation_type: c.conversation_type ?? null,
  deal_id: str(c.deal_id),
  host_id: str(c.host_id),
  video_id: c.meeting_id !== undefined && c.meeting_id !== null ? String(c.meeting_id) : null,
  meeting_uuid: str(c.meeting_uuid),
  meeting_start_time: str(c.meeting_start_time),
  duration_sec: num(c.duration_sec) ?? (num(c.duration) !== null ? (c.duration as number) * 60 : null),
  processing_analysis: c.processing_analysis === true,
  iq_processed_time: str(c.iq_processed_time),
  engagement_score: num(c.engagement_score),
  sentiment_score: num(c.sentiment_score),
  engaging_questions_count: num(c.engaging_questions_count),
  next_steps_count: num(c.next_steps_count),
  filler_words_count: num(c.filler_words_count),
});

interface PlatformDeal {
  deal_id?: string;
  deal_name?: string;
  deal_stage?: string;
  deal_description?: string;
  owner_name?: string;
  owner_email?: string;
  owner_id?: string;
  deal_is_closed?: boolean;
  create_time?: string;
  account_name?: string;
  deal_is_private?: boolean;
  deal_amount?: number;
  currency_type?: string;
  close_date?: string;
  time_in_stage?: number;
  number_of_conversations?: number;
  last_activity_time?: string;
  account_type?: string;
}

const dealView = z.object({
  deal_id: text,
  deal_name: text,
  deal_stage: text.describe('the CRM stage, like "Needs Analysis"'),
  deal_description: text,
  account_name: text,
  deal_amount: number,
  currency_type: text.describe('currency code, like USD'),
  close_date: text,
  deal_is_closed: z.boolean(),
  owner_id: text,
  owner_name: text,
  owner_email: text,
  create_time: time,
  time_in_stage_days: number.describe('days in its current stage'),
  number_of_conversations: number,
  last_activity_time: time,
  account_type: text,
});

const deal = (d: PlatformDeal): z.output<typeof dealView> => ({
  deal_id: d.deal_id ?? null,
  deal_name: d.deal_name ?? null,
  deal_stage: d.deal_stage ?? null,
  deal_description: str(d.deal_description),
  account_name: str(d.account_name),
  deal_amount: num(d.deal_amount),
  currency_type: str(d.currency_type),
  close_date: str(d.close_date),
  deal_is_closed: d.deal_is_closed === true,
  owner_id: str(d.owner_id),
  owner_name: str(d.owner_name),
  owner_email: str(d.owner_email),
  create_time: str(d.create_time),
  time_in_stage_days: num(d.time_in_stage),
  number_of_conversations: num(d.number_of_conversations),
  last_activity_time: str(d.last_activity_time),
  account_type: str(d.account_type),
});

interface PlatformActivity {
  conversation_id?: string;
  conversation_topic?: string;
  deal_stage?: string;
  sentiment_score?: number;
  engagement_score?: number;
  host_id?: string;
  direction?: string;
  start_date?: string;
  activity_type?: string;
  stage_during_conversation?: string;
  processing_analysis?: boolean;
  message_ids?: string;
  number_of_message_in_thread?: number;
  duration?: number;
}

const activityView = z.object({
  activity_type: text.describe('meeting, call or email'),
  conversation_id: text.describe('meetings and calls: for conversation_analysis and comments'),
  topic: text,
  start_date: time,
  duration_min: number.describe('minutes'),
  direction: text,
  host_id: text,
  stage_during_conversation: text.describe('the deal stage at the time'),
  processing_analysis: z.boolean().describe('true while the platform is still analysing it'),
  sentiment_score: score.describe("the platform's score; null for email"),
  engagement_score: score.describe("the platform's score; null for email"),
  message_ids: text.describe("email: the thread's message ids"),
  number_of_message_in_thread: number,
});

const activity = (a: PlatformActivity): z.output<typeof activityView> => ({
  activity_type: a.activity_type ?? null,
  conversation_id: str(a.conversation_id),
  topic: str(a.conversation_topic),
  start_date: str(a.start_date),
  duration_min: num(a.duration),
  direction: str(a.direction),
  host_id: str(a.host_id),
  stage_during_conversation: str(a.stage_during_conversation),
  processing_analysis: a.processing_analysis === true,
  sentiment_score: a.activity_type === 'email' ? null : num(a.sentiment_score),
  engagement_score: a.activity_type === 'email' ? null : num(a.engagement_score),
  message_ids: str(a.message_ids),
  number_of_message_in_thread: num(a.number_of_message_in_thread),
});

interface PlatformComment {
  id?: string;
  parent_comment_id?: string;
  user_name?: string;
  user_email?: string;
  created_time?: string;
  last_modified_time?: string;
  comment?: string;
  mention_users?: { user_id?: string; user_name?: string }[];
  mention_teams?: { team_id?: string; team_name?: string }[];
  is_private?: boolean;
  time_in_recording?: string;
}

const commentView = z.object({
  id: text,
  parent_comment_id: text.describe('the comment this one replies to'),
  comment: z.string(),
  user_name: text,
  user_email: text,
  created_time: time,
  last_modified_time: time,
  is_private: z.boolean().describe('only the author sees it'),
  time_in_recording: text.describe('where in the recording it points, hh:mm:ss'),
  mention_users: z.array(z.object({ user_id: text, user_name: text })),
  mention_teams: z.array(z.object({ team_id: text, team_name: text })),
});

/** comments' two answers, each also the output of its own REST method (GET lists, POST posts). */
export const listedComments = pageSchema(commentView).describe('the comments, when no comment was given');
export const postedComment = commentView.describe('the posted comment');
const commentsOutput = objectUnion(z.union([listedComments, postedComment]));

const comment = (c: PlatformComment): z.output<typeof commentView> => ({
  id: c.id ?? null,
  parent_comment_id: str(c.parent_comment_id),
  comment: c.comment ?? '',
  user_name: str(c.user_name),
  user_email: str(c.user_email),
  created_time: str(c.created_time),
  last_modified_time: str(c.last_modified_time),
  is_private: c.is_private === true,
  time_in_recording: str(c.time_in_recording),
  mention_users: (c.mention_users ?? []).map((u) => ({
    user_id: u.user_id ?? null,
    user_name: u.user_name ?? null,
  })),
  mention_teams: (c.mention_teams ?? []).map((t) => ({
    team_id: t.team_id ?? null,
    team_name: t.team_name ?? null,
  })),
});

interface PlatformLine {
  user_id?: string;
  display_name?: string;
  text?: string;
  label?: string;
  key_word?: string;
  indicator_name?: string;
  indicator_id?: string;
  start_time?: string;
  end_time?: string;
}
type Sections = { section?: PlatformLine[] }[] | undefined;

const lineView = z.object({
  speaker: text.describe("the speaker's display name"),
  user_id: text,
  text: z.string(),
  label: text.describe('why it was marked: the indicator or label'),
  key_word: text,
  start_time: text.describe('where in the recording it starts, as the platform gives it'),
  end_time: text,
});
const lineList = z.array(lineView);

/** One analysed utterance: who said what, when, and why it was marked. */
const line = (l: PlatformLine): z.output<typeof lineView> => ({
  speaker: l.display_name ?? null,
  user_id: str(l.user_id),
  text: l.text ?? '',
  label: str(l.indicator_name) ?? str(l.label),
  key_word: str(l.key_word),
  start_time: str(l.start_time),
  end_time: str(l.end_time),
});
const lines = (s: Sections) => (s ?? []).flatMap((x) => x.section ?? []).map(line);

interface PlatformAnalysis {
  summary?: string;
  topics?: Sections;
  next_steps?: Sections;
  good_questions?: Sections;
  indicators?: Sections;
  smart_chapters?: {
    title?: string;
    summary?: string;
    category?: string;
    start_time?: string;
    end_time?: string;
  }[];
  deal_memo?: {
    potential_wins?: { factor?: string; explanation?: string }[];
    potential_concerns?: { factor?: string; explanation?: string }[];
  };
  playbooks?: {
    playbook_name?: string;
    elements?: { element_name?: string; answer?: { summaries?: string[] } }[];
  }[];
}

const ANALYSIS_TYPES = [
  'all',
  'topics',
  'nextSteps',
  'engagingQuestions',
  'indicators',
  'smartChapters',
  'dealMemo',
] as const;
type AnalysisType = (typeof ANALYSIS_TYPES)[number];

const factorView = z.object({ factor: z.string(), explanation: z.string() });
const chaptersPart = {
  summary: text.describe('a summary of the whole conversation'),
  smart_chapters: z.array(
    z.object({ title: z.string(), summary: text, category: text, start_time: text, end_time: text }),
  ),
};
const dealMemo = z
  .object({ potential_wins: z.array(factorView), potential_concerns: z.array(factorView) })
  .nullable()
  .describe('null when the platform has none');
const playbooks = z.array(
  z.object({
    playbook_name: z.string(),
    elements: z.array(z.object({ element_name: z.string(), summaries: z.array(z.string()) })),
  }),
);
const head = <T extends AnalysisType>(t: T) => ({ conversation_id: z.string(), analysis_type: z.literal(t) });

/** Only the parts the requested type covers, each present (empty when none). */
const analysisView = objectUnion(
  z.discriminatedUnion('analysis_type', [
    z.object({
      ...head('all'),
      ...chaptersPart,
      topics: lineList,
      next_steps: lineList,
      good_questions: lineList,
      indicators: lineList,
      deal_memo: dealMemo,
      playbooks,
    }),
    z.object({ ...head('topics'), topics: lineList }),
    z.object({ ...head('nextSteps'), next_steps: lineList }),
    z.object({ ...head('engagingQuestions'), good_questions: lineList }),
    z.object({ ...head('indicators'), indicators: lineList }),
    z.object({ ...head('smartChapters'), ...chaptersPart }),
    z.object({ ...head('dealMemo'), deal_memo: dealMemo }),
  ]),
);

const factors = (list: { factor?: string; explanation?: string }[] | undefined) =>
  (list ?? []).map((f) => ({ factor: f.factor ?? '', explanation: f.explanation ?? '' }));

/** Our analysis shape for the requested type (see analysisView). */
function analysis(
  conversation_id: string,
  type: AnalysisType,
  a: PlatformAnalysis,
): z.output<typeof analysisView> {
  const chapters = () => ({
    summary: str(a.summary),
    smart_chapters: (a.smart_chapters ?? []).map((c) => ({
      title: c.title ?? '',
      summary: str(c.summary),
      category: str(c.category),
      start_time: str(c.start_time),
      end_time: str(c.end_time),
    })),
  });
  const memo = () =>
    a.deal_memo
      ? {
          potential_wins: factors(a.deal_memo.potential_wins),
          potential_concerns: factors(a.deal_memo.potential_concerns),
        }
      : null;
  switch (type) {
    case 'all':
      return {
        conversation_id,
        analysis_type: type,
        ...chapters(),
        topics: lines(a.topics),
        next_steps: lines(a.next_steps),
        good_questions: lines(a.good_questions),
        indicators: lines(a.indicators),
        deal_memo: memo(),
        playbooks: (a.playbooks ?? []).map((p) => ({
          playbook_name: p.playbook_name ?? '',
          elements: (p.elements ?? []).map((e) => ({
            element_name: e.element_name ?? '',
            summaries: e.answer?.summaries ?? [],
          })),
        })),
      };
    case 'smartChapters':
      return { conversation_id, analysis_type: type, ...chapters() };
    case 'topics':
      return { conversation_id, analysis_type: type, topics: lines(a.topics) };
    case 'nextSteps':
      return { conversation_id, analysis_type: type, next_steps: lines(a.next_steps) };
    case 'engagingQuestions':
      return { conversation_id, analysis_type: type, good_questions: lines(a.good_questions) };
    case 'indicators':
      return { conversation_id, analysis_type: type, indicators: lines(a.indicators) };
    case 'dealMemo':
      return { conversation_id, analysis_type: type, deal_memo: memo() };
  }
}

const needsComment = (why: string) =>
  new AppError(400, 'validation_failed', 'The input is not valid.', {
    issues: [{ path: 'comment', message: why }],
  });

/** One operation, two paths: GET lists the comments (a GET never writes), POST posts one (201). */
const COMMENTS_REST: readonly RestBinding[] = [
  {
    method: 'GET',
    url: '/api/video/ra/conversations/:conversationId/comments',
    input: (req) => {
      const q = queryWithPathId(req, 'conversationId', 'conversation_id');
      if ('comment' in q) throw needsComment('post a comment with POST, not GET');
      return q;
    },
  },
  {
    method: 'POST',
    url: '/api/video/ra/conversations/:conversationId/comments',
    status: 201,
    input: (req) => {
      const b = bodyOf(req);
      if (b['comment'] === undefined) throw needsComment('comment is required');
      return { ...b, conversation_id: pathParam(req, 'conversationId') };
    },
  },
];

export const raOps = [
  defineOp({
    group: GROUP,
    name: 'list_conversations',
    scopes: granular('zra:read:list_conversations'),

    rest: [{ method: 'GET', url: '/api/video/ra/conversations' }],
    summary:
      'Lists analysed sales conversations (meetings and phone calls), newest first, optionally by time window, deal, host or type.',
    kind: 'read',
    input: z
      .object({
        from: instant.optional().describe('conversations that started at or after this time'),
        to: instant.optional().describe('conversations that started at or before this time'),
        deal_id: id('deal_id')
          .optional()
          .describe('only conversations of this deal (deal_id from list_deals)'),
        host: id('host')
          .optional()
          .describe("only conversations hosted by this user (the user's id or email)"),
        conversation_type: z.enum(['all', 'meeting', 'phone']).default('all'),
        ...paging(300, 30),
      })
      .refine((i) => !i.from || !i.to || Date.parse(i.from) <= Date.parse(i.to), {
        message: 'from must not be after to',
        path: ['from'],
      }),
    output: pageSchema(conversationView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ conversations?: PlatformConversation[]; next_page_token?: string }>(
        {
          method: 'GET',
          path: '/zra/conversations',
          query: {
            from: i.from ? utc(i.from) : undefined,
            to: i.to ? utc(i.to) : undefined,
            deal_id: i.deal_id,
            host_id: i.host,
            conversation_type: i.conversation_type === 'all' ? undefined : i.conversation_type,
            page_size: i.limit,
            next_page_token: i.cursor,
          },
          label: 'MEDIUM',
          group: GROUP,
        },
      );
      return pageOf((r.data.conversations ?? []).map(conversation), r.data.next_page_token);
    },
  }),

  defineOp({
    group: GROUP,
    name: 'list_deals',
    scopes: granular('zra:read:list_deals'),

    rest: [{ method: 'GET', url: '/api/video/ra/deals' }],
    summary:
      'Lists CRM deals with their stage, amount, owner and conversation count, most recently active first.',
    kind: 'read',
    input: z
      .object({
        deal_name: z.string().trim().min(1).max(200).optional().describe('part of the deal name'),
        deal_stage: z
          .string()
          .trim()
          .min(1)
          .max(100)
          .optional()
          .describe('exact CRM stage, like "Needs Analysis" or "Negotiation/Review" (case-insensitive)'),
        min_amount: z.coerce.number().int().min(0).max(1e12).optional().describe('smallest deal amount'),
        max_amount: z.coerce.number().int().min(0).max(1e12).optional().describe('largest deal amount'),
        ...paging(300, 30),
      })
      .refine(
        (i) => i.min_amount === undefined || i.max_amount === undefined || i.min_amount <= i.max_amount,
        {
          message: 'min_amount must not exceed max_amount',
          path: ['min_amount'],
        },
      ),
    output: pageSchema(dealView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ deals?: PlatformDeal[]; next_page_token?: string }>({
        method: 'GET',
        path: '/zra/deals',
        query: {
          deal_name: i.deal_name,
          deal_stage: i.deal_stage,
          min_deal_amount: i.min_amount,
          max_deal_amount: i.max_amount,
          page_size: i.limit,
          next_page_token: i.cursor,
        },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.deals ?? []).map(deal), r.data.next_page_token);
    },
  }),

  defineOp({
    group: GROUP,
    name: 'deal_activities',
    scopes: granular('zra:read:list_deal_activities'),

    rest: [
      {
        method: 'GET',
        url: '/api/video/ra/deals/:dealId/activities',
        input: withPathId('dealId', 'deal_id'),
      },
    ],
    summary: "Lists a deal's activity timeline (meetings, calls and email threads), newest first.",
    kind: 'read',
    input: z.object({
      deal_id: id('deal_id').describe('deal_id from list_deals'),
      ...paging(300, 30),
    }),
    output: pageSchema(activityView),
    async run(ctx, i) {
      const r = await ctx.platform.call<{ activities?: PlatformActivity[]; next_page_token?: string }>({
        method: 'GET',
        path: `/zra/deals/${seg(i.deal_id)}/activities`,
        query: { page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.activities ?? []).map(activity), r.data.next_page_token);
    },
  }),

  defineOp({
    group: GROUP,
    name: 'conversation_analysis',
    scopes: granular('zra:read:conversation_analysis'),

    rest: [
      {
        method: 'GET',
        url: '/api/video/ra/conversations/:conversationId/analysis',
        input: withPathId('conversationId', 'conversation_id'),
      },
    ],
    summary:
      "A conversation's content analysis: summary and chapters, topics, next steps, engaging questions, indicators, deal memo and playbooks.",
    kind: 'read',
    input: z.object({
      conversation_id: conversationId,
      analysis_type: z
        .enum(ANALYSIS_TYPES)
        .default('all')
        .describe('which part of the analysis; smartChapters includes the summary'),
    }),
    output: analysisView,
    async run(ctx, i) {
      const r = await ctx.platform.call<PlatformAnalysis>({
        method: 'GET',
        path: `/zra/conversations/${seg(i.conversation_id)}/content_analysis`,
        query: { analysis_type: i.analysis_type },
        label: 'MEDIUM',
        group: GROUP,
      });
      return analysis(i.conversation_id, i.analysis_type, r.data ?? {});
    },
  }),

  defineOp({
    group: GROUP,
    name: 'comments',
    scopes: granular('zra:read:list_conversation_comments'),

    rest: COMMENTS_REST,
    summary:
      "Lists a conversation's comments, oldest first; with `comment`, posts a new comment (or a reply) and returns it.",
    kind: 'write',
    // Posting adds a comment each time it runs; without `comment` it only reads the thread.
    creates: true,
    createsWhen: (i) => i.comment !== undefined,
    input: z
      .object({
        conversation_id: conversationId,
        comment: z
          .string()
          .trim()
          .min(1)
          .max(2000)
          .optional()
          .describe('text of a new comment to post; leave out to list the comments'),
        parent_comment_id: id('parent_comment_id')
          .optional()
          .describe('reply to this comment (with comment)'),
        is_private: bool.optional().describe('only the author sees it (with comment)'),
        time_in_recording: z
          .string()
          .regex(/^\d{2}:[0-5]\d:[0-5]\d$/, 'must be a time like 00:04:10')
          .optional()
          .describe('where in the recording the comment points, hh:mm:ss (with comment)'),
        ...paging(300, 30),
      })
      .superRefine((i, c) => {
        if (i.comment !== undefined) return;
        for (const k of ['parent_comment_id', 'is_private', 'time_in_recording'] as const) {
          if (i[k] !== undefined) c.addIssue({ code: 'custom', path: [k], message: `${k} needs comment` });
        }
      }),
    output: commentsOutput,
    async run(ctx, i): Promise<z.output<typeof commentsOutput>> {
      const path = `/zra/conversations/${seg(i.conversation_id)}/comments`;
      if (i.comment !== undefined) {
        const r = await ctx.platform.call<PlatformComment>({
          method: 'POST',
          path,
          body: {
            comment: i.comment,
            ...(i.parent_comment_id ? { parent_comment_id: i.parent_comment_id } : {}),
            ...(i.is_private !== undefined ? { is_private: i.is_private } : {}),
            ...(i.time_in_recording ? { time_in_recording: i.time_in_recording } : {}),
          },
          label: 'MEDIUM',
          group: GROUP,
        });
        if (!r.data?.id)
          throw new AppError(502, 'upstream_error', 'The platform did not return the comment.');
        return comment(r.data);
      }
      const r = await ctx.platform.call<{ comments?: PlatformComment[]; next_page_token?: string }>({
        method: 'GET',
        path,
        query: { page_size: i.limit, next_page_token: i.cursor },
        label: 'MEDIUM',
        group: GROUP,
      });
      return pageOf((r.data.comments ?? []).map(comment), r.data.next_page_token);
    },
  }),
];
