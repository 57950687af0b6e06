/**
 * Fleet documents as pages: Markdown from the brand folder rendered to a branded HTML page,
 * with the Markdown itself served beside it as the .md twin.
 */
import type { Marked } from 'marked';
import { buildId } from './disk-cache.js';
import type { SourceDoc } from './read-brand-folder.js';

/** Identifies the Markdown rendering, for the build cache. */
export const DOC_HTML_BUILD = buildId(import.meta.url, 'marked');

const escapeHtml = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * A link or image target a document may keep: http(s), mailto (links only) or relative (no
 * scheme); anything else is undefined, and the link is shown as its text. The scheme is read as a
 * browser reads it (tabs and newlines dropped, leading spaces and controls trimmed), and the
 * target is written out escaped, so a character reference in it stays literal rather than being
 * decoded into a scheme by the browser.
 */
export function linkTarget(href: string, kind: 'link' | 'image'): string | undefined {
  // eslint-disable-next-line no-control-regex -- the characters a URL parser drops or trims
  const url = href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return url;
  const allowed = kind === 'link' ? ['http', 'https', 'mailto'] : ['http', 'https'];
  return allowed.includes(scheme) ? url : undefined;
}

let marked: Promise<Marked> | undefined;

/** Markdown to HTML; marked is loaded only when a document is not in the build cache. */
export async function markdownToHtml(markdown: string): Promise<string> {
  // Documents are operator content, but raw HTML in them is still shown as text, never run, and
  // links keep only targets that navigate (linkTarget).
  marked ??= import('marked').then(
    (m) =>
      new m.Marked({
        gfm: true,
        renderer: {
          html: ({ text }) => escapeHtml(text),
          link({ href, title, tokens }) {
            const text = this.parser.parseInline(tokens);
            const target = linkTarget(href, 'link');
            if (target === undefined) return text;
            return `<a href="${escapeHtml(target)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
          },
          image({ href, title, text }) {
            const target = linkTarget(href, 'image');
            if (target === undefined) return escapeHtml(text);
            return `<img src="${escapeHtml(target)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''}>`;
          },
        },
      }),
  );
  return (await marked).parse(markdown, { async: false });
}

export function renderDocPage(
  doc: SourceDoc,
  body: string,
  ctx: { brandName: string; groupTitle: string; baseUrl: string; mdUrl: string; copyright: string },
): string {
  const s = `${ctx.baseUrl}/static/fleet`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)} · ${escapeHtml(ctx.brandName)}</title>
<meta name="description" content="${escapeHtml(doc.summary)}">
<link rel="icon" href="${s}/assets/icons/favicon.ico" sizes="48x48">
<link rel="icon" href="${s}/assets/icons/icon.svg" type="image/svg+xml">
<link rel="alternate" type="text/markdown" href="${escapeHtml(ctx.mdUrl)}">
<link rel="stylesheet" href="${s}/fonts/fonts.css">
<link rel="stylesheet" href="${s}/design-tokens.css">
<link rel="stylesheet" href="${s}/brand.css">
</head>
<body>
<header class="bar"><a href="${s}/docs/"><img src="${s}/assets/logo-horizontal-dark.svg" alt="${escapeHtml(ctx.brandName)}" height="40"></a><span>${escapeHtml(ctx.groupTitle)}</span></header>
<main class="doc">
<p class="meta">${escapeHtml(ctx.groupTitle)} · For: ${escapeHtml(doc.audience)} · <a href="${escapeHtml(ctx.mdUrl)}">Markdown</a></p>
${body}
</main>
<footer class="foot">${escapeHtml(ctx.copyright)}</footer>
</body>
</html>
`;
}

export function renderDocIndex(
  groups: { title: string; description: string; docs: { title: string; summary: string; url: string }[] }[],
  ctx: { brandName: string; baseUrl: string; copyright: string },
): string {
  const s = `${ctx.baseUrl}/static/fleet`;
  const sections = groups
    .map(
      (g) =>
        `<section><h2>${escapeHtml(g.title)}</h2><p>${escapeHtml(g.description)}</p><ul>${g.docs
          .map(
            (d) =>
              `<li><a href="${escapeHtml(d.url)}">${escapeHtml(d.title)}</a> — ${escapeHtml(d.summary)}</li>`,
          )
          .join('')}</ul></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Documents · ${escapeHtml(ctx.brandName)}</title>
<link rel="icon" href="${s}/assets/icons/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${s}/fonts/fonts.css">
<link rel="stylesheet" href="${s}/design-tokens.css">
<link rel="stylesheet" href="${s}/brand.css">
</head>
<body>
<header class="bar"><img src="${s}/assets/logo-horizontal-dark.svg" alt="${escapeHtml(ctx.brandName)}" height="40"><span>Documents</span></header>
<main class="doc"><h1>${escapeHtml(ctx.brandName)} documents</h1>
${sections}
</main>
<footer class="foot">${escapeHtml(ctx.copyright)}</footer>
</body>
</html>
`;
}

/** Page styles, written against the token variables so a brand swap restyles the pages too. */
export const BRAND_CSS = `/* Styles for the brand's document pages; every value comes from a design token. */
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:var(--type-style-body);color:var(--colors-text-default);background:var(--colors-surface-page)}
.bar{display:flex;align-items:center;gap:var(--spacing-4);padding:var(--spacing-3) var(--spacing-6);background:var(--colors-brand-primary-strong);color:var(--colors-palette-slate-0);font:var(--type-style-label)}
.bar img{display:block}
.doc{max-width:46rem;margin:0 auto;padding:var(--spacing-8) var(--spacing-6) var(--spacing-16)}
.doc h1{font:var(--type-style-h1);color:var(--colors-brand-primary);margin:var(--spacing-4) 0 var(--spacing-6)}
.doc h2{font:var(--type-style-h2);color:var(--colors-brand-primary);margin:var(--spacing-10) 0 var(--spacing-3)}
.doc h3{font:var(--type-style-h3);margin:var(--spacing-8) 0 var(--spacing-2)}
.doc a{color:var(--colors-text-link)}
.doc a:focus-visible{outline:3px solid var(--colors-border-focus);outline-offset:2px}
.doc code{font:var(--type-style-code);background:var(--colors-surface-sunken);padding:0 var(--spacing-1);border-radius:var(--radius-sm)}
.doc pre{background:var(--colors-surface-sunken);padding:var(--spacing-4);border-radius:var(--radius-md);overflow:auto}
.doc pre code{padding:0;background:none}
.doc table{border-collapse:collapse;width:100%;margin:var(--spacing-4) 0}
.doc th,.doc td{border:1px solid var(--colors-border-default);padding:var(--spacing-2) var(--spacing-3);text-align:left;vertical-align:top}
.doc th{background:var(--colors-surface-raised)}
.doc blockquote{margin:var(--spacing-4) 0;padding:var(--spacing-2) var(--spacing-4);border-left:4px solid var(--colors-brand-accent);background:var(--colors-surface-raised)}
.meta{font:var(--type-style-small);color:var(--colors-text-muted)}
.foot{max-width:46rem;margin:0 auto;padding:var(--spacing-6);font:var(--type-style-small);color:var(--colors-text-muted);border-top:1px solid var(--colors-border-default)}
`;
