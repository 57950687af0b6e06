/**
 * The foundations half of the portal: colors, type, spacing, radius, shadows, motion, gradients
 * and breakpoints, each shown by painting it with the brand's own CSS custom property.
 */
import type { BrandCatalog } from '../../brand/catalog.js';
import { esc } from './html.js';
import { fontClass } from './portal-css.js';
import type { ColorEntry, ModeValue, Ratio, TokenEntry, TokensView } from './tokens-view.js';

const ratio = (r: Ratio | null) => (r ? `${r.ratio.toFixed(2)}:1 (${r.level})` : 'n/a');
const varCode = (e: TokenEntry) => (e.cssVar ? `<code>var(${esc(e.cssVar)})</code>` : '');
const title = (s: string) => esc(s.replace(/[.-]/g, ' '));

/** A token's resolved value and its custom property, one under the other. */
const valueLines = (e: TokenEntry) =>
  `<p class="small"><code>${esc(e.value)}</code></p>${e.cssVar ? `<p class="small muted"><code>var(${esc(e.cssVar)})</code></p>` : ''}`;

function facts(rows: [string, string][]): string {
  return `<dl class="facts">${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function paletteSwatch(c: ColorEntry): string {
  return `<li class="swatch"><div class="chip ${c.cls}" aria-hidden="true"></div>
<p class="sw-name">${title(c.name.split('.').slice(1).join('.') || c.name)}</p>
<p><code>${esc(c.value)}</code></p>
${c.cssVar ? `<p class="small muted"><code>${esc(c.cssVar)}</code></p>` : ''}
<p class="small">${ratio(c.onLight)} on light<br>${ratio(c.onDark)} on dark</p></li>`;
}

function modeCell(v: ModeValue | null, against: string): string {
  if (!v) return '<td class="muted">same as light</td>';
  const alias = v.alias ? `<br><span class="muted">${esc(v.alias)}</span>` : '';
  return `<td><code>${esc(v.value)}</code>${alias}<br>${ratio(v.ratio)} ${esc(against)}</td>`;
}

function semanticRow(c: ColorEntry): string {
  const chip = `<span class="chip sm ${c.cls}" aria-hidden="true"><span class="lt"></span>${c.dark ? '<span class="dk"></span>' : ''}</span>`;
  const name = title(c.name.split('.').slice(1).join('.') || c.name);
  const description = c.description ? `<br><span class="muted">${esc(c.description)}</span>` : '';
  return `<tr><th scope="row">${chip}${name}${description}</th>${modeCell(c.light, c.against)}${modeCell(c.dark, c.against)}<td>${varCode(c)}</td></tr>`;
}

function semanticTable(role: string, colors: ColorEntry[]): string {
  return `<table class="colors"><caption>${esc(role)}</caption><thead><tr><th scope="col">Token</th><th scope="col">Light mode</th><th scope="col">Dark mode</th><th scope="col">CSS</th></tr></thead><tbody>${colors.map(semanticRow).join('\n')}</tbody></table>`;
}

function colors(t: TokensView): string {
  const palette = t.palette
    .map(
      (g) =>
        `<div class="family"><h4 class="eyebrow">${esc(g.family)}</h4><ul class="swatches">${g.colors.map(paletteSwatch).join('')}</ul></div>`,
    )
    .join('\n');
  const semantic = t.semantic.map((g) => semanticTable(g.role, g.colors)).join('\n');
  return `<section id="colors" aria-labelledby="colors-h">
<h2 id="colors-h">Colors</h2>
<p>Contrast is the WCAG 2 ratio: 4.5:1 (AA) and 7:1 (AAA) for body text, 3:1 (AA-large) for large text and interface parts.</p>
<h3>Palette</h3>
<p>Each color as text on the brand's light page (<code>${esc(t.surfaces.light)}</code>) and dark page (<code>${esc(t.surfaces.dark)}</code>).</p>
<div class="palette">${palette}</div>
<h3>Semantic colors</h3>
<p>Use these names in products: they switch with light and dark mode. Swatches show light mode on the left, dark on the right. Surfaces are rated with the text color meant for them, text colors on their own surface where they have one, everything else on the page.</p>
${semantic}
</section>`;
}

function typography(catalog: BrandCatalog, t: TokensView): string {
  const sample = catalog.source.info.tagline;
  const stacks = Object.entries(catalog.fonts.stacks)
    .map(
      ([key, s], i) => `<li class="card specimen">
<h4>${esc(s.family)} <span class="muted">(${esc(key)})</span></h4>
<p class="muted small">${esc(s.role)}</p>
${s.weights.map((w) => `<p class="${fontClass(i, w)}">${esc(String(w))} · ${esc(sample)}</p>`).join('')}
<p class="glyphs ${fontClass(i, s.weights[0] ?? 400)}">ABCDEFGHIJKLM abcdefghijklm 0123456789 &amp;@€</p>
${facts([
  ['Stack', `<code>${esc(s.stack)}</code>`],
  ['Package', `${esc(s.package)} (${esc(s.license)})`],
  ['Files', `${s.files.length} woff2, self-hosted`],
])}</li>`,
    )
    .join('\n');
  const scale = t.sizes
    .map(
      (e) =>
        `<li><span class="label">${title(e.name.replace(/^size\./, ''))} · <code>${esc(e.value)}</code></span><span class="sample ${e.cls}">${esc(sample)}</span></li>`,
    )
    .join('');
  const styles = t.styles
    .map(
      (e) =>
        `<li><span class="label">${title(e.name.replace(/^style\./, ''))}${e.description ? `<br>${esc(e.description)}` : ''}</span><span class="sample"><span class="${e.cls} specimen-line">${esc(sample)}</span><span class="small muted"><code>${esc(e.value)}</code></span></span></li>`,
    )
    .join('');
  const metrics = t.metrics
    .map(
      (e) => `<tr><td>${title(e.name)}</td><td><code>${esc(e.value)}</code></td><td>${varCode(e)}</td></tr>`,
    )
    .join('');
  return `<section id="type" aria-labelledby="type-h">
<h2 id="type-h">Typography</h2>
<p>Fonts are self-hosted: <code>${esc(catalog.fonts.html)}</code></p>
<h3>Fonts</h3>
<ul class="grid cards">${stacks}</ul>
<h3>Type scale</h3>
<ul class="scale">${scale}</ul>
<h3>Text styles</h3>
<ul class="scale">${styles}</ul>
${metrics ? `<h3>Weights and metrics</h3><table><thead><tr><th scope="col">Token</th><th scope="col">Value</th><th scope="col">CSS</th></tr></thead><tbody>${metrics}</tbody></table>` : ''}
</section>`;
}

function space(t: TokensView): string {
  const spacing = t.spacing
    .map(
      (e) =>
        `<li><span class="label">${title(e.name)} · <code>${esc(e.value)}</code></span><span class="sample"><span class="space ${e.cls}"></span></span></li>`,
    )
    .join('');
  const radius = t.radius
    .map(
      (e) =>
        `<li class="card"><div class="radius-box ${e.cls}" aria-hidden="true"></div><h4>${title(e.name)}</h4>${valueLines(e)}</li>`,
    )
    .join('');
  const shadows = t.shadows
    .map(
      (e) =>
        `<li class="card"><div class="shadow-box ${e.cls}" aria-hidden="true"></div><h4>${title(e.name)}</h4>${e.description ? `<p class="small">${esc(e.description)}</p>` : ''}${valueLines(e)}</li>`,
    )
    .join('');
  return `<section id="space" aria-labelledby="space-h">
<h2 id="space-h">Spacing, radius and shadows</h2>
<h3>Spacing</h3>
<ul class="scale">${spacing}</ul>
<h3>Radius</h3>
<ul class="grid">${radius}</ul>
<h3>Shadows</h3>
<ul class="grid wide">${shadows}</ul>
</section>`;
}

function motion(t: TokensView): string {
  const row = (e: TokenEntry, what: string) =>
    `<li class="${e.cls}"><span class="small"><strong>${title(e.name.replace(/^[a-z]+\./, ''))}</strong> ${esc(what)}<br><code>${esc(e.value)}</code></span><span class="track" aria-hidden="true"><span class="dot"></span></span></li>`;
  const rows = [
    ...t.durations.map((e) => row(e, 'duration')),
    ...t.easings.map((e) => row(e, 'easing')),
    ...t.transitions.map((e) => row(e, 'transition')),
  ].join('');
  return `<section id="motion" aria-labelledby="motion-h">
<h2 id="motion-h">Motion</h2>
<p>Each track moves with one motion token. Hover the list, or tick the box, to play them; easings run over <code>${esc(t.demoDurationLabel)}</code>.</p>
<p class="rm-note card">Your system asks for reduced motion, so the demos jump instead of moving. Products do the same: honour <code>prefers-reduced-motion</code>.</p>
<div><input type="checkbox" id="motion-play"><label class="play" for="motion-play">Play the motion demos</label>
<ul class="motion-list">${rows}</ul></div>
</section>`;
}

function gradients(t: TokensView): string {
  const items = t.gradients
    .map(
      (e) =>
        `<li class="card"><div class="grad ${e.cls}" aria-hidden="true"></div><h4>${title(e.name)}</h4>${e.description ? `<p class="small">${esc(e.description)}</p>` : ''}${valueLines(e)}</li>`,
    )
    .join('');
  const bps = t.breakpoints
    .map((e) => `<tr><td>${title(e.name)}</td><td><code>${esc(e.value)}</code></td></tr>`)
    .join('');
  return `<section id="gradients" aria-labelledby="gradients-h">
<h2 id="gradients-h">Gradients and breakpoints</h2>
<h3>Gradients</h3>
<ul class="grid wide">${items}</ul>
${bps ? `<h3>Breakpoints</h3><table><thead><tr><th scope="col">Name</th><th scope="col">Min width</th></tr></thead><tbody>${bps}</tbody></table>` : ''}
</section>`;
}

export function renderFoundations(catalog: BrandCatalog, t: TokensView): string {
  return [colors(t), typography(catalog, t), space(t), motion(t), gradients(t)].join('\n');
}
