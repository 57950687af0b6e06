/**
 * DTCG 2025.10 token values as CSS text: colour objects, {value, unit} dimensions and durations,
 * cubic Béziers, font stacks, shadows, gradients, typography and transitions. Style Dictionary 4's
 * stock transforms do not read these object values (they print `[object Object]`), so every CSS-like
 * output goes through here. Dependency-free on purpose: it is also bundled into the Style Dictionary
 * module the service publishes for consumers (sd-module.ts).
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const fmt = (n: number) => String(Math.round(n * 10000) / 10000);

/**
 * How an alias inside a value is written (`var(--x)`, `$x`), given the dotted path it names.
 * Without one, values must come with their aliases already resolved.
 */
export type RefName = (path: string) => string;

/** The dotted path of a `{a.b}` alias, or undefined for any other value. */
export const aliasPath = (v: unknown): string | undefined =>
  typeof v === 'string' ? /^\{([^{}]+)\}$/.exec(v)?.[1] : undefined;

export function cssColor(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!isObj(v)) return String(v);
  const alpha = typeof v['alpha'] === 'number' ? v['alpha'] : 1;
  const hex = typeof v['hex'] === 'string' ? v['hex'].toLowerCase() : undefined;
  if (hex && alpha === 1) return hex;
  const comps = Array.isArray(v['components'])
    ? v['components'].map((c) => (typeof c === 'number' ? c : 'none'))
    : [];
  const space = String(v['colorSpace']);
  const a = alpha === 1 ? '' : ` / ${fmt(alpha)}`;
  if (space === 'srgb') {
    const [r, g, b] = comps.map((c) => (typeof c === 'number' ? String(Math.round(c * 255)) : c));
    return `rgb(${r} ${g} ${b}${a})`;
  }
  if (['hsl', 'hwb', 'lab', 'lch', 'oklab', 'oklch'].includes(space))
    return `${space}(${comps.join(' ')}${a})`;
  return `color(${space} ${comps.map((c) => (typeof c === 'number' ? fmt(c) : c)).join(' ')}${a})`;
}

/** A family name as CSS: bare when it is one plain word, else a quoted string, escaped. */
const familyName = (f: string) =>
  /^[a-z-]+$/i.test(f) ? f : `'${f.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\a ')}'`;

/** Each part of a composite value: an alias becomes its reference when there is a ref. */
function part(v: unknown, ref: RefName | undefined, render: (v: unknown) => string): string {
  const alias = aliasPath(v);
  return alias !== undefined && ref ? ref(alias) : render(v);
}

const unitValue = (v: unknown): string =>
  isObj(v) && typeof v['value'] === 'number' ? `${fmt(v['value'])}${String(v['unit'])}` : String(v);
const bezier = (v: unknown): string =>
  Array.isArray(v) ? `cubic-bezier(${v.map(Number).map(fmt).join(', ')})` : String(v);
const family = (v: unknown): string =>
  Array.isArray(v) ? v.map((f) => familyName(String(f))).join(', ') : familyName(String(v));

function shadow(v: unknown, ref?: RefName): string {
  const layers = Array.isArray(v) ? v : [v];
  return layers
    .map((l) => {
      if (!isObj(l)) return String(l);
      const parts = [l['offsetX'], l['offsetY'], l['blur'], l['spread']].map((x) => part(x, ref, unitValue));
      return `${l['inset'] === true ? 'inset ' : ''}${parts.join(' ')} ${part(l['color'], ref, cssColor)}`;
    })
    .join(', ');
}

function gradient(v: unknown, ref?: RefName): string {
  if (!Array.isArray(v)) return String(v);
  const stops = v.map((s) =>
    isObj(s)
      ? `${part(s['color'], ref, cssColor)} ${part(s['position'], ref, (p) => `${fmt(Number(p) * 100)}%`)}`
      : String(s),
  );
  return `linear-gradient(135deg, ${stops.join(', ')})`;
}

/** The CSS `font` shorthand: it has no letter spacing (formats that can carry it do so beside it). */
function typography(v: unknown, ref?: RefName): string {
  if (!isObj(v)) return String(v);
  const p = (k: string, r: (x: unknown) => string) => part(v[k], ref, r);
  return `${p('fontWeight', String)} ${p('fontSize', unitValue)}/${p('lineHeight', String)} ${p('fontFamily', family)}`;
}

function transition(v: unknown, ref?: RefName): string {
  if (!isObj(v)) return String(v);
  const p = (k: string, r: (x: unknown) => string) => part(v[k], ref, r);
  return `${p('duration', unitValue)} ${p('timingFunction', bezier)} ${p('delay', unitValue)}`;
}

/** A token's value as CSS; with `ref`, its aliases (whole or inside a composite) as references. */
export function cssValue(type: string | undefined, value: unknown, ref?: RefName): string {
  const alias = aliasPath(value);
  if (alias !== undefined && ref) return ref(alias);
  switch (type ?? '') {
    case 'color':
      return cssColor(value);
    case 'dimension':
    case 'duration':
      return unitValue(value);
    case 'cubicBezier':
      return bezier(value);
    case 'fontFamily':
      return family(value);
    case 'shadow':
      return shadow(value, ref);
    case 'gradient':
      return gradient(value, ref);
    case 'typography':
      return typography(value, ref);
    case 'transition':
      return transition(value, ref);
    default:
      return String(value);
  }
}

/** The sub-values of a typography token as CSS properties, letter spacing included. */
export const TYPOGRAPHY_PROPERTIES = [
  ['fontFamily', 'font-family', 'fontFamily'],
  ['fontSize', 'font-size', 'dimension'],
  ['fontWeight', 'font-weight', 'fontWeight'],
  ['lineHeight', 'line-height', 'number'],
  ['letterSpacing', 'letter-spacing', 'dimension'],
] as const;
