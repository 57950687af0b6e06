/**
 * The reading and building half of the portal: the fleet documents by group (HTML pages and
 * their Markdown twins) and copyable snippets for the API, the token formats, the CSS and the MCP
 * endpoint. Each snippet shows its text without script; portal.js adds a copy button to each.
 */
import type { BrandCatalog } from '../../brand/catalog.js';
import { FORMAT_FILES, TOKEN_FORMATS, type TokenFormat } from '../../brand/token-formats.js';
import { esc, url } from './html.js';

/** What each token format is, in the words of the people who use it. */
const FORMAT_LABELS: Record<TokenFormat, string> = {
  json: 'DTCG JSON, the default',
  css: 'CSS custom properties',
  scss: 'Sass variables',
  tailwind: 'Tailwind CSS v4 theme',
  js: 'JavaScript module',
  ts: 'TypeScript module with literal types',
  swift: 'SwiftUI',
  compose: 'Jetpack Compose (Kotlin)',
  android: 'Android XML resources',
};

export function renderDocs(catalog: BrandCatalog): string {
  const groups = catalog.docs.groups
    .map(
      (g) =>
        `<li class="card"><h3>${esc(g.title)}</h3><p class="muted small">${esc(g.description)}</p><ul class="doc-list">${g.docs
          .map(
            (d) =>
              `<li><a class="doc-title" href="${url(d.url)}">${esc(d.title)}</a> <a class="small" href="${url(d.markdownUrl)}">Markdown<span class="sr-only"> of ${esc(d.title)}</span></a><p class="small">${esc(d.summary)}</p><p class="small muted">For ${esc(d.audience)} · ${d.words} words</p></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('\n');
  return `<section id="docs" aria-labelledby="docs-h" class="docs">
<h2 id="docs-h">Documents</h2>
<p>${catalog.docs.count} documents in ${catalog.docs.groups.length} groups. Each is an HTML page with a Markdown twin for agents and editors. <a href="${url(`${catalog.baseUrl}/static/fleet/docs/`)}">Document index</a> · <a href="${url(`${catalog.baseUrl}/api/brand/docs`)}">/api/brand/docs</a></p>
<ul class="grid cards">${groups}</ul>
</section>`;
}

function snippet(id: string, caption: string, code: string): string {
  return `<figure class="snippet" id="${esc(id)}" data-copy><figcaption>${esc(caption)}</figcaption><pre><code>${esc(code)}</code></pre></figure>`;
}

export function renderUsage(catalog: BrandCatalog): string {
  const base = catalog.baseUrl;
  const { usage, mcp } = catalog.manifest;
  const firstFunnel = catalog.themes.funnels[0]?.key ?? 'mog';
  const mcpCall = (body: unknown) =>
    `curl -s ${mcp.endpoint} -H 'content-type: application/json' \\\n  -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2025-11-25' \\\n  -d '${JSON.stringify(body)}'`;
  return `<section id="use" aria-labelledby="use-h">
<h2 id="use-h">Use it</h2>
<p>Everything here is public and read-only, with no key. Every URL below is absolute.</p>
<h3>API</h3>
${snippet('s-manifest', 'The manifest: every endpoint, the MCP details, usage', `curl -s ${base}/api/brand`)}
${snippet('s-theme', 'One funnel theme, with contrast data', usage.curl)}
${snippet('s-tokens', 'Design tokens (DTCG JSON)', `curl -s ${base}/api/brand/tokens`)}
${snippet('s-llms', 'The agent guide', `curl -s ${base}/llms.txt`)}
<h3>Every platform</h3>
<p>The same tokens for each platform, from <code>/api/brand/tokens?format=</code>. Add <code>&amp;theme=</code> and a funnel key (${catalog.themes.keys.map((k) => `<code>${esc(k)}</code>`).join(', ')}) for that funnel's colors on <code>colors.brand.primary</code> and <code>colors.brand.accent</code>.</p>
<ul class="grid cards formats">${TOKEN_FORMATS.map(
    (f) =>
      `<li>${snippet(`s-format-${f}`, `${FORMAT_LABELS[f]} (${FORMAT_FILES[f].file})`, `${base}/api/brand/tokens?format=${f}`)}</li>`,
  ).join('')}</ul>
${snippet(
  's-format-theme',
  `One funnel's Tailwind theme, saved as a file`,
  `curl -s '${base}/api/brand/tokens?format=tailwind&theme=${firstFunnel}' -o ${FORMAT_FILES.tailwind.file}`,
)}
<h3>CSS</h3>
${snippet('s-css', 'Tokens and fonts in a page', `${usage.css}\n${usage.fonts}`)}
${snippet(
  's-css-use',
  'Token variables, dark mode and a funnel theme',
  `body { font: var(--type-style-body); color: var(--colors-text-default); background: var(--colors-surface-page); }\n.cta { background: var(--theme-color); color: var(--theme-on-color); }\n\n<!-- optional: force a mode with data-theme="light" or "dark" on <html> -->\n<section data-funnel="${firstFunnel}">\n  <a class="cta" href="#">Book a call</a>\n</section>`,
)}
${snippet('s-logo', 'The logo', usage.logo)}
<h3>MCP</h3>
<p>Tools: ${mcp.tools.map((t) => `<code>${esc(t)}</code>`).join(', ')}. Protocol versions ${mcp.protocolVersions.map((v) => `<code>${esc(v)}</code>`).join(' and ')}.</p>
${snippet('s-mcp-config', 'Client configuration', usage.mcp)}
${snippet('s-mcp-list', 'List the tools', mcpCall({ jsonrpc: '2.0', id: 1, method: 'tools/list' }))}
${snippet(
  's-mcp-call',
  'Call a tool',
  mcpCall({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'get_brand_theme', arguments: { key: firstFunnel } },
  }),
)}
</section>`;
}
