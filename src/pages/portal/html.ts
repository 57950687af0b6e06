/**
 * Escaping for the portal: every string from the brand folder passes through here before it
 * lands in HTML or in the generated stylesheet, so an edited brand can never inject markup or CSS.
 */

const HTML_ESCAPES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text or attribute value: safe in both places because quotes are escaped too. */
export const esc = (s: string | number): string => String(s).replace(/[<>&"']/g, (c) => HTML_ESCAPES[c] ?? c);

/** Only http(s) or root-relative URLs become links; anything else (javascript:, data:) is dropped. */
export const url = (u: string): string => (/^(https?:\/\/|\/(?!\/))/i.test(u) ? esc(u) : '#');

/**
 * A CSS value is emitted only when it cannot leave its declaration: no ; { } < > \ or comment
 * start, and every quote closed. Anything else is left out (the page then shows the var() alone).
 */
export function cssSafe(value: string): boolean {
  if (!value || /[;{}<>\\\n\r]|\/\*/.test(value)) return false;
  let quote: string | null = null;
  for (const c of value) {
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote === null;
}

/** A font family name as a CSS string, escaped code point by code point where needed. */
export function cssFamily(name: string): string {
  if (/^[a-z-]+$/i.test(name)) return name;
  return `"${name.replace(/[^\p{L}\p{N} _.-]/gu, (c) => `\\${(c.codePointAt(0) ?? 0x3f).toString(16)} `)}"`;
}

export const kb = (bytes: number): string =>
  bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} KB`;
