/**
 * /llms.txt for agents, in the llms.txt format: H1 name, blockquote summary, notes, then H2
 * sections that hold only link lists (the reference parser rejects anything else there).
 */
import type { DocGroup, ThemeView } from './views.js';
import type { Manifest } from './manifest.js';
import type { BrandSource } from './read-brand-folder.js';

export function buildLlmsTxt(opts: {
  src: BrandSource;
  baseUrl: string;
  manifest: Manifest;
  docs: DocGroup[];
  themes: ThemeView[];
}): string {
  const { src, baseUrl, manifest } = opts;
  const api = (p: string) => `${baseUrl}${p}`;
  const lines: string[] = [
    `# ${manifest.name}`,
    '',
    `> ${src.info.description}`,
    '',
    `Everything here is public and read-only (no authentication); every URL is absolute. ${src.info.name}: "${src.info.tagline}"`,
    `Live funnel theme keys: ${opts.themes.map((t) => t.key).join(', ')}. Use the CSS file and set data-funnel="<key>" on an element to apply a theme.`,
    ...(manifest.brandVersion
      ? [
          `Brand version: ${manifest.brandVersion} (semver of the brand data, also in each brand response's Brand-Version header; see the versions and changelog links below).`,
        ]
      : []),
    `Agents that speak the Model Context Protocol can connect to ${manifest.mcp.endpoint} (streamable HTTP, JSON-RPC 2.0, protocol ${manifest.mcp.protocolVersions.join(' or ')}); tools: ${manifest.mcp.tools.join(', ')}.`,
    '',
    '## Brand API',
    '',
    `- [Manifest](${api('/api/brand')}): name, version, every endpoint, MCP details, usage snippets`,
    `- [Design tokens (JSON)](${api('/api/brand/tokens')}): DTCG 2025.10 document; dark overrides under $extensions`,
    ...(manifest.brandVersion
      ? [
          `- [Brand versions](${api('/api/brand/versions')}): every version of the brand data, newest first, with change counts`,
          `- [Changelog](${api('/api/brand/changelog')}): what the latest version changed; removed tokens name their replacement`,
        ]
      : []),
    `- [Design tokens (CSS)](${api('/api/brand/tokens.css')}): custom properties, dark mode, data-funnel theme selectors`,
    `- [Themes](${api('/api/brand/themes')}): official fleet accents and live funnel themes with WCAG contrast`,
    ...opts.themes.map(
      (t) => `- [Theme ${t.key}](${api(`/api/brand/themes/${t.key}`)}): ${t.name}, "${t.tagline}"`,
    ),
    `- [Assets](${api('/api/brand/assets')}): logos, shield, icons, social images with size, bytes and sha256`,
    `- [Documents](${api('/api/brand/docs')}): the ${opts.docs.reduce((n, g) => n + g.docs.length, 0)} fleet documents, grouped`,
    `- [Fonts](${api('/api/brand/fonts')}): font stacks, weights and the web-font import URL`,
    '',
    '## MCP',
    '',
    `- [MCP endpoint](${manifest.mcp.endpoint}): POST JSON-RPC 2.0; tools ${manifest.mcp.tools.join(', ')}`,
    '',
  ];
  for (const g of opts.docs) {
    lines.push(`## ${g.title}`, '');
    for (const d of g.docs) lines.push(`- [${d.title}](${d.markdownUrl}): ${d.summary}`);
    lines.push('');
  }
  lines.push(
    '## Optional',
    '',
    `- [Logo, horizontal, light background (SVG)](${api('/static/fleet/assets/logo-horizontal-light.svg')}): use on light surfaces`,
    `- [Logo, horizontal, light background (PNG)](${api('/static/fleet/assets/logo-horizontal-light.png')}): raster fallback`,
    `- [Font stylesheet](${api('/static/fleet/fonts/fonts.css')}): @font-face rules for the self-hosted fonts`,
    `- [Document index](${api('/static/fleet/docs/')}): the documents as HTML pages`,
    '',
  );
  return lines.join('\n');
}
