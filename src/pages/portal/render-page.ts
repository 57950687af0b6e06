/**
 * The portal page: head, header, section navigation, hero and footer around the sections.
 * Pure function of the catalog, so the route can compute it once per brand load.
 */
import type { BrandCatalog } from '../../brand/catalog.js';
import { esc, url } from './html.js';
import { renderAssets } from './render-assets.js';
import { renderFoundations } from './render-foundations.js';
import { renderDocs, renderUsage } from './render-resources.js';
import { renderThemes } from './render-themes.js';
import type { TokensView } from './tokens-view.js';

const SECTIONS: [string, string][] = [
  ['colors', 'Colors'],
  ['type', 'Type'],
  ['space', 'Space'],
  ['motion', 'Motion'],
  ['gradients', 'Gradients'],
  ['themes', 'Themes'],
  ['logos', 'Logos'],
  ['social', 'Social'],
  ['docs', 'Documents'],
  ['use', 'Use it'],
];

export interface PageAssets {
  cssUrl: string;
  jsUrl: string;
}

export function renderPortalPage(catalog: BrandCatalog, tokens: TokensView, assets: PageAssets): string {
  const info = catalog.source.info;
  const base = catalog.baseUrl;
  const s = `${base}/static/fleet`;
  const m = catalog.manifest;
  const ogImage = catalog.themes.official[0]?.socialImage ?? catalog.themes.funnels[0]?.socialImage;
  const stripe = tokens.gradients[0]?.cls;
  const logo = catalog.assets.items.find((i) => i.url === catalog.assets.logo['dark']);
  const logoWidth = logo?.width && logo.height ? Math.round((40 * logo.width) / logo.height) : 160;
  const links: [string, string][] = [
    [`${base}/api/brand`, 'Manifest'],
    [`${base}/api/brand/tokens`, 'Tokens JSON'],
    [`${base}/api/brand/tokens.css`, 'tokens.css'],
    [`${base}/api/brand/themes`, 'Themes JSON'],
    [`${base}/api/brand/assets`, 'Assets JSON'],
    [`${s}/docs/`, 'Documents'],
    [`${base}/llms.txt`, 'llms.txt'],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(info.name)} brand portal</title>
<meta name="description" content="${esc(info.description)}">
<meta property="og:title" content="${esc(info.name)} brand portal">
<meta property="og:description" content="${esc(info.tagline)}">
${ogImage ? `<meta property="og:image" content="${url(ogImage)}">\n<meta name="twitter:card" content="summary_large_image">` : ''}
<link rel="icon" href="${url(catalog.assets.icons['favicon'] ?? `${s}/assets/icons/favicon.ico`)}" sizes="48x48">
<link rel="icon" href="${url(catalog.assets.icons['svg'] ?? `${s}/assets/icons/icon.svg`)}" type="image/svg+xml">
<link rel="alternate" type="application/json" href="${url(`${base}/api/brand`)}" title="Brand API manifest">
<link rel="alternate" type="text/plain" href="${url(`${base}/llms.txt`)}" title="Agent guide">
<link rel="stylesheet" href="${url(catalog.fonts.importUrl)}">
<link rel="stylesheet" href="${url(`${s}/design-tokens.css`)}">
<link rel="stylesheet" href="${url(assets.cssUrl)}">
<script src="${url(assets.jsUrl)}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="bar">
<a href="/"><img src="${url(catalog.assets.logo['dark'] ?? '')}" alt="${esc(info.name)}, brand portal home" width="${logoWidth}" height="40"></a>
<span>Brand portal</span><span class="spacer"></span><span id="theme-slot"></span>
</header>
<nav class="toc" aria-label="Sections"><ul>${SECTIONS.map(([id, label]) => `<li><a href="#${id}">${esc(label)}</a></li>`).join('')}</ul></nav>
<main id="main" tabindex="-1">
<section class="hero" aria-labelledby="top-h">
<p class="eyebrow">${esc(m.name)} · v${esc(m.version)}</p>
<h1 id="top-h">${esc(info.name)}</h1>
<p class="lede">${esc(info.tagline)}</p>
<p>${esc(info.description)}</p>
<ul class="links">${links.map(([href, label]) => `<li><a href="${url(href)}">${esc(label)}</a></li>`).join('')}</ul>
${stripe ? `<div class="stripe ${stripe}" aria-hidden="true"></div>` : ''}
</section>
${renderFoundations(catalog, tokens)}
${renderThemes(catalog)}
${renderAssets(catalog)}
${renderDocs(catalog)}
${renderUsage(catalog)}
</main>
<footer class="foot">
<p>${esc(info.legal.copyright)}</p>
<p>${esc(info.legal.trademark)}</p>
<p>${esc(info.legal.license)}</p>
<p>This page is built from the live brand folder (loaded <time datetime="${esc(catalog.loadedAt)}">${esc(catalog.loadedAt)}</time>), the same catalog the API serves.</p>
<p id="copy-status" class="sr-only" aria-live="polite"></p>
</footer>
</body>
</html>
`;
}
