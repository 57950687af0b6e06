/**
 * A stand-in for the platform's hosted MCP server (the only home of its meeting search and
 * AI "ask": there is no REST endpoint for either). `POST /mcp` — not under /v2 — serves two
 * read-only tools over the demo data:
 *
 * - `search_meetings` (q, from, to, page_size 50/300, next_page_token valid 15 minutes):
 *   keyword search over topics, agendas, AI summaries and transcripts, with matching snippets;
 * - `ask` (question): a short answer composed from the best-matching summary and transcript
 *   passages, citing meeting ids. Deterministic: same data, same question, same answer.
 *
 * The tool logic is pure functions of the meetings (and recordings) slices; the HTTP part uses
 * the project's MCP endpoint (both protocol eras, stateless) behind an emulator bearer token.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { createMcpEndpoint, MCP_BODY_LIMIT, rpcError, type RpcReply } from '../../mcp/mcp-endpoint.js';
import type { SandboxContext } from '../context.js';
import type { AccessToken } from '../state.js';
import { ZoomError } from '../zoom-error.js';
import type { MeetingRec, MeetingsSlice } from './meetings.js';
import { meetingContent, transcriptAvailable, type RecordingsSlice } from './recordings.js';

// ---------------------------------------------------------------------------------------------
// The searchable view of a meeting.
// ---------------------------------------------------------------------------------------------

export interface MeetingDoc {
  id: number;
  uuid: string;
  topic: string;
  start_time: string;
  duration: number;
  timezone: string;
  agenda: string;
  /** Only for meetings that ended with an AI summary. */
  summary?: { overview: string; details: { label: string; summary: string }[]; next_steps: string[] };
  /** Only while the cloud-recording transcript exists (not trashed or deleted). */
  transcript?: { speaker: string; text: string; start: number }[];
}

const NO_RECORDINGS: RecordingsSlice = { trashed: {}, trashedFiles: {}, deleted: [], deletedFiles: [] };

/** What the tools can see: every meeting, plus summaries and transcripts where they exist. */
export function meetingDocs(
  meetings: MeetingRec[],
  recordings: RecordingsSlice | undefined,
  now: Date,
): MeetingDoc[] {
  return meetings.map((m) => {
    const ended = m.status === 'ended' || Date.parse(m.start_time) + m.duration * 60_000 < now.getTime();
    const content = ended ? meetingContent(m) : undefined;
    const doc: MeetingDoc = {
      id: m.id,
      uuid: m.uuid,
      topic: m.topic,
      start_time: m.start_time,
      duration: m.duration,
      timezone: m.timezone,
      agenda: m.agenda,
    };
    if (content && m.has_summary) doc.summary = content.summary;
    if (content && transcriptAvailable(m, recordings ?? NO_RECORDINGS, now)) {
      doc.transcript = content.transcript.map((c) => ({ speaker: c.speaker, text: c.text, start: c.start }));
    }
    return doc;
  });
}

// ---------------------------------------------------------------------------------------------
// Text matching.
// ---------------------------------------------------------------------------------------------

const STOP = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my of on or our so than that the their them then there these they this to was we were what when where ' +
    'which who whom why will with would you your about any all also meeting meetings zoom tell show find give ' +
    'know said say says discuss discussed talk talked us anything something please list last next week weeks ' +
    'month today yesterday upcoming recent recently coming up scheduled happen happened happening planned made make'
  ).split(' '),
);

/** Lower-case words, without stop words, with a light plural stemmer. */
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

const hits = (text: string, want: Set<string>) => new Set(terms(text).filter((t) => want.has(t)));

const sentences = (text: string) => text.split(/(?<=[.;!?])\s+/).filter((s) => s.trim() !== '');

const clip = (s: string, n = 220) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

const clock = (sec: number) => {
  const t = Math.max(0, Math.floor(sec));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(t / 3600))}:${pad(Math.floor(t / 60) % 60)}:${pad(t % 60)}`;
};

export interface Match {
  source: 'topic' | 'agenda' | 'summary' | 'transcript';
  snippet: string;
  speaker?: string;
  /** Offset in the recording, for transcript matches. */
  time?: string;
}

/** A meeting's score for the query terms and its best snippets (score 0: no match). */
function scoreDoc(d: MeetingDoc, want: Set<string>): { score: number; matches: Match[] } {
  const matches: Match[] = [];
  let score = 0;
  const topic = hits(d.topic, want);
  if (topic.size) {
    score += 5 * topic.size;
    matches.push({ source: 'topic', snippet: d.topic });
  }
  const agenda = hits(d.agenda, want);
  if (agenda.size) {
    score += 2 * agenda.size;
    matches.push({ source: 'agenda', snippet: clip(d.agenda) });
  }
  if (d.summary) {
    const parts = [
      d.summary.overview,
      ...d.summary.details.map((x) => `${x.label}: ${x.summary}`),
      ...d.summary.next_steps,
    ];
    const all = new Set<string>();
    let best: { n: number; s: string } | undefined;
    for (const part of parts) {
      for (const s of sentences(part)) {
        const h = hits(s, want);
        h.forEach((x) => all.add(x));
        if (h.size && (!best || h.size > best.n)) best = { n: h.size, s };
      }
    }
    if (best) {
      score += 3 * all.size;
      matches.push({ source: 'summary', snippet: clip(best.s) });
    }
  }
  if (d.transcript) {
    const all = new Set<string>();
    const cues = d.transcript
      .map((c) => ({ c, h: hits(c.text, want) }))
      .filter((x) => x.h.size > 0)
      .sort((a, b) => b.h.size - a.h.size || a.c.start - b.c.start);
    for (const x of cues) x.h.forEach((t) => all.add(t));
    score += all.size;
    for (const { c } of cues.slice(0, 2))
      matches.push({ source: 'transcript', snippet: clip(c.text), speaker: c.speaker, time: clock(c.start) });
  }
  return { score, matches };
}

// ---------------------------------------------------------------------------------------------
// search_meetings
// ---------------------------------------------------------------------------------------------

export class McpToolError extends Error {}

export interface SearchArgs {
  q?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page_size?: number | undefined;
  next_page_token?: string | undefined;
}

export interface SearchHit {
  id: number;
  uuid: string;
  topic: string;
  start_time: string;
  duration: number;
  timezone: string;
  has_summary: boolean;
  has_transcript: boolean;
  matches: Match[];
}

export interface SearchResult {
  page_size: number;
  total_records: number;
  next_page_token: string;
  meetings: SearchHit[];
}

const PAGE_TOKEN_TTL_MS = 15 * 60_000;

/** `yyyy-mm-dd` or an ISO date-time; a bare `to` date covers its whole day. */
function bound(value: string | undefined, name: string, end: boolean): number | undefined {
  if (value === undefined || value === '') return undefined;
  const v = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00'}Z` : value;
  const t = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(t)) throw new McpToolError(`Invalid parameter: ${name}.`);
  return t;
}

function signToken(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url').slice(0, 22);
}

/** Keyword search over the meetings, best matches first (newest first when q is empty). */
export function searchMeetings(
  docs: MeetingDoc[],
  args: SearchArgs,
  opts: { now: Date; secret: string },
): SearchResult {
  const from = bound(args.from, 'from', false);
  const to = bound(args.to, 'to', true);
  if (from !== undefined && to !== undefined && from > to) throw new McpToolError('Invalid parameter: to.');
  const size = Math.min(Math.max(1, Math.floor(args.page_size ?? 50)), 300);
  const want = new Set(terms(args.q ?? ''));
  const scoped = docs.filter((d) => {
    const t = Date.parse(d.start_time);
    return (from === undefined || t >= from) && (to === undefined || t <= to);
  });
  const ranked = scoped
    .map((d) => ({ d, ...(want.size ? scoreDoc(d, want) : { score: 1, matches: [] }) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.d.start_time.localeCompare(a.d.start_time) || a.d.id - b.d.id);

  // Stateless page tokens: offset + the query they belong to + expiry, signed.
  const query = createHash('sha256')
    .update(JSON.stringify([[...want].sort(), from ?? null, to ?? null]))
    .digest('base64url')
    .slice(0, 12);
  let offset = 0;
  if (args.next_page_token) {
    const [payload, sig] = args.next_page_token.split('.');
    const got = Buffer.from(sig ?? '');
    const expected = Buffer.from(payload === undefined ? '' : signToken(opts.secret, payload));
    const good =
      payload !== undefined &&
      got.length === expected.length &&
      expected.length > 0 &&
      timingSafeEqual(got, expected);
    const parts = good ? Buffer.from(payload, 'base64url').toString('utf8').split('|') : [];
    const [o, qh, exp] = [Number(parts[0]), parts[1], Number(parts[2])];
    if (!good || qh !== query || !Number.isInteger(o) || o < 0 || !(exp > opts.now.getTime())) {
      throw new McpToolError('The next page token is invalid or expired.');
    }
    offset = o;
  }
  const page = ranked.slice(offset, offset + size);
  let next = '';
  if (offset + size < ranked.length) {
    const payload = Buffer.from(
      `${offset + size}|${query}|${opts.now.getTime() + PAGE_TOKEN_TTL_MS}`,
    ).toString('base64url');
    next = `${payload}.${signToken(opts.secret, payload)}`;
  }
  return {
    page_size: size,
    total_records: ranked.length,
    next_page_token: next,
    meetings: page.map(({ d, matches }) => ({
      id: d.id,
      uuid: d.uuid,
      topic: d.topic,
      start_time: d.start_time,
      duration: d.duration,
      timezone: d.timezone,
      has_summary: d.summary !== undefined,
      has_transcript: d.transcript !== undefined,
      matches,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// ask
// ---------------------------------------------------------------------------------------------

export interface Citation {
  index: number;
  meeting_id: number;
  meeting_uuid: string;
  topic: string;
  start_time: string;
  source: 'summary' | 'next_steps' | 'transcript' | 'agenda';
  excerpt: string;
}

export interface AskResult {
  answer: string;
  citations: Citation[];
}

interface Passage {
  doc: MeetingDoc;
  source: Citation['source'];
  text: string;
  words: Set<string>;
  boost: number;
  /** Agendas of meetings yet to happen say less than what was said in one. */
  weight: number;
}

const DECISION_RE = /\b(decid\w*|decision\w*|agree\w*|approv\w*)\b/i;

function passagesOf(d: MeetingDoc, intent: { nextSteps: boolean; decisions: boolean }): Passage[] {
  const out: Passage[] = [];
  const add = (source: Citation['source'], text: string, boost = 0, weight = 1) =>
    out.push({ doc: d, source, text, words: new Set(terms(`${d.topic} ${text}`)), boost, weight });
  const decision = (text: string) => (intent.decisions && DECISION_RE.test(text) ? 1.5 : 0);
  if (d.summary) {
    add('summary', d.summary.overview, decision(d.summary.overview));
    for (const x of d.summary.details) add('summary', `${x.label}: ${x.summary}`, decision(x.label));
    for (const s of d.summary.next_steps) add('next_steps', s, intent.nextSteps ? 2 : 0);
  }
  if (d.transcript) for (const c of d.transcript) add('transcript', `${c.speaker}: ${c.text}`, 0, 0.9);
  if (!d.summary && d.agenda) add('agenda', d.agenda, 0, 0.5);
  return out;
}

const DAY = 86_400_000;

/** Time words in the question narrow the meetings considered. */
function timeFilter(question: string, now: Date): ((d: MeetingDoc) => boolean) | undefined {
  const q = question.toLowerCase();
  const t = (d: MeetingDoc) => Date.parse(d.start_time);
  const n = now.getTime();
  if (/\byesterday\b/.test(q)) return (d) => t(d) >= n - 2 * DAY && t(d) < n;
  if (/\b(last|past|this) week\b/.test(q)) return (d) => t(d) >= n - 7 * DAY && t(d) < n;
  if (/\b(last|past|this) month\b/.test(q)) return (d) => t(d) >= n - 31 * DAY && t(d) < n;
  if (/\b(upcoming|next week|coming up|scheduled|tomorrow)\b/.test(q)) return (d) => t(d) >= n;
  return undefined;
}

const dateLabel = (d: MeetingDoc) => {
  try {
    return new Date(d.start_time).toLocaleDateString('en-US', {
      timeZone: d.timezone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    });
  } catch {
    return d.start_time.slice(0, 10);
  }
};

/**
 * Answers a question from the demo meetings' summaries and transcripts, citing meeting ids.
 * `me` is the caller's name, so "my action items" finds the caller's own next steps.
 */
export function askMeetings(
  docs: MeetingDoc[],
  question: string,
  opts: { now: Date; me?: string },
): AskResult {
  const want = new Set(terms(question));
  const intent = {
    nextSteps:
      /action item|next step|follow.?up|to.?do|todo|\bowes?\b|owner|assigned|responsible|\bwho\b/i.test(
        question,
      ),
    decisions: /decid|decision|agree|approv/i.test(question),
  };
  // Words that only say what kind of answer is wanted are not searched for.
  for (const w of [...want])
    if (
      (intent.nextSteps && /^(step|action|item|follow|todo|owe|owner|assigned|responsible)$/.test(w)) ||
      (intent.decisions && DECISION_RE.test(w))
    )
      want.delete(w);
  if (opts.me && intent.nextSteps && /\b(my|me|i)\b/i.test(question))
    for (const w of terms(opts.me)) want.add(w);
  const inTime = timeFilter(question, opts.now);
  const inWindow = inTime ? docs.filter(inTime) : docs;
  if (!want.size && !intent.nextSteps && !intent.decisions) {
    if (!inTime) {
      return {
        answer:
          'Ask about a topic, a company, a person or a decision, and I will look through your meeting summaries and transcripts.',
        citations: [],
      };
    }
    // "What is coming up next week?": the meetings in the window, nearest first.
    const n = opts.now.getTime();
    const near = [...inWindow]
      .sort((a, b) => Math.abs(Date.parse(a.start_time) - n) - Math.abs(Date.parse(b.start_time) - n))
      .slice(0, 5);
    return compose(
      near
        .map((d) => passagesOf(d, intent).find((p) => p.source === 'summary' || p.source === 'agenda'))
        .filter((p): p is Passage => p !== undefined),
      'No meetings in that period.',
    );
  }
  const pool = inWindow.flatMap((d) => passagesOf(d, intent));
  // Rarer words weigh more (IDF over all passages), so "Memphis" beats "percent".
  const df = new Map<string, number>();
  for (const p of pool) for (const w of p.words) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => Math.log(1 + pool.length / (df.get(w) ?? pool.length));
  const scored = pool
    .map((p) => {
      let s = 0;
      for (const w of want) if (p.words.has(w)) s += idf(w);
      const relevant = s > 0 || (!want.size && p.boost > 0);
      return { p, s: relevant ? (s + p.boost) * p.weight : 0 };
    })
    .filter((x) => x.s > 0)
    .sort(
      (a, b) =>
        b.s - a.s || b.p.doc.start_time.localeCompare(a.p.doc.start_time) || a.p.text.localeCompare(b.p.text),
    );

  // Keep the strong passages only: at most four, three per meeting, and none far below the best;
  // for "who / action items" questions, only next steps when a strong one exists.
  const floor = (scored[0]?.s ?? 0) * 0.4;
  const steps = scored.filter((x) => x.p.source === 'next_steps');
  const ranked = intent.nextSteps && (steps[0]?.s ?? 0) >= floor ? steps : scored;
  const picked: Passage[] = [];
  const perDoc = new Map<number, number>();
  for (const { p, s } of ranked) {
    if (picked.length >= 4 || s < floor) break;
    const n = perDoc.get(p.doc.id) ?? 0;
    if (n >= 3 || picked.some((x) => x.text === p.text)) continue;
    perDoc.set(p.doc.id, n + 1);
    picked.push(p);
  }
  return compose(
    picked,
    'I could not find anything about that in your meeting summaries, transcripts or agendas.',
  );
}

/** The answer text and its numbered citations (one number per meeting). */
function compose(picked: Passage[], none: string): AskResult {
  if (!picked.length) return { answer: none, citations: [] };
  const citations: Citation[] = [];
  const indexOf = new Map<number, number>();
  const lines = picked.map((p) => {
    let i = indexOf.get(p.doc.id);
    if (i === undefined) {
      i = indexOf.size + 1;
      indexOf.set(p.doc.id, i);
    }
    citations.push({
      index: i,
      meeting_id: p.doc.id,
      meeting_uuid: p.doc.uuid,
      topic: p.doc.topic,
      start_time: p.doc.start_time,
      source: p.source,
      excerpt: clip(p.text, 300),
    });
    const lead = p.source === 'next_steps' ? 'Next step: ' : p.source === 'agenda' ? 'On the agenda: ' : '';
    return `- ${p.doc.topic} (${dateLabel(p.doc)}) [${i}]: ${lead}${p.text}`;
  });
  const meetingsCited = indexOf.size;
  const head = meetingsCited === 1 ? 'From one meeting:' : `From ${meetingsCited} meetings:`;
  const sources = [...indexOf.entries()].map(([id, i]) => {
    const d = picked.find((p) => p.doc.id === id)!.doc;
    return `[${i}] meeting ${id}, ${d.topic}, ${d.start_time}`;
  });
  return { answer: `${head}\n${lines.join('\n')}\n\nSources: ${sources.join('; ')}`, citations };
}

// ---------------------------------------------------------------------------------------------
// The MCP server and its HTTP edge.
// ---------------------------------------------------------------------------------------------

const matchSchema = z.object({
  source: z.enum(['topic', 'agenda', 'summary', 'transcript']),
  snippet: z.string(),
  speaker: z.string().optional(),
  time: z.string().optional().describe('offset in the recording, HH:MM:SS'),
});
const searchOutput = z.object({
  page_size: z.number(),
  total_records: z.number(),
  next_page_token: z.string().describe('"" when there are no more results; expires after 15 minutes'),
  meetings: z.array(
    z.object({
      id: z.number().describe('meeting number'),
      uuid: z.string().describe('meeting instance UUID'),
      topic: z.string(),
      start_time: z.string(),
      duration: z.number(),
      timezone: z.string(),
      has_summary: z.boolean(),
      has_transcript: z.boolean(),
      matches: z.array(matchSchema),
    }),
  ),
});
const askOutput = z.object({
  answer: z.string(),
  citations: z.array(
    z.object({
      index: z.number(),
      meeting_id: z.number(),
      meeting_uuid: z.string(),
      topic: z.string(),
      start_time: z.string(),
      source: z.enum(['summary', 'next_steps', 'transcript', 'agenda']),
      excerpt: z.string(),
    }),
  ),
});

const READ_ONLY = {
  readOnlyHint: true,
  openWorldHint: false,
  idempotentHint: true,
  destructiveHint: false,
} as const;

const toolResult = (run: () => object) => {
  try {
    const structured = run() as Record<string, unknown>;
    return {
      content: [{ type: 'text' as const, text: JSON.stringify(structured) }],
      structuredContent: structured,
    };
  } catch (err) {
    if (!(err instanceof McpToolError)) throw err;
    return { isError: true, content: [{ type: 'text' as const, text: err.message }] };
  }
};

/** One server per request, as the SDK requires; `docs` reads the live slices. */
export function createHostedMcpServer(
  docs: () => MeetingDoc[],
  opts: { now: () => Date; secret: string; me?: string },
): McpServer {
  const server = new McpServer(
    { name: 'zoom-mcp-sandbox', title: 'Zoom MCP (emulator)', version: '1.0.0' },
    {
      instructions:
        'Search meetings with search_meetings, then ask questions about what was said with ask. Data comes from the emulator’s demo account.',
    },
  );
  server.registerTool(
    'search_meetings',
    {
      title: 'Search meetings',
      description:
        'Searches the user’s meetings by keyword across topics, agendas, AI meeting summaries and cloud-recording transcripts. Returns matching meetings (id, uuid, topic, start_time) with snippets, best match first; without q, all meetings newest first. Filter by from/to (UTC date or date-time); page with page_size (default 50, max 300) and next_page_token (expires in 15 minutes).',
      inputSchema: z.object({
        q: z.string().max(1000).optional().describe('search query keywords'),
        from: z.string().optional().describe('UTC start, yyyy-mm-dd or yyyy-MM-ddTHH:mm:ssZ'),
        to: z.string().optional().describe('UTC end, yyyy-mm-dd or yyyy-MM-ddTHH:mm:ssZ'),
        page_size: z.number().int().min(1).optional().describe('results per page, default 50, max 300'),
        next_page_token: z.string().optional().describe('token from the previous page'),
      }),
      outputSchema: searchOutput,
      annotations: { title: 'Search meetings', ...READ_ONLY },
    },
    (args) => toolResult(() => searchMeetings(docs(), args, { now: opts.now(), secret: opts.secret })),
  );
  server.registerTool(
    'ask',
    {
      title: 'Ask about meetings',
      description:
        'Answers a question about the user’s meetings from their AI summaries, next steps and transcripts, with numbered citations to meeting ids. Time words (yesterday, last week, upcoming) narrow the meetings considered.',
      inputSchema: z.object({
        question: z.string().min(1).max(2000).describe('a question in plain language'),
      }),
      outputSchema: askOutput,
      annotations: { title: 'Ask about meetings', ...READ_ONLY },
    },
    ({ question }) =>
      toolResult(() =>
        askMeetings(docs(), question, { now: opts.now(), ...(opts.me ? { me: opts.me } : {}) }),
      ),
  );
  return server;
}

function send(reply: FastifyReply, r: RpcReply): FastifyReply {
  return reply.code(r.status).headers(r.headers).send(r.body);
}

function toHeaders(req: FastifyRequest): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) h.append(k, item);
    else h.set(k, v);
  }
  return h;
}

/**
 * Serves `POST /mcp` on the emulator app (call before listen). Every request needs a valid
 * emulator access token (`Authorization: Bearer …`); `authenticate` throws the emulator's
 * ZoomError otherwise, which is answered with 401 and a Bearer challenge.
 */
export function registerHostedMcp(
  app: FastifyInstance,
  deps: { ctx: SandboxContext; authenticate: (req: FastifyRequest) => AccessToken },
): void {
  const { ctx } = deps;
  const docs = () =>
    meetingDocs(
      ctx.slice<MeetingsSlice>('meetings').meetings,
      ctx.slice<RecordingsSlice | undefined>('recordings'),
      ctx.now(),
    );
  const endpoint = createMcpEndpoint(
    () =>
      createHostedMcpServer(docs, {
        now: () => ctx.now(),
        secret: `${ctx.options.clientSecret}|mcp-search`,
        me: `${ctx.demo.firstName} ${ctx.demo.lastName}`,
      }),
    (err) => app.log.debug({ err }, 'hosted mcp request rejected'),
  );
  app.addHook('onClose', () => endpoint.close());

  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MCP_BODY_LIMIT }, (_req, raw, next) =>
      next(null, raw),
    );
    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return send(reply, rpcError(413, -32600, `Request body is larger than ${MCP_BODY_LIMIT} bytes.`));
      req.log.error({ err }, 'hosted mcp request failed');
      return send(reply, rpcError(500, -32603, 'Internal error.'));
    });

    scope.post('/mcp', async (req, reply) => {
      try {
        deps.authenticate(req);
      } catch (err) {
        if (!(err instanceof ZoomError)) throw err;
        const challenge = `Bearer realm="${ctx.baseUrl}/mcp", error="invalid_token", error_description="${err.message}"`;
        return send(reply, rpcError(401, -32001, err.message, { 'www-authenticate': challenge }));
      }
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        return send(
          reply,
          rpcError(415, -32600, 'Unsupported Media Type: Content-Type must be application/json.'),
        );
      }
      const abort = new AbortController();
      reply.raw.on('close', () => abort.abort());
      const result = await endpoint.handle({
        url: `${ctx.baseUrl}/mcp`,
        header: (name) => {
          const v = req.headers[name];
          return Array.isArray(v) ? v.join(', ') : v;
        },
        headers: () => toHeaders(req),
        body: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0),
        signal: abort.signal,
      });
      return send(reply, result);
    });
    // Stateless: no SSE stream to GET, no session to DELETE.
    scope.route({
      method: ['GET', 'HEAD', 'DELETE', 'PUT', 'PATCH'],
      url: '/mcp',
      exposeHeadRoute: false,
      handler: (_req, reply) =>
        send(reply, rpcError(405, -32000, 'Method not allowed: use POST.', { allow: 'POST' })),
    });
    done();
  });
}
