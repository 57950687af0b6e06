/** What was said in a meeting: picks a topic script and derives the transcript, chat and AI summary from the meeting's UUID. */
import { createHash } from 'node:crypto';
import { createRng } from '../../prng.js';
import type { MeetingRec } from '../meetings.js';
import { HOST, type Script, type ScriptEntry } from './script.js';
import { BUSINESS_SCRIPTS } from './scripts-business.js';
import { GROUP_SCRIPTS } from './scripts-group.js';

export interface Cue {
  speaker: string;
  text: string;
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
}

export interface MeetingContent {
  speakers: string[];
  transcript: Cue[];
  chat: { at: number; speaker: string; text: string }[];
  summary: {
    title: string;
    overview: string;
    details: { label: string; summary: string }[];
    next_steps: string[];
  };
}

const SCRIPTS: ScriptEntry[] = [...BUSINESS_SCRIPTS, ...GROUP_SCRIPTS];

function genericScript(m: MeetingRec): Script {
  const agenda = m.agenda.trim() || 'status, open questions and next steps';
  return {
    people: [HOST, 'Priya Natarajan', 'Jordan Reyes'],
    lines: [
      [0, `Thanks for joining ${m.topic}. The agenda: ${agenda}`],
      [1, 'Status first: everything is on track except the vendor contract, which is still in legal review.'],
      [2, 'Legal expects to finish the review by Thursday.'],
      [0, 'Then we decide on the vendor on Friday, and keep the timeline as it is.'],
      [1, 'I will send the updated plan to everyone this afternoon.'],
    ],
    chat: [[1, 'Plan draft is in the shared folder']],
    overview: `${m.topic}: the team reviewed status, the vendor contract is in legal review, and the decision is set for Friday.`,
    details: [
      ['Status', 'Work is on track except the vendor contract, which is in legal review until Thursday.'],
      ['Decisions', 'Decide on the vendor on Friday; keep the current timeline.'],
    ],
    next: [
      'Priya Natarajan to send the updated plan',
      'Jordan Reyes to confirm the legal review on Thursday',
    ],
  };
}

export const digest = (s: string) => createHash('sha256').update(s).digest();
export const seedOf = (s: string) => digest(s).readUInt32BE(0);

/** Recording window: it starts shortly after the meeting and stops shortly before its end. */
export function windowOf(m: MeetingRec): { start: number; end: number } {
  const r = createRng(seedOf(`${m.uuid}|window`));
  const start = Date.parse(m.start_time) + r.int(5, 95) * 1000;
  const end = Math.max(start + 60_000, Date.parse(m.start_time) + m.duration * 60_000 - r.int(0, 180) * 1000);
  return { start, end };
}

/** What was said in a meeting: deterministic from its UUID, topic, agenda and duration. */
export function meetingContent(m: MeetingRec): MeetingContent {
  const v = createRng(seedOf(`${m.uuid}|content`));
  const script = SCRIPTS.find(([re]) => re.test(m.topic))?.[1](v, m) ?? genericScript(m);
  const { start, end } = windowOf(m);
  const length = Math.max(60, Math.floor((end - start) / 1000));
  const who = (i: number) => script.people[i] ?? HOST;
  const slot = length / (script.lines.length + 1);
  const transcript = script.lines.map(([i, text], n) => {
    const at = Math.floor(slot * n + 2 + v.int(0, Math.max(1, Math.floor(slot / 4)))) + v.int(0, 999) / 1000;
    const dur = Math.min(
      Math.max(3, Math.round(text.split(' ').length * 0.42 * 10) / 10),
      Math.max(3, slot - 1),
    );
    return { speaker: who(i), text, start: at, end: Math.round((at + dur) * 1000) / 1000 };
  });
  const chat = script.chat.map(([i, text], n) => ({
    at: Math.floor((length * (n + 1)) / (script.chat.length + 2)),
    speaker: who(i),
    text,
  }));
  return {
    speakers: [...new Set(script.people)],
    transcript,
    chat,
    summary: {
      title: `Meeting summary for ${m.topic}`,
      overview: script.overview,
      details: script.details.map(([label, summary]) => ({ label, summary })),
      next_steps: script.next,
    },
  };
}
