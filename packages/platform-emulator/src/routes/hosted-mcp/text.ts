/** Text matching for the hosted-MCP tools: tokenising, stop words, snippets and per-meeting scoring. */
import type { MeetingDoc } from './docs.js';

export const STOP = new Set(
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

export const hits = (text: string, want: Set<string>) => new Set(terms(text).filter((t) => want.has(t)));

export const sentences = (text: string) => text.split(/(?<=[.;!?])\s+/).filter((s) => s.trim() !== '');

export const clip = (s: string, n = 220) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

export const clock = (sec: number) => {
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
export function scoreDoc(d: MeetingDoc, want: Set<string>): { score: number; matches: Match[] } {
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
