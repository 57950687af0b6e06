/**
 * The brand as MCP resources, addressed by the same absolute URLs as the REST API: manifest,
 * tokens (JSON and CSS), llms.txt, each theme (URI template) and each document (Markdown).
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import type { BrandCatalog } from '../brand/catalog.js';

const text = (uri: string, mimeType: string, body: string) => ({ contents: [{ uri, mimeType, text: body }] });
const json = (v: unknown) => JSON.stringify(v, null, 2);
/** A brand path as the absolute URL the REST API serves it at. */
const api = (c: BrandCatalog, p: string) => `${c.baseUrl}${p}`;

export function registerBrandResources(server: McpServer, c: BrandCatalog): void {
  registerStatics(server, c);
  registerThemes(server, c);
  registerDocuments(server, c);
}

/** The manifest, the tokens (JSON and CSS) and llms.txt, each at its REST URL. */
function registerStatics(server: McpServer, c: BrandCatalog): void {
  const statics: { name: string; path: string; title: string; mimeType: string; body: () => string }[] = [
    {
      name: 'manifest',
      path: '/api/brand',
      title: 'Brand manifest',
      mimeType: 'application/json',
      body: () => json(c.manifest),
    },
    {
      name: 'tokens',
      path: '/api/brand/tokens',
      title: 'Design tokens (DTCG JSON)',
      mimeType: 'application/json',
      body: () => json(c.tokens),
    },
    {
      name: 'tokens-css',
      path: '/api/brand/tokens.css',
      title: 'Design tokens (CSS)',
      mimeType: 'text/css',
      body: () => c.tokensCss,
    },
    {
      name: 'llms-txt',
      path: '/llms.txt',
      title: 'Agent guide (llms.txt)',
      mimeType: 'text/plain',
      body: () => c.llmsTxt,
    },
  ];
  for (const r of statics) {
    const uri = api(c, r.path);
    server.registerResource(r.name, uri, { title: r.title, mimeType: r.mimeType }, () =>
      text(uri, r.mimeType, r.body()),
    );
  }
}

/** Each live funnel theme, by key. */
function registerThemes(server: McpServer, c: BrandCatalog): void {
  const themeUri = (key: string) => api(c, `/api/brand/themes/${key}`);
  server.registerResource(
    'theme',
    new ResourceTemplate(api(c, '/api/brand/themes/{key}'), {
      list: () => ({
        resources: c.themes.funnels.map((t) => ({
          uri: themeUri(t.key),
          name: `theme-${t.key}`,
          title: `${t.name} theme`,
          mimeType: 'application/json',
        })),
      }),
      complete: { key: (value) => c.themes.keys.filter((k) => k.startsWith(value)) },
    }),
    {
      title: 'Live funnel theme',
      mimeType: 'application/json',
      description: `One live funnel theme; key is one of ${c.themes.keys.join(', ')}.`,
    },
    (uri, vars) => {
      const theme = c.themes.funnels.find((t) => t.key === vars['key']);
      if (!theme)
        throw new Error(`Unknown theme ${String(vars['key'])}; allowed: ${c.themes.keys.join(', ')}`);
      return text(uri.href, 'application/json', json(theme));
    },
  );
}

/** Each document, as Markdown. */
function registerDocuments(server: McpServer, c: BrandCatalog): void {
  const docs = c.docs.groups.flatMap((g) => g.docs);
  server.registerResource(
    'document',
    new ResourceTemplate(api(c, '/static/fleet/docs/{slug}.md'), {
      list: () => ({
        resources: docs.map((d) => ({
          uri: d.markdownUrl,
          name: d.slug,
          title: d.title,
          description: d.summary,
          mimeType: 'text/markdown',
        })),
      }),
    }),
    { title: 'Fleet document (Markdown)', mimeType: 'text/markdown' },
    (uri, vars) => {
      const md = c.docMarkdown.get(String(vars['slug']));
      if (md === undefined) throw new Error(`Unknown document ${String(vars['slug'])}`);
      return text(uri.href, 'text/markdown', md);
    },
  );
}
