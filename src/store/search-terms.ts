/**
 * The one tokenizer behind stored-event search, so SQLite's FTS5 index and PostgreSQL's
 * full-text index see the same words: text is folded (NFKD, accents dropped, lower case) and cut
 * at anything that is not a letter or a digit. The store indexes an event's terms; a query's
 * words match terms they start (prefix match).
 */

/** Longest word kept; longer runs are cut (the index stays small, queries still match). */
const MAX_WORD = 40;
/** Most words indexed per event. */
const MAX_TERMS = 200;

/** The distinct words of `text`, folded, in order of first appearance. */
export function words(text: string): string[] {
  const out = new Set<string>();
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  for (const w of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (w) out.add(w.slice(0, MAX_WORD));
    if (out.size >= MAX_TERMS) break;
  }
  return [...out];
}

/** What the store indexes for an event: its topic, agenda and funnel's words, space-separated. */
export function eventTerms(e: { topic: string; agenda: string | null; funnel: string | null }): string {
  return words(`${e.topic} ${e.agenda ?? ''} ${e.funnel ?? ''}`).join(' ');
}
