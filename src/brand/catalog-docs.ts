/**
 * The catalog's documents: first each one's HTML body rendered from its Markdown (cached, and
 * able to fail, so it is done before the brand is published), then the docs view, each document
 * served as a page and as Markdown with front matter, and the index page.
 */
import { STATIC_CACHE, type CatalogResponses } from './catalog-responses.js';
import { cacheKey, type DiskCache } from './disk-cache.js';
import { DOC_HTML_BUILD, markdownToHtml, renderDocIndex, renderDocPage } from './doc-pages.js';
import type { BrandSource, SourceDoc } from './read-brand-folder.js';
import type { DocGroup } from './views.js';

/** The documents in group and reading order, each one's rendered HTML body by slug. */
export interface RenderedDocs {
  sorted: SourceDoc[];
  html: Map<string, string>;
}

export interface DocsView {
  count: number;
  groups: DocGroup[];
}

const words = (md: string) => md.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

export async function renderDocs(src: BrandSource, cache: DiskCache): Promise<RenderedDocs> {
  const sorted = [...src.docs].sort((a, b) => a.group.localeCompare(b.group) || a.order - b.order);
  const html = new Map<string, string>();
  for (const d of sorted) {
    const body = await cache.memo(`${cacheKey(d.markdown, DOC_HTML_BUILD)}.html`, async () =>
      Buffer.from(await markdownToHtml(d.markdown)),
    );
    html.set(d.slug, body.toString('utf8'));
  }
  return { sorted, html };
}

/** Pages load styles, images and fonts from this origin only, and run nothing. */
const pageCsp = (origin: string) =>
  `default-src 'none'; style-src ${origin} 'self'; img-src ${origin} 'self' data:; font-src ${origin} 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function docsView(
  out: CatalogResponses,
  src: BrandSource,
  rendered: RenderedDocs,
  { baseUrl, origin, staticUrl }: { baseUrl: string; origin: string; staticUrl: (p: string) => string },
): { docs: DocsView; docMarkdown: Map<string, string> } {
  const csp = pageCsp(origin);
  const docMarkdown = new Map<string, string>();
  const groups: DocGroup[] = src.info.docGroups.map((g) => ({ ...g, docs: [] }));
  for (const d of rendered.sorted) {
    const group = groups.find((g) => g.key === d.group);
    if (!group) continue;
    const url = staticUrl(`docs/${d.slug}.html`);
    const mdUrl = staticUrl(`docs/${d.slug}.md`);
    const md = `---\ntitle: ${JSON.stringify(d.title)}\nsummary: ${JSON.stringify(d.summary)}\naudience: ${JSON.stringify(d.audience)}\ngroup: ${d.group}\n---\n\n${d.markdown}`;
    docMarkdown.set(d.slug, md);
    const html = renderDocPage(d, rendered.html.get(d.slug) ?? '', {
      brandName: src.info.name,
      groupTitle: group.title,
      baseUrl,
      mdUrl,
      copyright: src.info.legal.copyright,
    });
    const page = out.put(
      `/static/fleet/docs/${d.slug}.html`,
      html,
      'text/html; charset=utf-8',
      STATIC_CACHE,
      {
        'content-security-policy': csp,
        link: `<${mdUrl}>; rel="alternate"; type="text/markdown"`,
      },
    );
    out.put(`/static/fleet/docs/${d.slug}.md`, md, 'text/markdown; charset=utf-8', STATIC_CACHE);
    group.docs.push({
      slug: d.slug,
      group: d.group,
      title: d.title,
      summary: d.summary,
      audience: d.audience,
      url,
      markdownUrl: mdUrl,
      words: words(d.markdown),
      bytes: page.bytes,
      sha256: page.sha256,
    });
  }
  const docs = { count: rendered.sorted.length, groups: groups.filter((g) => g.docs.length > 0) };
  out.put(
    '/static/fleet/docs/',
    renderDocIndex(docs.groups, { brandName: src.info.name, baseUrl, copyright: src.info.legal.copyright }),
    'text/html; charset=utf-8',
    STATIC_CACHE,
    { 'content-security-policy': csp },
  );
  return { docs, docMarkdown };
}
