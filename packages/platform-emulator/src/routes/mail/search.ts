/**
 * Mail search for the emulator: q is a small subset of the search syntax (from:, to:, subject:,
 * is:, in:, label:) plus free words matched as substrings of the subject, sender and snippet.
 */
import { snippetOf } from './mime.js';
import type { MailMessage } from './records.js';

function tokens(qs: string): string[] {
  const out: string[] = [];
  const re = /(\S+?:)?"([^"]*)"|\S+/g;
  for (let m = re.exec(qs); m; m = re.exec(qs)) out.push(m[2] !== undefined ? `${m[1] ?? ''}${m[2]}` : m[0]);
  return out;
}

export function matches(m: MailMessage, qs: string | undefined): boolean {
  if (!qs) return true;
  const has = (label: string) => m.labelIds.includes(label);
  const hay = (v: string, needle: string) => v.toLowerCase().includes(needle.toLowerCase());
  return tokens(qs).every((tok) => {
    const neg = tok.startsWith('-') && tok.length > 1;
    const t = neg ? tok.slice(1) : tok;
    const [k, ...rest] = t.split(':');
    const v = rest.join(':');
    let ok: boolean;
    switch (rest.length ? (k ?? '').toLowerCase() : '') {
      case 'from':
        ok = hay(m.from, v);
        break;
      case 'to':
        ok = [...m.to, ...m.cc, ...m.bcc].some((a) => hay(a, v));
        break;
      case 'subject':
        ok = hay(m.subject, v);
        break;
      case 'is':
        ok =
          {
            unread: has('UNREAD'),
            read: !has('UNREAD'),
            starred: has('STARRED'),
            important: has('IMPORTANT'),
          }[v.toLowerCase()] ?? false;
        break;
      case 'in':
      case 'label':
        ok =
          v.toLowerCase() === 'anywhere' ||
          m.labelIds.some(
            (l) => l.toLowerCase() === (v.toLowerCase() === 'drafts' ? 'draft' : v.toLowerCase()),
          );
        break;
      default:
        ok = hay(m.subject, t) || hay(m.from, t) || hay(snippetOf(m), t);
    }
    return neg ? !ok : ok;
  });
}
