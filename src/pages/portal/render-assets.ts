/**
 * Logos, marks, the web icon set and the social images, with download links. Each preview sits
 * on the surface its variant is made for (dark-variant art on the brand's dark surface).
 */
import type { AssetItem, BrandCatalog } from '../../brand/catalog.js';
import { esc, kb, url } from './html.js';

/**
 * The surface to preview an image on: the page itself for SVGs that follow the color scheme
 * (they restyle themselves), else the light or dark surface its variant is drawn for.
 */
function adaptive(catalog: BrandCatalog, i: AssetItem): boolean {
  const path = i.url.startsWith(catalog.baseUrl) ? i.url.slice(catalog.baseUrl.length) : i.url;
  const body = i.format === 'svg' ? catalog.responses.get(path)?.body : undefined;
  return body?.toString('utf8').includes('prefers-color-scheme') ?? false;
}

function surfaceFor(catalog: BrandCatalog, i: AssetItem): string {
  if (i.variant === 'any' || adaptive(catalog, i)) return 'on-page';
  return i.variant === 'dark' ? 'on-dark' : 'on-light';
}
const size = (i: AssetItem) => (i.width && i.height ? `${i.width}×${i.height}` : '');

function download(i: AssetItem): string {
  const what = [i.format.toUpperCase(), size(i), kb(i.bytes)].filter(Boolean).join(' · ');
  return `<li><a href="${url(i.url)}" download>${esc(what)}</a></li>`;
}

const usedOn = (catalog: BrandCatalog, i: AssetItem) =>
  adaptive(catalog, i)
    ? 'follows light and dark mode'
    : i.variant === 'any'
      ? 'any background'
      : `for ${i.variant} backgrounds`;

/** One card per artwork id: its SVG (or first file) previewed, every format downloadable. */
function artworkCard(catalog: BrandCatalog, files: AssetItem[]): string {
  const first = files[0];
  if (!first) return '';
  const preview = files.find((f) => f.format === 'svg') ?? first;
  return `<li class="card"><div class="preview ${surfaceFor(catalog, preview)}"><img src="${url(preview.url)}" alt="${esc(first.alt)}"${preview.width ? ` width="${preview.width}"` : ''}${preview.height ? ` height="${preview.height}"` : ''}></div>
<h4>${esc(first.id)} <span class="muted">(${esc(usedOn(catalog, preview))})</span></h4>
<ul class="downloads">${files.map(download).join('')}</ul></li>`;
}

export function renderAssets(catalog: BrandCatalog): string {
  const items = catalog.assets.items;
  const byId = new Map<string, AssetItem[]>();
  for (const i of items) {
    // Theme icons are shown with their themes.
    if (i.group === 'social' || i.purpose || i.layout === 'theme') continue;
    byId.set(i.id, [...(byId.get(i.id) ?? []), i]);
  }
  const artwork = [...byId.values()];
  const logos = artwork.filter((f) => f[0]?.group === 'logo');
  const marks = artwork.filter((f) => f[0]?.group !== 'logo');
  const iconSet = items
    .filter((i) => i.group !== 'social' && i.purpose)
    .map((i) => {
      const img = ['png', 'svg', 'ico'].includes(i.format)
        ? `<span class="tile ${surfaceFor(catalog, i)}"><img src="${url(i.url)}" alt="" width="32" height="32"></span>`
        : '';
      return `<tr><td>${img}</td><td><a href="${url(i.url)}" download>${esc(i.file)}</a></td><td>${esc(i.purpose ?? '')}</td><td>${esc(size(i) || '—')}</td><td>${esc(kb(i.bytes))}</td></tr>`;
    })
    .join('');
  const social = items
    .filter((i) => i.group === 'social')
    .map(
      (i) =>
        `<li class="card"><figure><a href="${url(i.url)}"><img src="${url(i.url)}" alt="${esc(i.alt)}" width="${i.width ?? 1200}" height="${i.height ?? 630}" loading="lazy" decoding="async"></a><figcaption><code>${esc(i.theme ?? i.id)}</code> · ${esc(size(i))} PNG · ${esc(kb(i.bytes))}</figcaption></figure></li>`,
    )
    .join('\n');
  return `<section id="logos" aria-labelledby="logos-h">
<h2 id="logos-h">Logos and icons</h2>
<p>Use the light variants on light backgrounds and the dark variants on dark ones. SVG text is outlined, so the files render without the brand fonts. Full list with sizes and hashes: <a href="${url(`${catalog.baseUrl}/api/brand/assets`)}">/api/brand/assets</a>.</p>
<h3>Logos</h3>
<ul class="grid wide">${logos.map((f) => artworkCard(catalog, f)).join('\n')}</ul>
<h3>Shield and marks</h3>
<ul class="grid wide">${marks.map((f) => artworkCard(catalog, f)).join('\n')}</ul>
<h3>Web icon set</h3>
<table><thead><tr><th scope="col"><span class="sr-only">Preview</span></th><th scope="col">File</th><th scope="col">Purpose</th><th scope="col">Size</th><th scope="col">Bytes</th></tr></thead><tbody>${iconSet}</tbody></table>
</section>
<section id="social" aria-labelledby="social-h" class="social">
<h2 id="social-h">Social images</h2>
<p>One Open Graph / Twitter card image per theme; each thumbnail links to the full PNG.</p>
<ul class="grid wide">${social}</ul>
</section>`;
}
