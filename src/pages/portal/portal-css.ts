/**
 * The portal stylesheet, served at /portal.css: a fixed layout written only against the token
 * custom properties, plus rules generated per catalog that paint each token, theme and font
 * specimen (the page's CSP allows no inline styles, so every swatch is a class here).
 */
import type { BrandCatalog } from '../../brand/catalog.js';
import { cssFamily } from './html.js';
import type { TokensView } from './tokens-view.js';

const LAYOUT = `/* Brand portal layout: every color, size and curve is a design-token variable. */
:root{color-scheme:light dark}
:root[data-theme="light"]{color-scheme:light}
:root[data-theme="dark"]{color-scheme:dark}
*,*::before,*::after{box-sizing:border-box}
html{scroll-behavior:smooth}
body{margin:0;font:var(--type-style-body);color:var(--colors-text-default);background:var(--colors-surface-page)}
a{color:var(--colors-text-link);text-underline-offset:2px}
:focus-visible{outline:2px solid var(--colors-text-default);outline-offset:1px;box-shadow:0 0 0 5px var(--colors-border-focus)}
img{max-width:100%}
.skip{position:absolute;left:var(--spacing-4);top:-10rem;z-index:10;padding:var(--spacing-2) var(--spacing-4);background:var(--colors-surface-page);color:var(--colors-text-link);font:var(--type-style-label);border-radius:var(--radius-md)}
.skip:focus{top:var(--spacing-2)}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.bar{display:flex;align-items:center;gap:var(--spacing-4);padding:var(--spacing-3) var(--spacing-6);font:var(--type-style-label)}
.bar a{color:inherit}
.bar img{display:block;height:40px;width:auto}
.bar .spacer{flex:1}
.btn{font:var(--type-style-label);color:inherit;background:transparent;border:1px solid currentColor;border-radius:var(--radius-pill);padding:var(--spacing-1) var(--spacing-3);cursor:pointer}
.toc{position:sticky;top:0;z-index:5;background:var(--colors-surface-raised);border-bottom:1px solid var(--colors-border-default)}
.toc ul{display:flex;flex-wrap:wrap;gap:var(--spacing-1) var(--spacing-5);list-style:none;margin:0 auto;max-width:76rem;padding:var(--spacing-2) var(--spacing-6)}
.toc a{font:var(--type-style-label);text-decoration:none}
.toc a:hover{text-decoration:underline}
main{display:block;max-width:76rem;margin:0 auto;padding:0 var(--spacing-6) var(--spacing-16)}
main>section{padding-top:var(--spacing-12);scroll-margin-top:var(--spacing-8)}
h1{font:var(--type-style-display);color:var(--colors-brand-primary);margin:0 0 var(--spacing-3)}
h2{font:var(--type-style-h2);color:var(--colors-brand-primary);margin:0 0 var(--spacing-2);padding-top:var(--spacing-4);border-top:1px solid var(--colors-border-default)}
h3{font:var(--type-style-h3);margin:var(--spacing-8) 0 var(--spacing-3)}
h4{font:var(--type-style-label);margin:0 0 var(--spacing-2)}
p{margin:0 0 var(--spacing-3)}
code,kbd,pre,.mono{font:var(--type-style-code);font-variant-ligatures:none}
.small code{font-size:inherit}
.small,.muted{font:var(--type-style-small)}
.muted{color:var(--colors-text-muted)}
.eyebrow{font:var(--type-style-label);letter-spacing:var(--type-letter-spacing-wide);text-transform:uppercase;color:var(--colors-text-muted)}
.lede{font-size:var(--type-size-xl);line-height:var(--type-line-height-snug);max-width:48rem}
.hero{padding-top:var(--spacing-10)}
.stripe{height:var(--spacing-2);border-radius:var(--radius-pill);margin:var(--spacing-6) 0 0}
.links{display:flex;flex-wrap:wrap;gap:var(--spacing-2);list-style:none;padding:0;margin:var(--spacing-4) 0 0}
.links a{display:inline-block;padding:var(--spacing-1) var(--spacing-3);border:1px solid var(--colors-border-strong);border-radius:var(--radius-pill);text-decoration:none;font:var(--type-style-label)}
.links a:hover{background:var(--colors-surface-sunken)}
.grid{display:grid;gap:var(--spacing-4);grid-template-columns:repeat(auto-fill,minmax(10.5rem,1fr));list-style:none;padding:0;margin:0}
.grid.wide{grid-template-columns:repeat(auto-fill,minmax(16rem,1fr))}
.grid.cards{grid-template-columns:repeat(auto-fill,minmax(21rem,1fr))}
.card{background:var(--colors-surface-raised);border:1px solid var(--colors-border-default);border-radius:var(--radius-lg);padding:var(--spacing-4)}
.card h4{margin-top:var(--spacing-3)}
.facts{display:grid;grid-template-columns:auto 1fr;gap:0 var(--spacing-3);margin:var(--spacing-3) 0 0;font:var(--type-style-small)}
.facts dt{color:var(--colors-text-muted)}
.facts dd{margin:0;overflow-wrap:anywhere}
.chip{display:flex;height:4rem;border-radius:var(--radius-md);border:1px solid var(--colors-border-strong);overflow:hidden}
.chip span{flex:1}
.chip.sm{display:inline-flex;vertical-align:middle;width:3.5rem;height:2rem;margin-right:var(--spacing-3)}
.palette{display:flex;flex-wrap:wrap;gap:var(--spacing-2) var(--spacing-8)}
.swatches{display:flex;flex-wrap:wrap;gap:var(--spacing-4);list-style:none;padding:0;margin:0 0 var(--spacing-5)}
.swatch{width:8.25rem}
.swatch p{margin:0;overflow-wrap:anywhere}
.swatch .sw-name{font:var(--type-style-label);margin-top:var(--spacing-2)}
table.colors{margin:0 0 var(--spacing-6);table-layout:fixed}
table.colors thead th:first-child{width:28%}
table.colors caption{text-align:left;font:var(--type-style-label);letter-spacing:var(--type-letter-spacing-wide);text-transform:uppercase;color:var(--colors-text-muted);padding-bottom:var(--spacing-2)}
table.colors th[scope=row]{font-weight:600;background:none}
table.colors td,table.colors th{vertical-align:top}
.scale{list-style:none;padding:0;margin:0}
.scale li{display:flex;align-items:baseline;gap:var(--spacing-4);padding:var(--spacing-2) 0;border-bottom:1px solid var(--colors-border-default)}
.scale .label{flex:0 0 11rem;font:var(--type-style-small);color:var(--colors-text-muted)}
.scale .sample{flex:1;min-width:0;overflow-wrap:anywhere}
.specimen-line{display:block}
.specimen p{margin:0 0 var(--spacing-2);font-size:var(--type-size-xl)}
.specimen .glyphs{font-size:var(--type-size-lg);overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;font:var(--type-style-small)}
th,td{border:1px solid var(--colors-border-default);padding:var(--spacing-2) var(--spacing-3);text-align:left;vertical-align:middle}
th{background:var(--colors-surface-raised)}
.space{display:block;height:var(--spacing-4);min-width:1px;background:var(--colors-brand-accent);border-radius:2px}
.radius-box{width:5rem;height:5rem;background:var(--colors-surface-sunken);border:2px solid var(--colors-border-strong)}
.shadow-box{height:5rem;background:var(--colors-surface-page);border-radius:var(--radius-md)}
.grad{height:6rem;border-radius:var(--radius-lg);border:1px solid var(--colors-border-default)}
.motion-list{list-style:none;padding:0;margin:var(--spacing-3) 0 0;display:grid;gap:var(--spacing-3)}
.motion-list li{display:grid;grid-template-columns:13rem 1fr;gap:var(--spacing-4);align-items:center}
.track{container-type:inline-size;height:1.5rem;background:var(--colors-surface-sunken);border-radius:var(--radius-pill)}
.dot{display:block;width:1.5rem;height:1.5rem;border-radius:50%;background:var(--colors-brand-accent);border:2px solid var(--colors-brand-primary)}
.motion-list:hover .dot,#motion-play:checked~.motion-list .dot{transform:translateX(calc(100cqi - 1.5rem))}
#motion-play{width:1.25rem;height:1.25rem;margin:0;vertical-align:middle;accent-color:var(--colors-brand-primary)}
.play{font:var(--type-style-label);margin-left:var(--spacing-2);vertical-align:middle}
.rm-note{display:none}
.theme{padding:0;overflow:hidden;transition:transform var(--motion-duration-fast) var(--motion-easing-standard),box-shadow var(--motion-duration-fast) var(--motion-easing-standard)}
.theme:hover{transform:translateY(-3px);box-shadow:var(--shadows-lg)}
.theme-head{display:flex;gap:var(--spacing-3);align-items:center;padding:var(--spacing-4);background:var(--theme-color);color:var(--theme-on-color);border-bottom:var(--spacing-2) solid var(--theme-color2)}
.theme-head h4{font:var(--type-style-h3);font-size:var(--type-size-xl);margin:0;color:inherit}
.theme-head p{margin:0}
.theme-icon{font-size:var(--type-size-3xl);line-height:1}
.theme-body{padding:var(--spacing-4)}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:var(--spacing-3)}
.sample-c1,.sample-c2{display:flex;align-items:center;justify-content:center;gap:var(--spacing-2);height:3rem;margin-bottom:var(--spacing-2);border-radius:var(--radius-md);font:var(--type-style-label)}
.pair p{margin:0}
.sample-c1{background:var(--theme-color);color:var(--theme-on-color)}
.sample-c2{background:var(--theme-color2);color:var(--portal-on-color2)}
.preview{display:flex;align-items:center;justify-content:center;min-height:9rem;padding:var(--spacing-4);border-radius:var(--radius-md);border:1px solid var(--colors-border-default)}
.preview img{max-height:7rem;width:auto;height:auto}
.on-page{background:var(--colors-surface-page)}
.tile{display:inline-block;padding:var(--spacing-1);border-radius:var(--radius-sm);border:1px solid var(--colors-border-default)}
.tile img{display:block;width:2rem;height:2rem}
.downloads{display:flex;flex-wrap:wrap;gap:var(--spacing-1) var(--spacing-3);list-style:none;padding:0;margin:var(--spacing-2) 0 0;font:var(--type-style-small)}
.social a{display:block}
.social img{display:block;width:100%;height:auto;border-radius:var(--radius-md);border:1px solid var(--colors-border-default)}
.social figure{margin:0}
.social figcaption{font:var(--type-style-small);margin-top:var(--spacing-2)}
.doc-list{list-style:none;padding:0;margin:0}
.doc-list li{padding:var(--spacing-2) 0;border-top:1px solid var(--colors-border-default)}
.doc-list p{margin:0}
.doc-title{font-weight:600}
.docs h3{margin-top:0}
.snippet{margin:0 0 var(--spacing-5)}
.snippet figcaption{display:flex;align-items:center;justify-content:space-between;gap:var(--spacing-3);font:var(--type-style-label);margin-bottom:var(--spacing-2)}
.snippet pre{margin:0;padding:var(--spacing-4);background:var(--colors-surface-sunken);border-radius:var(--radius-md);white-space:pre-wrap;overflow-wrap:anywhere}
.copy{color:var(--colors-text-link)}
.foot{max-width:76rem;margin:0 auto;padding:var(--spacing-6);border-top:1px solid var(--colors-border-default);color:var(--colors-text-muted);font:var(--type-style-small)}
@media (prefers-reduced-motion:reduce){
  html{scroll-behavior:auto}
  .dot,.theme{transition:none!important}
  .theme:hover{transform:none}
  .rm-note{display:block}
}
@media (max-width:40rem){
  .motion-list li{grid-template-columns:1fr}
  .scale .label{flex-basis:7rem}
}
`;

const HEX = /^#[0-9a-f]{6}$/i;
const SELECTOR = /^\[data-(funnel|fleet)="[a-z][a-z0-9-]*"\]$/;

/** Official accents have no selector in the tokens CSS, and no theme has an on-color2 variable. */
function themeRules(catalog: BrandCatalog): string[] {
  const out: string[] = [];
  for (const t of [...catalog.themes.funnels, ...catalog.themes.official]) {
    if (!SELECTOR.test(t.css.selector)) continue;
    const vars = Object.entries(t.kind === 'official' ? t.css.variables : {}).filter(
      ([k, v]) => /^--[a-z0-9-]+$/.test(k) && HEX.test(v),
    );
    const on2 = HEX.test(t.contrast.color2.text) ? [['--portal-on-color2', t.contrast.color2.text]] : [];
    const decl = [...vars, ...on2].map(([k, v]) => `${k}:${v}`).join(';');
    if (decl) out.push(`${t.css.selector}{${decl}}`);
  }
  return out;
}

/** Class for one font stack at one weight; the page uses the same function. */
export const fontClass = (stackIndex: number, weight: number) => `f${stackIndex}-${weight}`;

function fontRules(catalog: BrandCatalog): string[] {
  return Object.values(catalog.fonts.stacks).flatMap((s, i) => {
    const family = [s.family, ...s.fallback].map(cssFamily).join(',');
    return s.weights.map((w) => `.${fontClass(i, w)}{font-family:${family};font-weight:${Math.trunc(w)}}`);
  });
}

function surfaceRules(catalog: BrandCatalog): string[] {
  const { light, dark } = catalog.themes.surfaces;
  if (!HEX.test(light) || !HEX.test(dark)) return [];
  // The header always carries the dark-variant logo, so it stays dark in both modes.
  return [
    `.bar{background:var(--colors-brand-primary-strong,${dark});color:${light}}`,
    `.on-dark{background:${dark}}`,
    `.on-light{background:${light}}`,
  ];
}

export function buildPortalCss(catalog: BrandCatalog, tokens: TokensView): string {
  return [
    LAYOUT,
    `/* Generated from the ${catalog.source.info.name.replace(/\*\//g, '')} brand, loaded ${catalog.loadedAt}. */`,
    ...surfaceRules(catalog),
    ...themeRules(catalog),
    ...fontRules(catalog),
    ...tokens.rules,
    '',
  ].join('\n');
}
