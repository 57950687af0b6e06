/**
 * The design tokens for every platform from the one DTCG source (TOKEN_FORMATS lists them). Style
 * Dictionary loads the light tree and the dark one (base merged with the dark overrides), names
 * the tokens for each platform and resolves their aliases; each format's renderer then writes its
 * file with both modes in its platform's idiom (token-web-formats.ts, token-swift.ts,
 * token-compose.ts, token-android.ts). Style Dictionary 4's stock formats do not read DTCG 2025.10
 * object values, nor carry a second mode, nor give native platforms their types and units.
 */
import { setImmediate } from 'node:timers/promises';
import type StyleDictionaryClass from 'style-dictionary';
import { commentText, splitDescriptions } from './comment-text.js';
import { buildIdOf, cacheKey, type DiskCache } from './disk-cache.js';
import { renderAndroid } from './token-android.js';
import { renderCompose } from './token-compose.js';
import { loadColors } from './token-native.js';
import { modes, tokList, type RenderInput, type Tok } from './token-list.js';
import { renderSwift } from './token-swift.js';
import { renderJs, renderScss, renderTailwind, renderTs } from './token-web-formats.js';
import { deepMerge } from './tokens-css.js';

/** Every format GET /api/brand/tokens answers, the default first. */
export const TOKEN_FORMATS = [
  'json',
  'css',
  'scss',
  'tailwind',
  'js',
  'ts',
  'swift',
  'compose',
  'android',
] as const;
export type TokenFormat = (typeof TOKEN_FORMATS)[number];
/** The formats built here (json and css are the catalog's own document and stylesheet). */
export type BuiltFormat = Exclude<TokenFormat, 'json' | 'css'>;
export const BUILT_FORMATS = TOKEN_FORMATS.filter((f): f is BuiltFormat => f !== 'json' && f !== 'css');

export const isTokenFormat = (f: unknown): f is TokenFormat =>
  typeof f === 'string' && (TOKEN_FORMATS as readonly string[]).includes(f);

/** Each format's media type and its file name under /static/fleet/tokens/. */
export const FORMAT_FILES: Record<TokenFormat, { file: string; contentType: string }> = {
  json: { file: 'tokens.json', contentType: 'application/design-tokens+json; charset=utf-8' },
  css: { file: 'tokens.css', contentType: 'text/css; charset=utf-8' },
  scss: { file: 'tokens.scss', contentType: 'text/x-scss; charset=utf-8' },
  tailwind: { file: 'tokens.tailwind.css', contentType: 'text/css; charset=utf-8' },
  js: { file: 'tokens.js', contentType: 'text/javascript; charset=utf-8' },
  ts: { file: 'tokens.ts', contentType: 'text/typescript; charset=utf-8' },
  swift: { file: 'BrandTokens.swift', contentType: 'text/x-swift; charset=utf-8' },
  compose: { file: 'BrandTokens.kt', contentType: 'text/x-kotlin; charset=utf-8' },
  android: { file: 'tokens.xml', contentType: 'application/xml; charset=utf-8' },
};

/** More files under /static/fleet/tokens/ beside the formats' own: Android's dark resources. */
export const ANDROID_NIGHT_FILE = 'android/values-night/tokens.xml';
/** The android format again where res/ would have it, so android/ can be copied into res/ whole. */
export const ANDROID_VALUES_FILE = 'android/values/tokens.xml';
export const EXTRA_FILES: Record<string, { contentType: string }> = {
  [ANDROID_VALUES_FILE]: { contentType: FORMAT_FILES.android.contentType },
  [ANDROID_NIGHT_FILE]: { contentType: FORMAT_FILES.android.contentType },
};

/** Identifies this build, so cached outputs are reused only when the same build would make them. */
export const TOKEN_FORMATS_BUILD = buildIdOf(
  import.meta.url,
  [
    'comment-text',
    'css-values',
    'token-list',
    'token-native',
    'token-web-formats',
    'token-swift',
    'token-compose',
    'token-android',
  ],
  'style-dictionary',
  'colorjs.io',
);

export interface TokenFormatsInput {
  base: unknown;
  dark: unknown;
  darkPaths: string[];
  brandName: string;
}

/** Every built format's text, and the extra files (EXTRA_FILES) by path. */
export interface BuiltTokens {
  formats: Record<BuiltFormat, string>;
  files: Record<string, string>;
}

/** buildTokenFormats through the disk cache: one input is built once, across restarts too. */
export async function cachedTokenFormats(cache: DiskCache, input: TokenFormatsInput): Promise<BuiltTokens> {
  const key = `${cacheKey(JSON.stringify(input), TOKEN_FORMATS_BUILD)}.formats.json`;
  const bytes = await cache.memo(key, async () =>
    Buffer.from(JSON.stringify(await buildTokenFormats(input))),
  );
  return JSON.parse(bytes.toString('utf8')) as BuiltTokens;
}

/** The token names each platform uses (Style Dictionary's name transforms). */
const PLATFORMS = { kebab: 'name/kebab', camel: 'name/camel', snake: 'name/snake' } as const;
type Naming = keyof typeof PLATFORMS;

/** Builds every format from the base DTCG tree and its dark overrides. */
export async function buildTokenFormats(opts: TokenFormatsInput): Promise<BuiltTokens> {
  // Loaded here, not at import: it is needed only when the outputs are not already cached.
  const { default: StyleDictionary }: { default: typeof StyleDictionaryClass } =
    await import('style-dictionary');
  await loadColors();
  const note = commentText(
    `${opts.brandName} design tokens. Generated from the brand folder by Style Dictionary; do not edit.`,
  );
  const darkPaths = new Set(opts.darkPaths);
  // Descriptions never enter Style Dictionary (comment-text.ts): the renderers add them back, safe.
  const light = splitDescriptions(opts.base);
  const merged = splitDescriptions(deepMerge(opts.base, opts.dark));
  const dictionary = (tokens: unknown) =>
    new StyleDictionary({
      tokens: tokens as Record<string, never>,
      usesDtcg: true,
      log: { verbosity: 'silent', warnings: 'disabled', errors: { brokenReferences: 'throw' } },
      platforms: Object.fromEntries(
        Object.entries(PLATFORMS).map(([name, transform]) => [name, { transforms: [transform] }]),
      ),
    });
  const sdLight = dictionary(light.tokens);
  const sdDark = dictionary(merged.tokens);
  const input = {} as Record<Naming, RenderInput>;
  // Style Dictionary's awaits are all microtasks (no I/O), so one build would hold the event loop
  // for its whole length: one platform at a time, letting the loop run between them (a theme's
  // build runs while the service answers, theme-tokens.ts).
  for (const naming of Object.keys(PLATFORMS) as Naming[]) {
    await setImmediate();
    const l: Tok[] = tokList((await sdLight.getPlatformTokens(naming)).allTokens, light.descriptions);
    await setImmediate();
    const d: Tok[] = tokList((await sdDark.getPlatformTokens(naming)).allTokens, merged.descriptions);
    input[naming] = modes(l, d, darkPaths, note);
  }
  const android = renderAndroid(input.snake);
  return {
    formats: {
      scss: renderScss(input.kebab),
      tailwind: renderTailwind(input.kebab),
      js: renderJs(input.camel),
      ts: renderTs(input.camel),
      swift: renderSwift(input.camel),
      compose: renderCompose(input.camel),
      android: android.values,
    },
    files: { [ANDROID_VALUES_FILE]: android.values, [ANDROID_NIGHT_FILE]: android.night },
  };
}
