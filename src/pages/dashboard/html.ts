/**
 * HTML building for the dashboard: a tagged template that escapes every interpolated value
 * unless it is already markup (Raw), and the document shell every dashboard page shares
 * (brand fonts, tokens and document styles from this origin, light and dark by the tokens).
 */

/** Markup that was built by `html` (so already escaped); anything else is text. */
export class Raw {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (s: string) => s.replace(/[<>&"']/g, (c) => ENTITIES[c] ?? c);

type Value = Raw | string | number | boolean | null | undefined | readonly Value[];

function part(v: Value): string {
  if (v instanceof Raw) return v.value;
  if (Array.isArray(v)) return (v as readonly Value[]).map(part).join('');
  if (v === undefined || v === null || v === false) return '';
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Raw {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += part(v) + (strings[i + 1] ?? '');
  });
  return new Raw(out);
}

export interface FunnelView {
  key: string;
  name: string;
  /** Whether the theme's own text color reaches AA on its color (else the chip is drawn outlined). */
  filled: boolean;
}

export interface BrandView {
  name: string;
  copyright: string;
  /** Same-origin paths: the catalog's absolute URLs may name a host the browser cannot reach. */
  logo: string;
  icon: string;
  funnels: FunnelView[];
}

export function page(p: {
  title: string;
  brand: BrandView;
  main: Raw;
  /** Controls on the right of the header bar (theme toggle, sign out). */
  controls?: Raw;
  head?: Raw;
}): string {
  return `<!doctype html>
${
  html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>${p.title} · ${p.brand.name}</title>
      ${p.head}
      <link rel="icon" href="${p.brand.icon}" type="image/svg+xml" />
      <link rel="stylesheet" href="/static/fleet/fonts/fonts.css" />
      <link rel="stylesheet" href="/static/fleet/design-tokens.css" />
      <link rel="stylesheet" href="/static/fleet/brand.css" />
      <link rel="stylesheet" href="/dashboard.css" />
      <script src="/dashboard.js"></script>
    </head>
    <body>
      <a class="skip" href="#main">Skip to content</a>
      <header class="bar dash-bar">
        <img src="${p.brand.logo}" alt="${p.brand.name}" height="40" />
        <span>Operator dashboard</span>
        <div class="dash-controls">
          <button type="button" class="theme-toggle" data-theme-toggle hidden>Theme: system</button>
          ${p.controls}
        </div>
      </header>
      <main id="main" class="dash" tabindex="-1">${p.main}</main>
      <footer class="foot dash-foot">${p.brand.copyright}</footer>
    </body>
  </html>`.value
}
`;
}
