/**
 * Whether an API key is fit to guard the private paths: long enough, not a placeholder, not low
 * in entropy. The rules and their thresholds (the README's security notes name them):
 *  - at least 24 characters;
 *  - placeholder words (a short list: your, api, key, here, changeme, replace, secret, …) cover
 *    less than half of it, so "your-api-key-goes-here-please" is refused;
 *  - zxcvbn-ts (a password-strength estimator) puts the guesses it would take at 10^16 (about
 *    53 bits) or more, finding repeats ("changemechangeme…"), sequences ("abcdef…", "123456…"),
 *    dates and the same words, reversed or capitalised. It counts 10 guesses a character for
 *    what it cannot explain, far below a random key's 64, so a random 24-character key scores
 *    about 10^23, and the threshold leaves room for a date or a run that chance puts in one;
 *  - its characters carry 64 bits or more by their own frequencies (length × Shannon entropy per
 *    character), which refuses keys of few distinct characters ("abbaabab…").
 * A generated key (fg_ and 24 random bytes as base64url, secrets.ts) scores about 10^35 and 160
 * bits: far above every threshold. Loaded only when there is a key to check (main.ts).
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const MIN_LENGTH = 24;
/** zxcvbn's estimate, as log10 of the guesses. */
export const MIN_GUESSES_LOG10 = 16;
export const MIN_CHARACTER_BITS = 64;

/** Words found in placeholder keys, the likeliest first (zxcvbn counts a word's rank as its guesses). */
const PLACEHOLDER_WORDS = [
  'changeme',
  'change',
  'replaceme',
  'replace',
  'your',
  'api',
  'apikey',
  'key',
  'here',
  'secret',
  'token',
  'password',
  'passwd',
  'placeholder',
  'example',
  'sample',
  'dummy',
  'test',
  'testing',
  'default',
  'insert',
  'enter',
  'goes',
  'please',
  'todo',
  'fixme',
  'xxx',
  'foo',
  'bar',
  'baz',
  'admin',
  'letmein',
  'welcome',
  'qwerty',
  'asdf',
  'zxcv',
  'fleetgate',
  'mysecret',
  'super',
  'value',
  'string',
  'production',
  'prod',
  'staging',
  'local',
  'live',
  'with',
  'for',
  'the',
  'this',
  'my',
  'me',
];

const ADVICE =
  'Use a random key of 32 bytes, e.g. `openssl rand -base64 32` or `node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))"`.';

/** Length × Shannon entropy of the key's own character frequencies, in bits. */
export function characterBits(key: string): number {
  const counts = new Map<string, number>();
  const chars = [...key];
  for (const c of chars) counts.set(c, (counts.get(c) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) {
    const p = n / chars.length;
    perChar -= p * Math.log2(p);
  }
  return perChar * chars.length;
}

let estimator: ZxcvbnFactory | undefined;

/** Why the key is refused, with how to make a good one; undefined when it is fit. */
export function apiKeyWeakness(key: string): string | undefined {
  const why = reason(key);
  return why && `${why}. ${ADVICE}`;
}

/** The placeholder words in the key, and how many of its characters they cover. */
function placeholderWords(key: string): { words: string[]; covered: number } {
  const lower = key.toLowerCase();
  const covered = new Set<number>();
  const words: string[] = [];
  for (const w of PLACEHOLDER_WORDS) {
    for (let i = lower.indexOf(w); i !== -1; i = lower.indexOf(w, i + 1)) {
      if (!words.includes(w)) words.push(w);
      for (let j = i; j < i + w.length; j++) covered.add(j);
    }
  }
  // "changeme", not also "change" and "me" inside it.
  return { words: words.filter((w) => !words.some((o) => o !== w && o.includes(w))), covered: covered.size };
}

function reason(key: string): string | undefined {
  if (key.length < MIN_LENGTH) return `it is shorter than ${MIN_LENGTH} characters`;
  const placeholder = placeholderWords(key);
  if (placeholder.covered * 2 >= key.length)
    return `it is mostly placeholder words (${placeholder.words.join(', ')})`;
  // No keyboard layouts (they are language packs of their own) and no l33t table: a key is not
  // a password people remember, and every start checks it.
  estimator ??= new ZxcvbnFactory({ dictionary: { placeholders: PLACEHOLDER_WORDS }, l33tTable: {} });
  const estimate = estimator.check(key);
  if (estimate.guessesLog10 < MIN_GUESSES_LOG10) {
    const kinds = [...new Set(estimate.sequence.map((m) => m.pattern).filter((p) => p !== 'bruteforce'))];
    return `it is guessable (${kinds.join(', ') || 'no pattern'}: about 10^${Math.floor(estimate.guessesLog10)} guesses, fewer than 10^${MIN_GUESSES_LOG10})`;
  }
  const bits = characterBits(key);
  if (bits < MIN_CHARACTER_BITS)
    return `it has too few distinct characters (${Math.floor(bits)} bits by their frequencies, fewer than ${MIN_CHARACTER_BITS})`;
  return undefined;
}
