/**
 * GET /api/brand/tokens?theme=<key>: every token format with one funnel's accents applied. A
 * funnel's `color` becomes `colors.brand.primary` and its `color2` `colors.brand.accent` (the mog
 * funnel's pair is exactly the brand's own), in light and dark alike: a funnel's colours are its
 * identity, as `--theme-color` in tokens.css does not change with the mode. Aliases of the two
 * tokens follow them; nothing else changes.
 *
 * Built lazily: the first request for a theme runs one Style Dictionary build of every format
 * (about half a second cold; the disk cache keeps its texts across restarts), one theme at a time
 * so concurrent first requests cannot pile builds onto the event loop, and compresses off the
 * loop (zlib's thread pool). The responses are kept for the life of the catalog: ten themes of
 * nine formats at most, so the cache is bounded by the keys themselves.
 */
import { createHash } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { precompute, type Precomputed } from '../core/precomputed.js';
import type { DiskCache } from './disk-cache.js';
import type { ThemeKey } from './schema.js';
import { cachedTokenFormats, FORMAT_FILES, TOKEN_FORMATS, type TokenFormat } from './token-formats.js';
import { cachedTokensCss, type FunnelCss } from './tokens-css.js';

/** Which token each of a theme's colours overrides. */
export const THEME_TOKEN_PATHS = { color: 'colors.brand.primary', color2: 'colors.brand.accent' } as const;
const OVERRIDDEN: readonly string[] = Object.values(THEME_TOKEN_PATHS);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A #rrggbb colour as a DTCG 2025.10 sRGB colour, written the way the brand folder writes them. */
export function srgbColor(hex: string): { colorSpace: 'srgb'; components: number[]; hex: string } {
  const h = hex.toLowerCase();
  const components = [1, 3, 5].map(
    (i) => Math.round((parseInt(h.slice(i, i + 2), 16) / 255) * 10000) / 10000,
  );
  return { colorSpace: 'srgb', components, hex: h };
}

/** A copy of a DTCG tree with the token at each dotted path rewritten by its function. */
function withTokens(tree: unknown, edits: Record<string, (token: Obj) => Obj>): unknown {
  const walk = (node: unknown, at: string[]): unknown => {
    if (!isObj(node)) return node;
    const edit = Object.hasOwn(edits, at.join('.')) ? edits[at.join('.')] : undefined;
    if ('$value' in node && edit) return edit(node);
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => [k, k.startsWith('$') ? v : walk(v, [...at, k])]),
    );
  };
  return walk(tree, []);
}

/** A copy of a DTCG tree without the tokens at the given paths (groups left empty go too). */
function withoutPaths(tree: unknown, paths: readonly string[]): unknown {
  const walk = (node: unknown, at: string[]): unknown => {
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('$')) {
        out[k] = v;
        continue;
      }
      const p = [...at, k];
      if (paths.includes(p.join('.'))) continue;
      const kept = walk(v, p);
      if (isObj(v) && !('$value' in v) && isObj(kept) && !Object.keys(kept).some((x) => !x.startsWith('$')))
        continue;
      out[k] = kept;
    }
    return out;
  };
  return walk(tree, []);
}

export interface ThemeColors {
  key: string;
  name: string;
  color: string;
  color2: string;
}

/** The base and dark trees with a theme's colours on the accent tokens, in both modes. */
export function themedSource(
  base: unknown,
  dark: unknown,
  theme: ThemeColors,
): { base: unknown; dark: unknown } {
  // The role stays (what the token is for); the colour and whose it is change.
  const set = (hex: string, which: string) => (token: Obj) => ({
    ...token,
    $value: srgbColor(hex),
    $description: `${theme.name} theme's ${which}${typeof token['$description'] === 'string' ? `, in place of ${token['$description']}` : '.'}`,
  });
  return {
    base: withTokens(base, {
      [THEME_TOKEN_PATHS.color]: set(theme.color, 'color'),
      [THEME_TOKEN_PATHS.color2]: set(theme.color2, 'color2'),
    }),
    dark: withoutPaths(dark, OVERRIDDEN),
  };
}

/** The served DTCG document (dark overrides under $extensions) with a theme applied and named. */
export function themedDocument(doc: Obj, theme: ThemeColors): Obj {
  const ext = isObj(doc['$extensions']) ? doc['$extensions'] : {};
  const modes = isObj(ext['org.fleetgate.modes']) ? ext['org.fleetgate.modes'] : {};
  const { base } = themedSource(doc, undefined, theme);
  return {
    ...(base as Obj),
    $extensions: {
      ...ext,
      'org.fleetgate.modes': { ...modes, dark: withoutPaths(modes['dark'], OVERRIDDEN) },
      'org.fleetgate.theme': {
        key: theme.key,
        name: theme.name,
        color: theme.color.toLowerCase(),
        color2: theme.color2.toLowerCase(),
        overrides: { ...THEME_TOKEN_PATHS },
      },
    },
  };
}

export interface ThemedTokensInput {
  /** The DTCG document GET /api/brand/tokens serves. */
  document: Obj;
  base: unknown;
  dark: unknown;
  darkPaths: string[];
  brandName: string;
  baseUrl: string;
  /** The [data-funnel] blocks tokens.css ends with (the same in every theme's CSS). */
  funnels: FunnelCss[];
  themes: readonly ThemeColors[];
  cache: DiskCache;
  cacheControl: string;
  /** Headers every response carries (the Brand-Version, like every brand response). */
  headers?: Record<string, string>;
}

/** A theme's responses for every format, built on its first request. */
export type ThemedTokenFormats = (theme: ThemeKey) => Promise<ReadonlyMap<TokenFormat, Precomputed>>;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** precompute(), with its compression done in zlib's thread pool (or read from the disk cache). */
async function precomputeOffLoop(
  text: string,
  contentType: string,
  opts: { cache: DiskCache; cacheControl: string; headers?: Record<string, string> },
): Promise<Precomputed> {
  const body = Buffer.from(text, 'utf8');
  const sha = createHash('sha256').update(body).digest('hex');
  const made = new Map<string, Buffer>();
  const ensure = async (key: string, run: () => Promise<Buffer>) => {
    let value = opts.cache.getSync(key);
    if (!value) {
      value = await run();
      opts.cache.setSync(key, value);
    }
    made.set(key, value);
  };
  // The same keys precompute() uses, so it finds them here instead of compressing on the loop.
  await ensure(`${sha}.gz9`, () => gzipAsync(body, { level: 9 }));
  await ensure(`${sha}.br11`, () =>
    brotliAsync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  return precompute(body, {
    contentType,
    cacheControl: opts.cacheControl,
    compressed: { memoSync: (key, run) => made.get(key) ?? run() },
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
}

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

async function buildTheme(input: ThemedTokensInput, theme: ThemeColors) {
  const { base, dark } = themedSource(input.base, input.dark, theme);
  const darkPaths = input.darkPaths.filter((p) => !OVERRIDDEN.includes(p));
  const brandName = `${input.brandName}, ${theme.name} theme`;
  // The same cache keys as the catalog's own builds: a theme's texts are computed once per brand.
  const cssInput = { base, dark, darkPaths, brandName, funnels: input.funnels };
  const css = await cachedTokensCss(input.cache, cssInput);
  await setImmediate();
  const formatInput = { base, dark, darkPaths, brandName };
  const built = await cachedTokenFormats(input.cache, formatInput);
  const out = new Map<TokenFormat, Precomputed>();
  const opts = { cache: input.cache, cacheControl: input.cacheControl, headers: input.headers ?? {} };
  const url = (f: TokenFormat) => `${input.baseUrl}/api/brand/tokens?format=${f}&theme=${theme.key}`;
  for (const f of TOKEN_FORMATS) {
    if (f === 'json') {
      out.set(
        f,
        await precomputeOffLoop(
          json(themedDocument(input.document, theme)),
          'application/json; charset=utf-8',
          {
            ...opts,
            headers: { ...opts.headers, link: `<${url('css')}>; rel="alternate"; type="text/css"` },
          },
        ),
      );
    } else {
      out.set(
        f,
        await precomputeOffLoop(f === 'css' ? css : built.formats[f], FORMAT_FILES[f].contentType, opts),
      );
    }
  }
  return out;
}

export function themedTokenFormats(input: ThemedTokensInput): ThemedTokenFormats {
  const built = new Map<ThemeKey, Promise<ReadonlyMap<TokenFormat, Precomputed>>>();
  let queue: Promise<unknown> = Promise.resolve();
  return (key) => {
    let p = built.get(key);
    if (p) return p;
    const theme = input.themes.find((t) => t.key === key);
    if (!theme) return Promise.reject(new Error(`no funnel theme ${key}`));
    p = queue.then(() => buildTheme(input, theme));
    // A failed build is not kept: the next request tries again.
    p.catch(() => built.delete(key));
    queue = p.catch(() => undefined);
    built.set(key, p);
    return p;
  };
}
