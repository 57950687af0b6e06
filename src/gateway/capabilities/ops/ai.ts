/**
 * ai: questions and searches over the linked user's meetings. The platform has no REST endpoint
 * for either (its AI Companion /search and /ask were announced, then withdrawn): both live only
 * on its hosted MCP server (tools `ask` and `search_meetings`), which we call through
 * `ctx.hostedMcp`. When that server is unavailable we fall back to retrieval over the REST API
 * and say so (`via: 'fallback_retrieval'` plus a `note`):
 *
 * - ask: list the recent past meetings, fetch the AI summaries of the best keyword matches (at
 *   most 5 summary calls), and compose a short extractive answer citing those meetings;
 * - search: a keyword filter over the meeting list (topic and agenda), paged locally.
 *
 * knowledge_graph has no public API and no operation.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { AppError } from '../../../core/errors.js';
import {
  date,
  day,
  defineOp,
  unoffered,
  instant,
  pageOf,
  pageSchema,
  paging,
  seg,
  type OpContext,
  type Page,
} from '../operation.js';

// ---------------------------------------------------------------------------------------------
// Shapes.
// ---------------------------------------------------------------------------------------------

const via = z
  .enum(['hosted_mcp', 'fallback_retrieval'])
  .describe(
    "hosted_mcp: the platform's hosted MCP server answered; fallback_retrieval: the REST fallback did",
  );
export type Via = z.output<typeof via>;

const aiSource = z.object({
  video_id: z.string().describe('the meeting number, as text'),
  topic: z.string(),
  start_time: z.string(),
});
export type AiSource = z.output<typeof aiSource>;

const whyFallback = z
  .string()
  .nullable()
  .describe('why the fallback answered; null when the hosted MCP server did');

const aiAnswer = z.object({
  answer: z.string().describe('plain text; marks like [1], where it has them, cite the sources by position'),
  sources: z.array(aiSource).describe('the meetings the answer cites, in the order of its [n] marks'),
  via,
  note: whyFallback,
});
export type AiAnswer = z.output<typeof aiAnswer>;

const aiSearchHit = aiSource.extend({
  snippets: z
    .array(z.string())
    .describe('matching passages: topic, agenda, summary, or `Speaker (HH:MM:SS): text` from a transcript'),
});
export type AiSearchHit = z.output<typeof aiSearchHit>;

const aiSearchPage = pageSchema(aiSearchHit).extend({ via, note: whyFallback });
export type AiSearchPage = Page<AiSearchHit> & Pick<AiAnswer, 'via' | 'note'>;

/** What we read of the hosted tools' structured results (extra fields are ignored). */
const hostedSearch = z.object({
  next_page_token: z.string().optional(),
  meetings: z.array(
    z.object({
      id: z.union([z.number(), z.string()]),
      topic: z.string(),
      start_time: z.string(),
      matches: z
        .array(
          z.object({
            snippet: z.string(),
            speaker: z.string().optional(),
            time: z.string().optional(),
          }),
        )
        .optional(),
    }),
  ),
});

const hostedAsk = z.object({
  answer: z.string(),
  citations: z
    .array(
      z.object({
        meeting_id: z.union([z.number(), z.string()]),
        topic: z.string(),
        start_time: z.string(),
      }),
    )
    .optional(),
});

interface PlatformMeeting {
  id?: number | string;
  topic?: string;
  start_time?: string;
  agenda?: string;
}

/** A listed meeting with the fields we rely on. */
type ListedMeeting = PlatformMeeting & { id: number | string; topic: string; start_time: string };

interface PlatformSummary {
  summary_overview?: string;
  summary_details?: { label?: string; summary?: string }[];
  next_steps?: string[];
  edited_summary?: { summary_overview?: string; next_steps?: string[] };
}

// ---------------------------------------------------------------------------------------------
// Helpers.
// ---------------------------------------------------------------------------------------------

const isUnavailable = (err: unknown): err is AppError =>
  err instanceof AppError && err.code === 'hosted_mcp_unavailable';

const unreadable = (tool: string) =>
  new AppError(503, 'hosted_mcp_unavailable', `The hosted ${tool} tool answered in a shape we cannot read.`, {
    reason: 'bad_response',
    tool,
  });

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to was we were what when where ' +
    'which who whom why will with would you your about any all also meeting meetings tell show find give know ' +
    'said say says discuss discussed talk talked us anything something please list last next week weeks month ' +
    'today yesterday upcoming recent recently past happen happened'
  ).split(' '),
);

/** Lower-case words without stop words, with a light plural stemmer. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const raw of text
    .toLowerCase()
    .normalize('NFKD')
    .split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    let w = raw;
    if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
    else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
    out.push(w);
  }
  return out;
}

const overlap = (text: string, want: Set<string>) => new Set(terms(text).filter((t) => want.has(t))).size;

const clip = (s: string, n = 220) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

const source = (m: { id: number | string; topic: string; start_time: string }): AiSource => ({
  video_id: String(m.id),
  topic: m.topic,
  start_time: m.start_time,
});

/** `yyyy-mm-dd` or an instant; a bare `to` date covers its whole day. */
const bound = (v: string | undefined, end: boolean) =>
  v === undefined
    ? undefined
    : Date.parse(day.safeParse(v).success ? `${v}T${end ? '23:59:59.999' : '00:00:00'}Z` : v);

const MAX_LIST_PAGES = 2;

/** The linked user's meetings of one list type, at most two pages of 300. */
async function listMeetings(
  ctx: OpContext,
  type: 'scheduled' | 'previous_meetings',
  range: { from?: string | undefined; to?: string | undefined } = {},
): Promise<ListedMeeting[]> {
  const out: PlatformMeeting[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const r = await ctx.platform.call<{ meetings?: PlatformMeeting[]; next_page_token?: string }>({
      method: 'GET',
      path: `/users/${seg(ctx.uid)}/meetings`,
      query: {
        type,
        page_size: 300,
        next_page_token: token,
        from: range.from?.slice(0, 10),
        to: range.to?.slice(0, 10),
      },
      label: 'MEDIUM',
      group: 'ai',
    });
    out.push(...(r.data.meetings ?? []));
    token = r.data.next_page_token || undefined;
    if (!token) break;
  }
  return out.filter(
    (m): m is ListedMeeting =>
      m.id !== undefined && typeof m.topic === 'string' && typeof m.start_time === 'string',
  );
}

const REASONS: Record<string, string> = {
  not_configured: 'not configured',
  timeout: 'no answer in time',
  network: 'unreachable',
  rpc_error: 'request refused',
  bad_response: 'unreadable answer',
  protocol_version: 'unsupported protocol revision',
};

/** "The platform's hosted MCP server was unavailable (HTTP 503)", from its AppError. */
function unavailableBecause(err: AppError): string {
  const d = err.details ?? {};
  const reason =
    d['reason'] === 'http_status' && typeof d['status'] === 'number'
      ? `HTTP ${d['status']}`
      : REASONS[String(d['reason'])];
  return reason
    ? `The platform's hosted MCP server was unavailable (${reason})`
    : err.message.replace(/\.$/, '');
}

// ---------------------------------------------------------------------------------------------
// Search.
// ---------------------------------------------------------------------------------------------

const searchInput = z
  .object({
    q: z.string().trim().min(1).max(200).describe('keywords: a topic, company, person or phrase'),
    from: z
      .union([date, instant])
      .optional()
      .describe('only meetings starting at or after this date (yyyy-mm-dd, a real calendar date) or time'),
    to: z
      .union([date, instant])
      .optional()
      .describe('only meetings starting at or before this date (whole day; a real calendar date) or time'),
    ...paging(50, 10),
  })
  .refine((i) => !((bound(i.from, false) ?? -Infinity) > (bound(i.to, true) ?? Infinity)), {
    message: 'to must not be before from',
    path: ['to'],
  });
type SearchInput = z.output<typeof searchInput>;

/** Fallback cursors carry their own prefix, so a page of the fallback is continued by the fallback. */
const FALLBACK_CURSOR = 'fb1.';
const MAX_FALLBACK_ITEMS = MAX_LIST_PAGES * 300;

const queryKey = (i: SearchInput) =>
  createHash('sha256')
    .update(JSON.stringify([[...new Set(terms(i.q))].sort(), i.from ?? null, i.to ?? null]))
    .digest('base64url')
    .slice(0, 10);

async function search(ctx: OpContext, i: SearchInput): Promise<AiSearchPage> {
  if (i.cursor?.startsWith(FALLBACK_CURSOR)) {
    return fallbackSearch(
      ctx,
      i,
      "The platform's hosted MCP server was unavailable when this search started",
    );
  }
  let structured: unknown;
  try {
    const r = await ctx.hostedMcp.callTool('search_meetings', {
      q: i.q,
      ...(i.from !== undefined ? { from: i.from } : {}),
      ...(i.to !== undefined ? { to: i.to } : {}),
      page_size: i.limit,
      ...(i.cursor !== undefined ? { next_page_token: i.cursor } : {}),
    });
    structured = r.structured;
  } catch (err) {
    if (!isUnavailable(err)) throw err;
    if (i.cursor !== undefined) {
      throw new AppError(
        503,
        'hosted_mcp_unavailable',
        'The hosted MCP search became unavailable while paging; its cursor cannot be continued. Search again without a cursor to get the fallback results.',
        err.details,
      );
    }
    return fallbackSearch(ctx, i, unavailableBecause(err));
  }
  const parsed = hostedSearch.safeParse(structured);
  if (!parsed.success) {
    if (i.cursor !== undefined) throw unreadable('search_meetings');
    return fallbackSearch(ctx, i, unavailableBecause(unreadable('search_meetings')));
  }
  return {
    ...pageOf(
      parsed.data.meetings.map((m) => ({
        ...source(m),
        snippets: (m.matches ?? []).map((x) =>
          x.speaker ? `${x.speaker}${x.time ? ` (${x.time})` : ''}: ${x.snippet}` : x.snippet,
        ),
      })),
      parsed.data.next_page_token,
    ),
    via: 'hosted_mcp',
    note: null,
  };
}

async function fallbackSearch(ctx: OpContext, i: SearchInput, why: string): Promise<AiSearchPage> {
  const key = queryKey(i);
  let offset = 0;
  if (i.cursor !== undefined) {
    const [o, k] = i.cursor.slice(FALLBACK_CURSOR.length).split('.');
    offset = Number(o);
    if (k !== key || !Number.isInteger(offset) || offset < 0 || offset > MAX_FALLBACK_ITEMS) {
      throw new AppError(400, 'validation_failed', 'The input is not valid.', {
        issues: [{ path: 'cursor', message: 'cursor does not belong to this search' }],
      });
    }
  }
  const from = bound(i.from, false);
  const to = bound(i.to, true);
  const want = new Set(terms(i.q));
  const ranked = (await listMeetings(ctx, 'scheduled', i))
    .filter((m) => {
      const t = Date.parse(m.start_time);
      return (from === undefined || t >= from) && (to === undefined || t <= to);
    })
    .map((m) => {
      const topic = overlap(m.topic, want);
      const agenda = overlap(m.agenda ?? '', want);
      const snippets = [...(topic ? [m.topic] : []), ...(agenda && m.agenda ? [clip(m.agenda)] : [])];
      return { m, score: want.size ? 3 * topic + agenda : 1, snippets };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.m.start_time.localeCompare(a.m.start_time));
  const page = ranked.slice(offset, offset + i.limit);
  const next = offset + i.limit < ranked.length ? `${FALLBACK_CURSOR}${offset + i.limit}.${key}` : null;
  return {
    ...pageOf(
      page.map(({ m, snippets }) => ({ ...source(m), snippets })),
      next,
    ),
    via: 'fallback_retrieval',
    note: `${why}, so this is a keyword match over the topics and agendas of the meeting list (summaries and transcripts are not searched).`,
  };
}

// ---------------------------------------------------------------------------------------------
// Ask.
// ---------------------------------------------------------------------------------------------

const askInput = z.object({
  question: z
    .string()
    .trim()
    .min(3)
    .max(2000)
    .describe('a question in plain language about what was said or decided in meetings'),
});

const MAX_SUMMARY_CALLS = 5;
const DECISION_RE = /\b(decid\w*|decision\w*|agree\w*|approv\w*)\b/i;
const DAY_MS = 86_400_000;

async function ask(ctx: OpContext, question: string): Promise<AiAnswer> {
  let structured: unknown;
  try {
    structured = (await ctx.hostedMcp.callTool('ask', { question })).structured;
  } catch (err) {
    if (!isUnavailable(err)) throw err;
    return fallbackAsk(ctx, question, err);
  }
  const parsed = hostedAsk.safeParse(structured);
  if (!parsed.success) return fallbackAsk(ctx, question, unreadable('ask'));
  const sources = new Map<string, AiSource>();
  for (const c of parsed.data.citations ?? []) {
    const s = source({ id: c.meeting_id, topic: c.topic, start_time: c.start_time });
    if (!sources.has(s.video_id)) sources.set(s.video_id, s);
  }
  return { answer: parsed.data.answer, sources: [...sources.values()], via: 'hosted_mcp', note: null };
}

/** Time words narrow the meetings considered, as the hosted tool does. */
function sinceFor(question: string, now: number): number | undefined {
  const q = question.toLowerCase();
  if (/\byesterday\b/.test(q)) return now - 2 * DAY_MS;
  if (/\b(last|past|this) week\b/.test(q)) return now - 7 * DAY_MS;
  if (/\b(last|past|this) month\b/.test(q)) return now - 31 * DAY_MS;
  return undefined;
}

interface Passage {
  m: AiSource;
  text: string;
  score: number;
}

async function fallbackAsk(ctx: OpContext, question: string, err: AppError): Promise<AiAnswer> {
  const note = `${unavailableBecause(err)}, so this answer was composed from the AI summaries of at most ${MAX_SUMMARY_CALLS} recent meetings that match the question, read through the REST API (transcripts were not read).`;
  const intent = askIntent(question);
  const { matching, candidates } = await candidateMeetings(ctx, question, intent.want);
  const fetched = await fetchSummaries(ctx, candidates);
  const { passages, overviews } = summaryPassages(fetched, candidates, intent);
  const picked = pickPassages(passages, overviews, matching, intent.want);
  if (!picked.length) {
    return {
      answer: 'I could not find anything about that in the summaries of your recent meetings.',
      sources: [],
      via: 'fallback_retrieval',
      note,
    };
  }
  const sources: AiSource[] = [];
  const lines = picked.map((p) => {
    let i = sources.findIndex((s) => s.video_id === p.m.video_id);
    if (i < 0) i = sources.push(p.m) - 1;
    return `- ${p.m.topic} (${p.m.start_time.slice(0, 10)}) [${i + 1}]: ${clip(p.text, 300)}`;
  });
  const head = sources.length === 1 ? 'From one meeting:' : `From ${sources.length} meetings:`;
  return { answer: `${head}\n${lines.join('\n')}`, sources, via: 'fallback_retrieval', note };
}

/** What kind of answer the question wants (next steps, decisions) and the words it searches for. */
interface AskIntent {
  nextSteps: boolean;
  decisions: boolean;
  want: Set<string>;
}

function askIntent(question: string): AskIntent {
  const nextSteps = /action item|next step|follow.?up|to.?do|owner|assigned|responsible|\bwho\b/i.test(
    question,
  );
  const decisions = DECISION_RE.test(question);
  // Words that only say what kind of answer is wanted are not searched for.
  const want = new Set(
    terms(question).filter(
      (w) =>
        !(nextSteps && /^(step|action|item|follow|todo|owner|assigned|responsible)$/.test(w)) &&
        !(decisions && DECISION_RE.test(w)),
    ),
  );
  return { nextSteps, decisions, want };
}

type Candidate = { m: ListedMeeting; score: number };

/**
 * Previous meetings (within the question's time words), ranked by the wanted words in topic
 * and agenda: those that match, and the at most MAX_SUMMARY_CALLS whose summaries are read.
 */
async function candidateMeetings(ctx: OpContext, question: string, want: Set<string>) {
  const since = sinceFor(question, ctx.now());
  const meetings = (await listMeetings(ctx, 'previous_meetings'))
    .filter((m) => since === undefined || Date.parse(m.start_time) >= since)
    .sort((a, b) => b.start_time.localeCompare(a.start_time));
  const ranked: Candidate[] = meetings
    .map((m) => ({ m, score: 3 * overlap(m.topic, want) + overlap(m.agenda ?? '', want) }))
    .sort((a, b) => b.score - a.score || b.m.start_time.localeCompare(a.m.start_time));
  const matching = ranked.filter((x) => x.score > 0);
  // Nothing matches by topic or agenda: the newest summaries may still answer it.
  const candidates = (matching.length ? matching : ranked).slice(0, MAX_SUMMARY_CALLS);
  return { matching, candidates };
}

/** The candidates' summaries at once; throws only when every one failed, one not for a 404. */
async function fetchSummaries(ctx: OpContext, candidates: Candidate[]) {
  const fetched = await Promise.allSettled(
    candidates.map(({ m }) =>
      ctx.platform.call<PlatformSummary>({
        method: 'GET',
        path: `/meetings/${seg(String(m.id))}/meeting_summary`,
        label: 'LIGHT',
        group: 'ai',
      }),
    ),
  );
  const failures = fetched.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  const hard = failures.find((f) => !(f.reason instanceof AppError && f.reason.status === 404));
  if (hard && failures.length === fetched.length) throw hard.reason;
  return fetched;
}

/** The summaries' parts that bear on the question, scored, and each meeting's overview. */
function summaryPassages(
  fetched: PromiseSettledResult<{ data: PlatformSummary }>[],
  candidates: Candidate[],
  { nextSteps, decisions, want }: AskIntent,
) {
  const passages: Passage[] = [];
  const overviews: Passage[] = [];
  fetched.forEach((r, n) => {
    const c = candidates[n];
    if (r.status !== 'fulfilled' || !c) return;
    const s = r.value.data;
    const m = source(c.m);
    // A summary part that only has the wanted kind (a decision, a next step) counts when its
    // meeting matched the question, or when the question names nothing else.
    const kindAlone = c.score > 0 || want.size === 0;
    const add = (text: string | undefined, boost: number) => {
      if (!text?.trim()) return;
      const hits = overlap(`${m.topic} ${text}`, want);
      if (hits > 0 || (boost > 0 && kindAlone)) passages.push({ m, text, score: hits + boost });
    };
    const overview = s.edited_summary?.summary_overview ?? s.summary_overview;
    if (overview) overviews.push({ m, text: overview, score: 0 });
    add(overview, 0);
    for (const d of s.summary_details ?? [])
      add(
        [d.label, d.summary].filter(Boolean).join(': '),
        decisions && DECISION_RE.test(`${d.label ?? ''}`) ? 1.5 : 0,
      );
    for (const step of s.edited_summary?.next_steps ?? s.next_steps ?? [])
      add(`Next step: ${step}`, nextSteps ? 1.5 : 0);
  });
  return { passages, overviews };
}

/** The best four passages, at most two per meeting and no repeats; else overviews or agendas. */
function pickPassages(
  passages: Passage[],
  overviews: Passage[],
  matching: Candidate[],
  want: Set<string>,
): Passage[] {
  passages.sort((a, b) => b.score - a.score || b.m.start_time.localeCompare(a.m.start_time));
  const picked: Passage[] = [];
  const perMeeting = new Map<string, number>();
  for (const p of passages) {
    if (picked.length >= 4) break;
    const n = perMeeting.get(p.m.video_id) ?? 0;
    if (n >= 2 || picked.some((x) => x.text === p.text && x.m.video_id === p.m.video_id)) continue;
    perMeeting.set(p.m.video_id, n + 1);
    picked.push(p);
  }
  // A question without content words ("what happened yesterday?"): the newest overviews.
  if (!picked.length && want.size === 0) picked.push(...overviews.slice(0, 3));
  if (!picked.length) {
    // No summaries to read: name the meetings whose topic or agenda matched, if any.
    for (const { m } of matching.slice(0, 3))
      picked.push({ m: source(m), text: `On the agenda: ${m.agenda || m.topic}`, score: 0 });
  }
  return picked;
}

// ---------------------------------------------------------------------------------------------
// Operations.
// ---------------------------------------------------------------------------------------------

export const aiOps = [
  defineOp({
    group: 'ai',
    name: 'ai_companion_ask',
    scopes: ['mcp:ask', 'meeting:read:summary', 'meeting:read'],
    availability: 'hosted_mcp',
    note: 'AI Companion ask has no REST endpoint (announced, then withdrawn); this uses the hosted MCP ask tool.',

    rest: [{ method: 'POST', url: '/api/video/ai/ask' }],
    summary:
      "Answers a question about the linked user's meetings from their AI summaries and transcripts, citing the meetings (hosted MCP ask; falls back to reading recent meeting summaries).",
    kind: 'read',
    input: askInput,
    output: aiAnswer,
    run: (ctx, i) => ask(ctx, i.question),
  }),
  defineOp({
    group: 'ai',
    name: 'ai_companion_search',
    scopes: ['meeting:read:search', 'meeting:read'],
    availability: 'hosted_mcp',
    note: 'AI Companion search has no REST endpoint; this uses the hosted MCP search tool.',
    summary:
      "Searches the linked user's meetings by keyword across topics, agendas, AI summaries and transcripts, best match first, with snippets (hosted MCP search; falls back to matching topics and agendas).",
    kind: 'read',
    input: searchInput,
    output: aiSearchPage,
    run: search,
  }),
  defineOp({
    group: 'ai',
    name: 'agentic_search',
    scopes: ['meeting:read:search', 'meeting:read'],
    availability: 'hosted_mcp',
    note: 'Agentic search exists only through the hosted MCP server.',

    rest: [{ method: 'GET', url: '/api/video/ai/search' }],
    summary:
      'Finds meetings by what was said in them: keyword search over topics, agendas, AI summaries and transcripts with matching snippets (hosted MCP search; falls back to matching topics and agendas).',
    kind: 'read',
    input: searchInput,
    output: aiSearchPage,
    run: search,
  }),
];

/** What the platform offers no public endpoint for (after the operations, in the seed's order). */
export const aiUnoffered = [
  unoffered('ai', 'knowledge_graph', 'The platform publishes no knowledge-graph API.'),
];
