/** The `ask` tool: a deterministic answer composed from the best summary and transcript passages, with citations. */
import type { MeetingDoc } from './docs.js';
import { clip, terms } from './text.js';

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

export interface Passage {
  doc: MeetingDoc;
  source: Citation['source'];
  text: string;
  words: Set<string>;
  boost: number;
  /** Agendas of meetings yet to happen say less than what was said in one. */
  weight: number;
}

export const DECISION_RE = /\b(decid\w*|decision\w*|agree\w*|approv\w*)\b/i;

export function passagesOf(d: MeetingDoc, intent: { nextSteps: boolean; decisions: boolean }): Passage[] {
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

export const DAY = 86_400_000;

/** Time words in the question narrow the meetings considered. */
export function timeFilter(question: string, now: Date): ((d: MeetingDoc) => boolean) | undefined {
  const q = question.toLowerCase();
  const t = (d: MeetingDoc) => Date.parse(d.start_time);
  const n = now.getTime();
  if (/\byesterday\b/.test(q)) return (d) => t(d) >= n - 2 * DAY && t(d) < n;
  if (/\b(last|past|this) week\b/.test(q)) return (d) => t(d) >= n - 7 * DAY && t(d) < n;
  if (/\b(last|past|this) month\b/.test(q)) return (d) => t(d) >= n - 31 * DAY && t(d) < n;
  if (/\b(upcoming|next week|coming up|scheduled|tomorrow)\b/.test(q)) return (d) => t(d) >= n;
  return undefined;
}

export const dateLabel = (d: MeetingDoc) => {
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
export function compose(picked: Passage[], none: string): AskResult {
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
