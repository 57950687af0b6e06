/**
 * The web formats besides tokens.css: Sass variables, a Tailwind CSS v4 theme, and ES and
 * TypeScript modules. Each carries every token (typography with all five sub-values, letter
 * spacing included, which the CSS `font` shorthand cannot hold) and dark mode in its own idiom:
 * a Sass map, the same Tailwind variables overridden under prefers-color-scheme/data-theme, and a
 * `dark` object in the modules.
 */
import { cssValue, TYPOGRAPHY_PROPERTIES, type RefName } from './css-values.js';
import { isObj, referencesFirst, type RenderInput, type Tok } from './token-list.js';

const trailing = (t: Tok, style: '//' | '/*') =>
  t.description ? (style === '//' ? ` // ${t.description}` : ` /* ${t.description} */`) : '';

// ---------------------------------------------------------------------------------------------
// Sass

/**
 * One `$variable` per token (the tokens.css names), aliases as Sass variables; each typography
 * token also as one variable per sub-value, and the dark values in the `$tokens-dark` map.
 */
export function renderScss(input: RenderInput): string {
  const names = new Map(input.light.map((t) => [t.key, t.name]));
  const ref: RefName = (p) => `$${names.get(p) ?? p}`;
  const lines: string[] = [];
  for (const t of referencesFirst(input.light)) {
    // A typography shorthand written with variables would make Sass divide size by line height.
    const value = t.type === 'typography' ? cssValue(t.type, t.value) : cssValue(t.type, t.original, ref);
    lines.push(`$${t.name}: ${value};${trailing(t, '//')}`);
    if (t.type === 'typography' && isObj(t.original)) {
      const sub = t.original;
      for (const [key, prop, type] of TYPOGRAPHY_PROPERTIES)
        lines.push(`$${t.name}-${prop}: ${cssValue(type, sub[key], ref)};`);
    }
  }
  const dark = input.dark.map((t) => `  "${t.name}": ${cssValue(t.type, t.value)},`);
  return [
    `// ${input.note}`,
    '',
    ...lines,
    '',
    '// Dark mode: the dark value of every token that differs there, by variable name',
    '// (map.get($tokens-dark, "colors-brand-primary")).',
    dark.length > 0 ? `$tokens-dark: (\n${dark.join('\n')}\n);` : '$tokens-dark: ();',
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Tailwind CSS v4

/** Tailwind v4 theme namespaces for our groups, so the tokens become utilities (bg-*, text-*…). */
const TAILWIND_NAMESPACES: [prefix: string, namespace: string][] = [
  ['colors', 'color'],
  ['type.family', 'font'],
  ['type.weight', 'font-weight'],
  ['type.size', 'text'],
  ['type.line-height', 'leading'],
  ['type.letter-spacing', 'tracking'],
  ['type.style', 'text'],
  ['spacing', 'spacing'],
  ['radius', 'radius'],
  ['shadows', 'shadow'],
  ['motion.duration', 'transition-duration'],
  ['motion.easing', 'ease'],
  ['breakpoints', 'breakpoint'],
];

/** Which Tailwind sub-variable of `--text-*` each typography sub-value is (font family has none). */
const TEXT_SUB: Record<string, string> = {
  lineHeight: '--line-height',
  letterSpacing: '--letter-spacing',
  fontWeight: '--font-weight',
};

const slug = (parts: string[]) =>
  parts
    .join('-')
    .replace(/[^a-zA-Z0-9-]/g, '-')
    .toLowerCase();

/** A token's Tailwind theme variable (without `--`), or undefined when no v4 namespace fits it. */
function themeName(t: Tok): string | undefined {
  const hit = TAILWIND_NAMESPACES.find(([p]) => t.key === p || t.key.startsWith(`${p}.`));
  if (!hit) return undefined;
  // Typography is a text size with its line height, letter spacing and weight: v4's `--text-*`.
  if (t.type === 'typography' && hit[1] !== 'text') return undefined;
  return slug([hit[1], ...t.path.slice(hit[0].split('.').length)]);
}

interface Entry {
  name: string;
  value: string;
  plain: boolean;
  t: Tok;
}

function tailwindEntries(tokens: Tok[], all: Tok[]): Entry[] {
  const theme = new Map(all.map((t) => [t.key, themeName(t)]));
  // Two tokens may not land on one variable (a style called like a size): the later stays plain.
  const taken = new Set<string>();
  for (const t of all) {
    const n = theme.get(t.key);
    if (n === undefined) continue;
    if (taken.has(n)) theme.set(t.key, undefined);
    else taken.add(n);
  }
  const varName = (key: string) => theme.get(key) ?? all.find((t) => t.key === key)?.name ?? slug([key]);
  const ref: RefName = (p) => `var(--${varName(p)})`;
  const out: Entry[] = [];
  for (const t of tokens) {
    const n = theme.get(t.key);
    const value = cssValue(t.type, t.original, ref);
    if (t.type === 'typography' && isObj(t.original)) {
      // The shorthand (family included) as a plain variable under its tokens.css name…
      out.push({ name: t.name, value, plain: true, t });
      if (n === undefined) continue;
      // …and Tailwind's `--text-*` with its sub-variables, for the text-* utility.
      const sub = t.original;
      out.push({ name: n, value: cssValue('dimension', sub['fontSize'], ref), plain: false, t });
      for (const [key, , type] of TYPOGRAPHY_PROPERTIES) {
        const suffix = TEXT_SUB[key];
        if (suffix)
          out.push({ name: `${n}${suffix}`, value: cssValue(type, sub[key], ref), plain: false, t });
      }
      continue;
    }
    out.push(n === undefined ? { name: t.name, value, plain: true, t } : { name: n, value, plain: false, t });
  }
  return out;
}

/** The declarations, each token's description after its first one. */
function declare(entries: Entry[], indent: string, comments: boolean): string {
  const described = new Set<Tok>();
  return entries
    .map((e) => {
      const first = comments && !described.has(e.t);
      described.add(e.t);
      return `${indent}--${e.name}: ${e.value};${first ? trailing(e.t, '/*') : ''}`;
    })
    .join('\n');
}

/**
 * A Tailwind v4 stylesheet: the tokens v4 has a namespace for in `@theme` (so they make
 * utilities), the rest as plain variables on :root under their tokens.css names, and dark mode
 * as overrides of the same variables (the utilities read them), following the system unless the
 * page sets data-theme, as tokens.css does.
 */
export function renderTailwind(input: RenderInput): string {
  const light = tailwindEntries(input.light, input.light);
  const dark = tailwindEntries(input.darkOverrides, input.light);
  const out = [
    `/* ${input.note} */`,
    `@theme {\n${declare(
      light.filter((e) => !e.plain),
      '  ',
      true,
    )}\n}`,
    '',
    '/* No Tailwind v4 theme namespace fits these: plain variables, under their tokens.css names. */',
    `:root {\n${declare(
      light.filter((e) => e.plain),
      '  ',
      true,
    )}\n}`,
  ];
  if (dark.length > 0)
    out.push(
      '',
      '/* Dark mode: follows the system unless the page sets data-theme. */',
      `@media (prefers-color-scheme: dark) {\n  :root:not([data-theme="light"]) {\n${declare(dark, '    ', false)}\n  }\n}`,
      `[data-theme="dark"] {\n${declare(dark, '  ', false)}\n}`,
    );
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// JavaScript and TypeScript

/** A token's value in code: numbers stay numbers, typography an object of its sub-values, the rest CSS. */
function jsValue(t: Tok): unknown {
  const v = t.value;
  if (typeof v === 'number') return v;
  if (t.type === 'typography' && isObj(v)) {
    return Object.fromEntries(
      TYPOGRAPHY_PROPERTIES.map(([key, , type]) => {
        const sub = v[key];
        return [key, typeof sub === 'number' ? sub : cssValue(type, sub)];
      }),
    );
  }
  return cssValue(t.type, v);
}

/** JSON is JavaScript (ES2019 and later read U+2028 in strings too); keys stay quoted-free where they can. */
const js = (v: unknown): string => JSON.stringify(v);

/** The literal type of a value, readonly all the way down. */
function typeOf(v: unknown, indent = ''): string {
  if (isObj(v)) {
    const inner = Object.entries(v).map(([k, x]) => `${indent}  readonly ${k}: ${typeOf(x, `${indent}  `)};`);
    return `{\n${inner.join('\n')}\n${indent}}`;
  }
  return js(v);
}

const RESERVED = new Set(['dark', 'tokens']);

function modules(input: RenderInput) {
  for (const t of input.light)
    if (RESERVED.has(t.name))
      throw new Error(`token ${t.key} is named "${t.name}", which the module uses itself`);
  const doc = (t: Tok) => (t.description ? `/** ${t.description} */\n` : '');
  const dark = input.dark.map((t) => [t.name, jsValue(t)] as const);
  return { doc, dark };
}

/** An ES module: one `export const` per token, and `dark` with the dark-mode values by the same names. */
export function renderJs(input: RenderInput): string {
  const { doc, dark } = modules(input);
  return [
    `// ${input.note}`,
    ...input.light.map((t) => `${doc(t)}export const ${t.name} = ${js(jsValue(t))};`),
    '',
    '/** Dark mode: every token whose value differs there, under the same name. */',
    `export const dark = {\n${dark.map(([n, v]) => `  ${n}: ${js(v)},`).join('\n')}\n};`,
    '',
  ].join('\n');
}

/**
 * The same module typed: every declaration has its literal type written out, so it compiles
 * under --isolatedDeclarations and a consumer gets each value as its type.
 */
export function renderTs(input: RenderInput): string {
  const { doc, dark } = modules(input);
  const consts = input.light.map((t) => {
    const v = jsValue(t);
    return isObj(v)
      ? `${doc(t)}export const ${t.name}: ${typeOf(v)} = ${js(v)};`
      : `${doc(t)}export const ${t.name} = ${js(v)};`;
  });
  return [
    `// ${input.note}`,
    ...consts,
    '',
    '/** Dark mode: every token whose value differs there, under the same name. */',
    `export const dark: {\n${dark.map(([n, v]) => `  readonly ${n}: ${typeOf(v, '  ')};`).join('\n')}\n} = {\n${dark.map(([n, v]) => `  ${n}: ${js(v)},`).join('\n')}\n};`,
    '',
    '/** Every token by name. */',
    `export const tokens: {\n${input.light.map((t) => `  readonly ${t.name}: typeof ${t.name};`).join('\n')}\n} = {\n${input.light.map((t) => `  ${t.name},`).join('\n')}\n};`,
    'export type TokenName = keyof typeof tokens;',
    '',
  ].join('\n');
}
