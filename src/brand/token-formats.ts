/**
 * The design tokens for every platform from the one DTCG source (TOKEN_FORMATS lists them), each
 * built by a Style Dictionary format. Style Dictionary 4's stock transforms do not read DTCG
 * 2025.10 object values (and 5 needs Node 22), so the value transforms registered here turn them
 * into CSS for the web formats and, for the native ones, into the hex and rem strings that the
 * stock native transforms read.
 */
import { setImmediate } from 'node:timers/promises';
import type StyleDictionaryClass from 'style-dictionary';
import type { Config, TransformedToken } from 'style-dictionary/types';
import { buildId, cacheKey, type DiskCache } from './disk-cache.js';
import { cssValue, declarations, deepMerge } from './tokens-css.js';

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

/** Identifies this build, so cached outputs are reused only when the same build would make them. */
export const TOKEN_FORMATS_BUILD = buildId(import.meta.url, 'style-dictionary');

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (t: TransformedToken) => String(t.$type ?? t.type ?? '');
const valueOf = (t: TransformedToken): unknown => t.$value ?? t.value;

const CSS = 'fleetgate/dtcg-css';
const JS = 'fleetgate/dtcg-js';
const NATIVE = 'fleetgate/dtcg-native';
const TAILWIND_NAME = 'fleetgate/name-tailwind';
const TS_FORMAT = 'fleetgate/typescript';
const SECONDS = 'fleetgate/duration-seconds';
const MILLIS = 'fleetgate/duration-millis';
const COMPOSE_WEIGHT = 'fleetgate/font-weight-compose';

const hex2 = (n: number) =>
  Math.round(Math.min(1, Math.max(0, n)) * 255)
    .toString(16)
    .padStart(2, '0');

/** A DTCG colour as #rrggbb or #rrggbbaa, what the stock native colour transforms read. */
function hexColor(v: unknown): string {
  if (!isObj(v)) return String(v);
  const alpha = typeof v['alpha'] === 'number' ? v['alpha'] : 1;
  let hex = typeof v['hex'] === 'string' ? v['hex'].toLowerCase() : undefined;
  const comps = Array.isArray(v['components']) ? v['components'] : [];
  if (!hex && v['colorSpace'] === 'srgb')
    hex = `#${comps.map((c) => hex2(typeof c === 'number' ? c : 0)).join('')}`;
  if (!hex) return cssValue('color', v); // other spaces: no native transform reads them either way
  return alpha === 1 ? hex : `${hex}${hex2(alpha)}`;
}

/** A DTCG dimension in rem (16px to 1rem), what the stock native size transforms scale from. */
function remDimension(v: unknown): string {
  if (!isObj(v) || typeof v['value'] !== 'number') return String(v);
  return String(v['unit'] === 'px' ? v['value'] / 16 : v['value']);
}

const millis = (v: unknown): number =>
  isObj(v) && typeof v['value'] === 'number' ? v['value'] * (v['unit'] === 's' ? 1000 : 1) : Number(v);

/** Types the native platforms carry: the composite CSS ones (shadow, gradient…) have no native value. */
const NATIVE_TYPES = new Set(['color', 'dimension', 'duration', 'number', 'fontWeight']);
const isNative = (t: TransformedToken) => NATIVE_TYPES.has(typeOf(t));

/** Tailwind v4 theme namespaces for our groups, so the tokens become utilities (bg-*, text-*…). */
const TAILWIND_NAMESPACES: [prefix: string, namespace: string][] = [
  ['colors', 'color'],
  ['type.family', 'font'],
  ['type.weight', 'font-weight'],
  ['type.size', 'text'],
  ['type.line-height', 'leading'],
  ['type.letter-spacing', 'tracking'],
  ['type.style', 'typography'],
  ['spacing', 'spacing'],
  ['radius', 'radius'],
  ['shadows', 'shadow'],
  ['motion.duration', 'duration'],
  ['motion.easing', 'ease'],
  ['motion.transition', 'transition'],
  ['gradients', 'gradient'],
  ['breakpoints', 'breakpoint'],
];

function tailwindName(path: string[]): string {
  const dotted = path.join('.');
  const hit = TAILWIND_NAMESPACES.find(([p]) => dotted === p || dotted.startsWith(`${p}.`));
  const rest = hit ? path.slice(hit[0].split('.').length) : path;
  return [hit?.[1], ...rest]
    .filter(Boolean)
    .join('-')
    .replace(/[^a-zA-Z0-9-]/g, '-')
    .toLowerCase();
}

function hooks(): NonNullable<Config['hooks']> {
  return {
    transforms: {
      [CSS]: {
        type: 'value',
        transitive: true,
        filter: () => true,
        transform: (t: TransformedToken) => cssValue(typeOf(t), valueOf(t)),
      },
      // Numbers stay numbers in code (a weight of 700, a line height of 1.5); the rest is CSS text.
      [JS]: {
        type: 'value',
        transitive: true,
        filter: () => true,
        transform: (t: TransformedToken) => {
          const v = valueOf(t);
          return typeof v === 'number' ? v : cssValue(typeOf(t), v);
        },
      },
      [NATIVE]: {
        type: 'value',
        filter: isNative,
        transform: (t: TransformedToken) => {
          const v = valueOf(t);
          if (typeOf(t) === 'color') return hexColor(v);
          if (typeOf(t) === 'dimension') return remDimension(v);
          return v;
        },
      },
      [SECONDS]: {
        type: 'value',
        filter: (t: TransformedToken) => typeOf(t) === 'duration',
        transform: (t: TransformedToken) => `TimeInterval(${String(millis(valueOf(t)) / 1000)})`,
      },
      [MILLIS]: {
        type: 'value',
        filter: (t: TransformedToken) => typeOf(t) === 'duration',
        transform: (t: TransformedToken) => String(Math.round(millis(valueOf(t)))),
      },
      [COMPOSE_WEIGHT]: {
        type: 'value',
        filter: (t: TransformedToken) => typeOf(t) === 'fontWeight' && typeof valueOf(t) === 'number',
        transform: (t: TransformedToken) => `FontWeight(${String(valueOf(t))})`,
      },
      [TAILWIND_NAME]: {
        type: 'name',
        transform: (t: TransformedToken) => tailwindName(t.path),
      },
    },
    formats: {
      // A typed module: `export const` of a string keeps its literal type, and the `tokens`
      // object `as const` gives every name and value to code that wants them all.
      [TS_FORMAT]: ({ dictionary }) => {
        const lines = dictionary.allTokens.map((t) => {
          const doc = t.$description ?? t.comment;
          const comment = typeof doc === 'string' ? `/** ${doc.replace(/\*\//g, '* /')} */\n` : '';
          return `${comment}export const ${t.name} = ${JSON.stringify(valueOf(t))};`;
        });
        const names = dictionary.allTokens.map((t) => `  ${t.name},`);
        return [
          ...lines,
          '',
          '/** Every token by name. */',
          `export const tokens = {\n${names.join('\n')}\n} as const;`,
          'export type TokenName = keyof typeof tokens;',
          '',
        ].join('\n');
      },
    },
  };
}

interface FormatSpec {
  transforms: string[];
  format: string;
  filter?: (t: TransformedToken) => boolean;
  options?: Record<string, unknown>;
}

const SPECS: Record<BuiltFormat, FormatSpec> = {
  scss: {
    transforms: ['name/kebab', CSS],
    format: 'scss/variables',
    // A typography shorthand written with variables would make Sass divide size by line height.
    options: { outputReferences: (t: TransformedToken) => typeOf(t) !== 'typography' },
  },
  tailwind: {
    transforms: [TAILWIND_NAME, CSS],
    format: 'css/variables',
    options: { selector: '@theme', outputReferences: true },
  },
  js: { transforms: ['name/camel', JS], format: 'javascript/es6' },
  ts: { transforms: ['name/camel', JS], format: TS_FORMAT },
  swift: {
    transforms: ['name/camel', NATIVE, 'color/ColorSwiftUI', 'size/swift/remToCGFloat', SECONDS],
    format: 'ios-swift/any.swift',
    filter: isNative,
    options: { import: ['SwiftUI'], objectType: 'enum', accessControl: 'public', className: 'BrandTokens' },
  },
  compose: {
    transforms: ['name/camel', NATIVE, 'color/composeColor', 'size/compose/remToDp', MILLIS, COMPOSE_WEIGHT],
    format: 'compose/object',
    filter: isNative,
    options: {
      className: 'BrandTokens',
      packageName: 'org.fleetgate.brand',
      import: [
        'androidx.compose.ui.graphics.Color',
        'androidx.compose.ui.text.font.FontWeight',
        'androidx.compose.ui.unit.dp',
      ],
    },
  },
  android: {
    transforms: ['name/snake', NATIVE, 'color/hex8android', 'size/remToDp', MILLIS],
    format: 'android/resources',
    filter: (t) => isNative(t) && typeOf(t) !== 'number',
    options: {
      resourceMap: { color: 'color', dimension: 'dimen', duration: 'integer', fontWeight: 'integer' },
    },
  },
};

export interface TokenFormatsInput {
  base: unknown;
  dark: unknown;
  darkPaths: string[];
  brandName: string;
}

/** buildTokenFormats through the disk cache: one input is built once, across restarts too. */
export async function cachedTokenFormats(
  cache: DiskCache,
  input: TokenFormatsInput,
): Promise<Record<BuiltFormat, string>> {
  const key = `${cacheKey(JSON.stringify(input), TOKEN_FORMATS_BUILD)}.formats.json`;
  const bytes = await cache.memo(key, async () =>
    Buffer.from(JSON.stringify(await buildTokenFormats(input))),
  );
  return JSON.parse(bytes.toString('utf8')) as Record<BuiltFormat, string>;
}

/** Builds every format from the base DTCG document (light values, aliases resolved by the tool). */
export async function buildTokenFormats(opts: TokenFormatsInput): Promise<Record<BuiltFormat, string>> {
  // Loaded here, not at import: it is needed only when the outputs are not already cached.
  const { default: StyleDictionary }: { default: typeof StyleDictionaryClass } =
    await import('style-dictionary');
  const note = `${opts.brandName} design tokens. Generated from the brand folder by Style Dictionary; do not edit.`;
  const sd = new StyleDictionary({
    tokens: opts.base as Record<string, never>,
    usesDtcg: true,
    log: { verbosity: 'silent', warnings: 'disabled', errors: { brokenReferences: 'throw' } },
    hooks: hooks(),
    platforms: Object.fromEntries(
      BUILT_FORMATS.map((f) => {
        const spec = SPECS[f];
        return [
          f,
          {
            transforms: spec.transforms,
            files: [
              {
                destination: FORMAT_FILES[f].file,
                format: spec.format,
                ...(spec.filter ? { filter: spec.filter } : {}),
                options: { showFileHeader: false, ...spec.options },
              },
            ],
          },
        ];
      }),
    ),
  });
  const out = {} as Record<BuiltFormat, string>;
  // Style Dictionary's awaits here are all microtasks (no I/O), so one build would hold the event
  // loop for its whole length: one platform at a time, letting the loop run between them (a
  // theme's build runs while the service answers, theme-tokens.ts).
  for (const f of BUILT_FORMATS) {
    await setImmediate();
    const [first] = await sd.formatPlatform(f);
    const text = typeof first?.output === 'string' ? first.output : '';
    out[f] = withHeader(f, text, note);
  }
  await setImmediate();
  out.tailwind += await tailwindDark(StyleDictionary, opts);
  return out;
}

/**
 * Dark mode for the Tailwind theme: @theme holds one value per variable, so the dark values
 * override the same variables in plain CSS after it (the utilities read the variables), exactly
 * as tokens.css does: following the system unless the page sets data-theme.
 */
async function tailwindDark(
  StyleDictionary: typeof StyleDictionaryClass,
  opts: { base: unknown; dark: unknown; darkPaths: string[] },
): Promise<string> {
  const dark = new Set(opts.darkPaths);
  const sd = new StyleDictionary({
    tokens: deepMerge(opts.base, opts.dark) as Record<string, never>,
    usesDtcg: true,
    log: { verbosity: 'silent', warnings: 'disabled', errors: { brokenReferences: 'throw' } },
    hooks: hooks(),
    platforms: {
      dark: {
        transforms: SPECS.tailwind.transforms,
        files: [
          {
            destination: 'dark.css',
            format: 'css/variables',
            filter: (t: TransformedToken) => dark.has(t.path.join('.')),
            options: { selector: ':root', outputReferences: true, showFileHeader: false },
          },
        ],
      },
    },
  });
  const [first] = await sd.formatPlatform('dark');
  const decl = declarations(typeof first?.output === 'string' ? first.output : '');
  if (!decl.trim()) return '';
  const indent = (n: number) =>
    decl
      .split('\n')
      .map((l) => ' '.repeat(n) + l.trim())
      .join('\n');
  return [
    '',
    '/* Dark mode: follows the system unless the page sets data-theme. */',
    `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${indent(4)}\n  }\n}`,
    `[data-theme="dark"] {\n${indent(2)}\n}`,
    '',
  ].join('\n');
}

/** Our one-line provenance note, in each language's comment syntax, ahead of the tool's output. */
function withHeader(f: BuiltFormat, text: string, brandNote: string): string {
  // One line, and nothing that would end the comment early in any of the languages.
  const note = brandNote.replace(/\s+/g, ' ').replace(/\*\//g, '* /').replace(/--/g, '- -');
  if (f === 'android') return text.replace(/^(<\?xml[^>]*\?>\n)/, `$1<!-- ${note} -->\n`);
  if (f !== 'tailwind') return `// ${note}\n${text.trimStart()}`;
  return `/* ${note} */\n${text.trimStart()}`;
}
