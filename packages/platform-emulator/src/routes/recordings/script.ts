/** The shape of a per-topic meeting script (dialogue, chat, summary) and helpers shared by the script tables. */
import type { Rng } from '../../prng.js';
import type { MeetingRec } from '../meetings.js';

export interface Script {
  /** Index 0 is the host. */
  people: string[];
  lines: [number, string][];
  chat: [number, string][];
  overview: string;
  details: [string, string][];
  next: string[];
}

export const HOST = 'Avery Quinn';
export const num = (n: number) => n.toLocaleString('en-US');

/** A topic pattern and the script generator used for meetings whose topic matches it. */
export type ScriptEntry = [RegExp, (v: Rng, m: MeetingRec) => Script];
