/**
 * Style Dictionary hooks for the DTCG 2025.10 document GET /api/brand/tokens serves, published as
 * one ES module at /static/fleet/tokens/style-dictionary.js (sd-module-text.ts bundles it) so a
 * consumer builds the tokens with Style Dictionary 4 or 5 the way the service does: the service's
 * own tokens.css uses this very transform.
 *
 * - `fleetgate/dtcg-css` (value transform): DTCG object values (colours, {value, unit}
 *   dimensions and durations, shadows, gradients, typography, transitions) as CSS, where the
 *   stock transforms print `[object Object]`.
 * - `fleetgate/light` and `fleetgate/dark` (preprocessors): the document's dark overrides live
 *   under `$extensions["org.fleetgate.modes"].dark`, which Style Dictionary would read as more
 *   tokens; `light` drops them, `dark` puts them over the base tokens (one build per mode).
 *
 * It has no imports but css-values.ts, so the bundle runs anywhere Style Dictionary does.
 */
import { cssValue } from './css-values.js';

export const DTCG_CSS = 'fleetgate/dtcg-css';
export const LIGHT = 'fleetgate/light';
export const DARK = 'fleetgate/dark';
const MODES = 'org.fleetgate.modes';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of a Style Dictionary token the transform reads. */
interface Token {
  $type?: string;
  type?: string;
  $value?: unknown;
  value?: unknown;
}

function merge(a: unknown, b: unknown): unknown {
  if (!isObj(a) || !isObj(b)) return b;
  const out: Obj = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = k in out ? merge(out[k], v) : v;
  return out;
}

/** The document without its modes, and the modes. */
function split(tokens: unknown): { base: Obj; modes: Obj } {
  const doc = isObj(tokens) ? tokens : {};
  const ext = isObj(doc['$extensions']) ? doc['$extensions'] : {};
  const modes = isObj(ext[MODES]) ? ext[MODES] : {};
  const rest: Obj = { ...ext };
  delete rest[MODES];
  const base: Obj = { ...doc };
  if (Object.keys(rest).length > 0) base['$extensions'] = rest;
  else delete base['$extensions'];
  return { base, modes };
}

export const transforms = {
  [DTCG_CSS]: {
    type: 'value' as const,
    transitive: true,
    filter: (): boolean => true,
    transform: (token: Token): string => cssValue(token.$type ?? token.type, token.$value ?? token.value),
  },
};

export const preprocessors = {
  [LIGHT]: (tokens: Obj): Obj => split(tokens).base,
  [DARK]: (tokens: Obj): Obj => {
    const { base, modes } = split(tokens);
    return merge(base, modes['dark']) as Obj;
  },
};

/** For `new StyleDictionary({ hooks, … })`. */
export const hooks = { transforms, preprocessors };

/** The registration calls of Style Dictionary's class this module uses. */
interface Registry {
  registerTransform(t: { name: string } & (typeof transforms)[typeof DTCG_CSS]): unknown;
  registerPreprocessor(p: { name: string; preprocessor: (tokens: Obj) => Obj }): unknown;
}

/** Registers the transform and both preprocessors on Style Dictionary's class. */
export function register(StyleDictionary: Registry): void {
  for (const [name, t] of Object.entries(transforms)) StyleDictionary.registerTransform({ name, ...t });
  for (const [name, preprocessor] of Object.entries(preprocessors))
    StyleDictionary.registerPreprocessor({ name, preprocessor });
}
