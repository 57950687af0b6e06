/**
 * Design tokens to CSS custom properties with Style Dictionary: light values on :root, dark
 * overrides under [data-theme="dark"] and prefers-color-scheme, aliases kept as var() chains.
 * Style Dictionary 4 does not read DTCG 2025.10 object values (color objects, {value, unit}
 * dimensions) by itself, so the value transform the service publishes (sd-module.ts) turns them
 * into CSS.
 */
import { setImmediate } from 'node:timers/promises';
import type StyleDictionaryClass from 'style-dictionary';
import type { TransformedToken } from 'style-dictionary/types';
import { commentText, splitDescriptions } from './comment-text.js';
import { buildIdOf, cacheKey, type DiskCache } from './disk-cache.js';
import type { FlatToken } from './dtcg.js';
import { DTCG_CSS, transforms } from './sd-module.js';

export { cssColor, cssValue } from './css-values.js';

/** Identifies this CSS build, so cached CSS is reused only when the same build would produce it. */
export const TOKENS_CSS_BUILD = buildIdOf(
  import.meta.url,
  ['comment-text', 'css-values', 'sd-module'],
  'style-dictionary',
);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const FORMAT = 'fleetgate/css-variables';

function dictionary(
  StyleDictionary: typeof StyleDictionaryClass,
  tree: unknown,
  files: { filter: (t: TransformedToken) => boolean; selector: string }[],
) {
  // Descriptions go around Style Dictionary (comment-text.ts) and back onto the tokens, made safe.
  const { tokens, descriptions } = splitDescriptions(tree);
  const cssVariables = StyleDictionary.hooks.formats['css/variables'];
  if (!cssVariables) throw new Error('Style Dictionary has no css/variables format');
  return new StyleDictionary({
    tokens: tokens as Record<string, never>,
    usesDtcg: true,
    log: { verbosity: 'silent', warnings: 'disabled', errors: { brokenReferences: 'throw' } },
    hooks: {
      // The transform the service publishes for consumers (sd-module.ts).
      transforms,
      formats: {
        [FORMAT]: (args) => {
          for (const t of args.dictionary.allTokens) {
            const d = descriptions.get(t.path.join('.'));
            if (d !== undefined) t.$description = commentText(d);
          }
          return cssVariables(args);
        },
      },
    },
    platforms: {
      css: {
        transforms: ['name/kebab', DTCG_CSS],
        files: files.map((f, i) => ({
          destination: `part-${i}.css`,
          format: FORMAT,
          filter: f.filter,
          options: { selector: f.selector, outputReferences: true, showFileHeader: false },
        })),
      },
    },
  });
}

/** Strips Style Dictionary's selector wrapper so we can nest the declarations where we need them. */
export const declarations = (css: string): string =>
  css
    .replace(/^[^{]*\{\n?/, '')
    .replace(/\}\s*$/, '')
    .trimEnd();

export function deepMerge(a: unknown, b: unknown): unknown {
  if (!isObj(a) || !isObj(b)) return b;
  const out: Obj = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? deepMerge(out[k], v) : v;
  return out;
}

export interface FunnelCss {
  key: string;
  color: string;
  color2: string;
  onColor: string;
}

/**
 * buildTokensCss through the disk cache, so Style Dictionary is only loaded when the tokens (or
 * the CSS build itself) changed. darkPaths is a list here: it is part of the cache key.
 */
export async function cachedTokensCss(
  cache: DiskCache,
  input: { base: unknown; dark: unknown; darkPaths: string[]; brandName: string; funnels: FunnelCss[] },
): Promise<string> {
  const key = `${cacheKey(JSON.stringify(input), TOKENS_CSS_BUILD)}.css`;
  const bytes = await cache.memo(key, async () =>
    Buffer.from(await buildTokensCss({ ...input, darkPaths: new Set(input.darkPaths) })),
  );
  return bytes.toString('utf8');
}

export async function buildTokensCss(opts: {
  base: unknown;
  dark: unknown;
  darkPaths: Set<string>;
  brandName: string;
  funnels: FunnelCss[];
}): Promise<string> {
  // Loaded here, not at import: it is needed only when the CSS is not already cached.
  const { default: StyleDictionary } = await import('style-dictionary');
  const light = dictionary(StyleDictionary, opts.base, [{ filter: () => true, selector: ':root' }]);
  const isDark = (t: TransformedToken) => opts.darkPaths.has(t.path.join('.'));
  const dark = dictionary(StyleDictionary, deepMerge(opts.base, opts.dark), [
    { filter: isDark, selector: ':root' },
  ]);
  // One at a time with the loop let run between: Style Dictionary's awaits are only microtasks.
  const lightOut = await light.formatPlatform('css');
  await setImmediate();
  const darkOut = await dark.formatPlatform('css');
  const text = (o: unknown) => (typeof o === 'string' ? o : '');
  const lightCss = text(lightOut[0]?.output);
  const darkDecl = declarations(text(darkOut[0]?.output));
  const indent = (s: string, n: number) =>
    s
      .split('\n')
      .map((l) => ' '.repeat(n) + l.trim())
      .join('\n');
  const funnels = opts.funnels
    .map(
      (f) =>
        `[data-funnel="${f.key}"] {\n  --theme-color: ${f.color.toLowerCase()};\n  --theme-color2: ${f.color2.toLowerCase()};\n  --theme-on-color: ${f.onColor.toLowerCase()};\n}`,
    )
    .join('\n');
  return [
    `/* ${commentText(opts.brandName)} design tokens. Generated from the brand folder by Style Dictionary; do not edit. */`,
    lightCss.trim(),
    '',
    '/* Dark mode: follows the system unless the page sets data-theme. */',
    `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${indent(darkDecl, 4)}\n  }\n}`,
    `[data-theme="dark"] {\n${indent(darkDecl, 2)}\n}`,
    '',
    '/* Live funnel themes: set data-funnel on any element to use --theme-color, --theme-color2, --theme-on-color. */',
    funnels,
    '',
  ].join('\n');
}

export type { FlatToken };
