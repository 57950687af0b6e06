/**
 * The fleet's themes as cards: the 10 live funnel themes and the official fleet accents, each
 * painted through its own data-funnel / data-fleet selector and listing the published contrast data.
 */
import type { BrandCatalog, ColorContrast, ThemeView } from '../../brand/catalog.js';
import { esc, url } from './html.js';

const ratio = (n: number) => `${n.toFixed(2)}:1`;
/** The emoji as code points (U+1F69A): readable where no emoji font draws the glyph itself. */
const codePoints = (s: string) =>
  [...s].map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** One theme color: painted with its published text color, then that pairing's ratios. */
function colorSample(which: 'color' | 'color2', hex: string, c: ColorContrast): string {
  return `<div><div class="sample-${which === 'color' ? 'c1' : 'c2'}"><span>${which}</span> <code>${esc(hex)}</code></div>
<p class="small">Text <code>${esc(c.text)}</code> · ${ratio(c.textRatio)} (${esc(c.textLevel)})</p>
<p class="small muted">${ratio(c.onLight)} on light · ${ratio(c.onDark)} on dark</p></div>`;
}

function card(t: ThemeView, base: string): string {
  const attr = t.kind === 'funnel' ? 'data-funnel' : 'data-fleet';
  const id = `theme-${t.kind}-${t.key}`;
  const links = [
    t.kind === 'funnel'
      ? `<a href="${url(`${base}/api/brand/themes/${encodeURIComponent(t.key)}`)}">JSON</a>`
      : '',
    `<a href="${url(t.socialImage)}">Social image</a>`,
  ].filter(Boolean);
  // The drawn icon needs no emoji font; the emoji is the fallback for a theme without one.
  const icon = t.iconSvg
    ? `<img class="theme-icon" src="${url(t.iconSvg)}" alt="${esc(t.iconAlt ?? '')}" width="48" height="48">`
    : `<span class="theme-icon" aria-hidden="true">${esc(t.icon)}</span>`;
  const iconFiles = [
    t.iconSvg ? `<a href="${url(t.iconSvg)}">SVG</a>` : '',
    t.iconPng ? `<a href="${url(t.iconPng)}">PNG</a>` : '',
  ].filter(Boolean);
  return `<li class="card theme" ${attr}="${esc(t.key)}">
<div class="theme-head">${icon}<div><h4 id="${esc(id)}">${esc(t.name)}</h4><p>${esc(t.tagline)}</p></div></div>
<div class="theme-body">
<div class="pair">${colorSample('color', t.color, t.contrast.color)}${colorSample('color2', t.color2, t.contrast.color2)}</div>
<dl class="facts">
<dt>Key</dt><dd><code>${esc(t.key)}</code>${t.business && t.business !== t.key ? ` · business <code>${esc(t.business)}</code>` : ''}</dd>
<dt>Icon</dt><dd>${[...iconFiles, `emoji <code>${esc(codePoints(t.icon))}</code>`].join(' · ')}</dd>
<dt>CSS</dt><dd><code>${esc(t.css.selector)}</code></dd>
</dl>
<p class="small">${links.join(' · ')}</p>
</div></li>`;
}

export function renderThemes(catalog: BrandCatalog): string {
  const { funnels, official } = catalog.themes;
  const base = catalog.baseUrl;
  return `<section id="themes" aria-labelledby="themes-h">
<h2 id="themes-h">Themes</h2>
<p>Set <code>data-funnel="&lt;key&gt;"</code> on any element under the tokens stylesheet to get <code>--theme-color</code>, <code>--theme-color2</code> and <code>--theme-on-color</code>. Text on a theme color uses the listed text color; its ratio is the published one.</p>
<h3>Funnel themes <span class="muted">(${funnels.length} live)</span></h3>
<ul class="grid cards" id="funnel-themes">${funnels.map((t) => card(t, base)).join('\n')}</ul>
<h3>Official fleet accents</h3>
<ul class="grid cards">${official.map((t) => card(t, base)).join('\n')}</ul>
</section>`;
}
