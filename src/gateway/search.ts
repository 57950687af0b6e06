/**
 * Search across what the gateway can see: stored events, the platform's meetings (upcoming and
 * previous), recent recordings and the contact directory. Each source is asked at the same
 * time and may fail on its own; results are ranked by how many query words match and where.
 * Stored events come from the store's text index (word-prefix match, the newest
 * SEARCH_CANDIDATES matches ranked: event-search.ts), never from a scan of every event.
 */
import * as z from 'zod';
import type { OpContext } from './capabilities/operation.js';
import { seg } from './capabilities/operation.js';
import { matchingEvents } from './event-search.js';

export const searchInput = z.object({
  q: z.string().trim().min(1, 'q is required').max(100),
  limit: z.coerce.number().int().min(1).max(50).default(10).describe('results per group'),
});

interface Hit {
  score: number;
  [k: string]: unknown;
}

function scorer(q: string) {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  return (title: string, rest = ''): number => {
    const t = title.toLowerCase();
    const r = rest.toLowerCase();
    let s = 0;
    for (const w of words) {
      if (t.includes(w)) s += t.startsWith(w) ? 3 : 2;
      else if (r.includes(w)) s += 1;
      else return 0;
    }
    return s;
  };
}

const top = (hits: Hit[], n: number) =>
  hits
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, n);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export async function search(ctx: OpContext, input: z.output<typeof searchInput>) {
  const score = scorer(input.q);
  // Each source's request starts here, all at once; none waits for another.
  const sources = await Promise.allSettled([
    eventHits(ctx, input.q),
    meetingHits(ctx, score),
    recordingHits(ctx, score),
    contactHits(ctx, input.q, score),
  ]);
  const names = ['events', 'meetings', 'recordings', 'contacts'] as const;
  const groups: Record<string, Hit[]> = {};
  const unavailable: { source: string; code: string }[] = [];
  sources.forEach((s, i) => {
    const name = names[i] ?? 'unknown';
    if (s.status === 'fulfilled') groups[name] = top(s.value, input.limit);
    else {
      groups[name] = [];
      const code = (s.reason as { code?: unknown }).code;
      unavailable.push({ source: name, code: typeof code === 'string' ? code : 'error' });
    }
  });
  return {
    q: input.q,
    total: Object.values(groups).reduce((n, g) => n + g.length, 0),
    groups,
    ...(unavailable.length ? { unavailable } : {}),
  };
}

type Score = ReturnType<typeof scorer>;

/* Not async: a request that cannot be made throws here, as it did inline, rather than becoming
 * one source's failure. */

const eventHits = (ctx: OpContext, q: string) =>
  matchingEvents(ctx.store, q).then((ranked) =>
    ranked.map(({ event: e, score }) => ({
      score,
      video_id: e.videoId,
      topic: e.topic,
      start_time: e.startTime,
      funnel: e.funnel,
      status: e.status,
    })),
  );

/** Upcoming and previous meetings, each once. */
const meetingHits = (ctx: OpContext, score: Score) =>
  Promise.all(
    (['upcoming', 'previous_meetings'] as const).map((type) =>
      ctx.platform.call<{
        meetings?: { id: number; topic: string; agenda?: string; start_time?: string; join_url?: string }[];
      }>({
        method: 'GET',
        path: `/users/${seg(ctx.uid)}/meetings`,
        query: { type, page_size: 300 },
        label: 'MEDIUM',
        group: 'meetings',
      }),
    ),
  ).then((pages) => {
    const seen = new Set<number>();
    return pages
      .flatMap((p) => p.data.meetings ?? [])
      .filter((m) => !seen.has(m.id) && seen.add(m.id))
      .map((m) => ({
        score: score(m.topic, m.agenda),
        video_id: String(m.id),
        topic: m.topic,
        start_time: m.start_time ?? null,
        join_url: m.join_url ?? null,
      }));
  });

/** Recordings of the last 30 days. */
const recordingHits = (ctx: OpContext, score: Score) =>
  ctx.platform
    .call<{ meetings?: { id: number; topic: string; start_time?: string; recording_files?: unknown[] }[] }>({
      method: 'GET',
      path: `/users/${seg(ctx.uid)}/recordings`,
      query: { from: day(ctx.now() - 29 * 86_400_000), to: day(ctx.now()), page_size: 300 },
      label: 'MEDIUM',
      group: 'recordings',
    })
    .then((r) =>
      (r.data.meetings ?? []).map((m) => ({
        score: score(m.topic),
        video_id: String(m.id),
        topic: m.topic,
        start_time: m.start_time ?? null,
        files: m.recording_files?.length ?? 0,
      })),
    );

const contactHits = (ctx: OpContext, q: string, score: Score) =>
  ctx.platform
    .call<{
      contacts?: {
        id?: string;
        email?: string;
        first_name?: string;
        last_name?: string;
        display_name?: string;
        job_title?: string;
      }[];
    }>({
      method: 'GET',
      path: '/contacts',
      query: { search_key: q, page_size: 25 },
      label: 'MEDIUM',
      group: 'contacts',
    })
    .then((r) =>
      (r.data.contacts ?? []).map((c) => {
        const name = c.display_name ?? [c.first_name, c.last_name].filter(Boolean).join(' ');
        // The directory already matched the query; rank names above other fields.
        return {
          score: Math.max(1, score(name, `${c.email ?? ''} ${c.job_title ?? ''}`)),
          id: c.id ?? null,
          name,
          email: c.email ?? null,
          job_title: c.job_title ?? null,
        };
      }),
    );
