/**
 * The /docs reference page, rendered from the OpenAPI document (no CDN, no scripts): every
 * operation by tag, with its parameters and body schema.
 */
const esc = (s: string) =>
  s.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * A schema on one line with a space after each `,` and `:` (JSON.stringify's indented form with
 * its line breaks folded: a string never holds a raw line break), so a table cell can wrap it.
 */
const oneLine = (schema: unknown) => JSON.stringify(schema, null, 1).replace(/\n\s*/g, ' ');

/**
 * The page's own rules on top of the brand's document styles. Method badges: white on the
 * strong colours of light mode, and the inverse text colour (dark) on dark mode's pastel ones.
 * Text may break anywhere it must (paths, `a|b|c` lists and schemas have few spaces), so nothing
 * runs past its card on a phone; in a parameter table only the schema may, so that names and
 * places keep their width. A body's schema wraps rather than scrolls.
 */
const STYLE = [
  '.op{border:1px solid var(--colors-border-default);border-radius:var(--radius-md);padding:var(--spacing-3) var(--spacing-4);margin:var(--spacing-3) 0}',
  '.op h3{margin:0;font:var(--type-style-label)}',
  'main{overflow-wrap:anywhere}',
  '.op th,.op td{overflow-wrap:break-word}',
  '.op td:first-child{white-space:nowrap}',
  '.op td.schema code{overflow-wrap:anywhere}',
  '.op pre{white-space:pre-wrap;overflow-wrap:anywhere}',
  '.m{display:inline-block;min-width:4.5em;text-align:center;border-radius:var(--radius-sm);color:var(--colors-palette-slate-0);background:var(--colors-palette-navy-700)}',
  '.m-post,.m-patch,.m-delete{color:var(--colors-text-inverse)}',
  '.m-post{background:var(--colors-status-success)}',
  '.m-patch{background:var(--colors-status-warning)}',
  '.m-delete{background:var(--colors-status-danger)}',
  '.lock{font:var(--type-style-small);color:var(--colors-text-muted)}',
  // A phone's width: the cards keep more of it for their tables.
  '@media (max-width:30em){.doc{padding-left:var(--spacing-3);padding-right:var(--spacing-3)}.op{padding:var(--spacing-2) var(--spacing-2)}.op th,.op td{padding:var(--spacing-1) var(--spacing-2)}}',
].join('');

const LOCKS: Record<string, string> = {
  apiKey: 'API key',
  dashboardSession: 'dashboard session',
  webhookSignature: 'signed',
};

/** The reference page: every operation by tag, with its parameters and body schema. */
export function renderDocsPage(doc: Record<string, unknown>, baseUrl: string): string {
  const paths = doc['paths'] as Record<string, Record<string, Record<string, unknown>>>;
  const tags = doc['tags'] as { name: string; description: string }[];
  const sections = tags
    .map((t) => {
      const ops = Object.entries(paths).flatMap(([p, methods]) =>
        Object.entries(methods)
          .filter(([, o]) => (o['tags'] as string[]).includes(t.name))
          .map(([m, o]) => {
            const params = (o['parameters'] ?? []) as {
              name: string;
              in: string;
              required?: boolean;
              schema?: Record<string, unknown>;
            }[];
            const [bodyType, bodyMedia] = Object.entries(
              (o['requestBody'] as { content: Record<string, { schema?: unknown }> } | undefined)?.content ??
                {},
            )[0] ?? ['', undefined];
            const body = bodyMedia?.schema;
            const scheme = Object.keys(
              (o['security'] as Record<string, unknown>[] | undefined)?.[0] ?? {},
            )[0];
            const lock = scheme ? (LOCKS[scheme] ?? scheme) : undefined;
            return `<article class="op"><h3><span class="m m-${m}">${m.toUpperCase()}</span> <code>${esc(p)}</code>${lock ? ` <span class="lock">${lock}</span>` : ''}</h3><p>${esc(String(o['summary']))}</p>${
              params.length
                ? `<table><thead><tr><th>parameter</th><th>in</th><th>schema</th></tr></thead><tbody>${params
                    .map(
                      (x) =>
                        `<tr><td><code>${esc(x.name)}</code>${x.required ? ' *' : ''}</td><td>${x.in}</td><td class="schema"><code>${esc(oneLine(x.schema ?? {}))}</code></td></tr>`,
                    )
                    .join('')}</tbody></table>`
                : ''
            }${body ? `<details><summary>${bodyType === 'application/json' ? 'JSON' : esc(bodyType)} body</summary><pre>${esc(JSON.stringify(body, null, 2))}</pre></details>` : ''}</article>`;
          }),
      );
      return `<section id="${t.name}"><h2>${esc(t.name)}</h2><p>${esc(t.description)}</p>${ops.join('\n')}</section>`;
    })
    .join('\n');
  const s = `${baseUrl}/static/fleet`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · fleetgate</title>
<link rel="icon" href="${s}/assets/icons/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${s}/fonts/fonts.css"><link rel="stylesheet" href="${s}/design-tokens.css"><link rel="stylesheet" href="${s}/brand.css">
<style>${STYLE}</style>
</head><body>
<header class="bar"><img src="${s}/assets/logo-horizontal-dark.svg" alt="fleetgate" height="40"><span>API reference</span></header>
<main class="doc"><h1>fleetgate API</h1><p>Machine-readable: <a href="${baseUrl}/openapi.json">/openapi.json</a> (OpenAPI 3.1). Errors everywhere: <code>{"error":{"code","message","details?"}}</code>.</p>
<nav><ul>${tags.map((t) => `<li><a href="#${t.name}">${esc(t.name)}</a></li>`).join('')}</ul></nav>
${sections}
</main></body></html>
`;
}
