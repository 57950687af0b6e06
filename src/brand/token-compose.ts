/**
 * The `compose` format: one Kotlin file for Jetpack Compose, `object BrandTokens`, every token a
 * typed val in Compose's own types: Color, Dp, text sizes and letter spacing in sp and line
 * heights in em (TextUnit), FontWeight, TextStyle, Brush, CubicBezierEasing; durations in
 * milliseconds (Int, as Compose's animation specs take them), and small data classes for a shadow
 * layer and a transition. Dark mode sits beside the light set: `BrandTokens.Dark` holds every
 * token whose value differs in dark mode under the same name (ready for darkColorScheme(…)), and
 * `BrandTokens.Scheme.of(isSystemInDarkTheme())` picks one set.
 */
import { commentText } from './comment-text.js';
import {
  argbHex,
  familyParts,
  notCarried,
  rgba,
  textRoles,
  type TextRole,
  NATIVE_TYPES,
} from './token-native.js';
import { isObj, millis, num, px, weightNumber, type RenderInput, type Tok } from './token-list.js';

const str = (s: string) =>
  `"${s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\$/g, '\\$')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')}"`;

/** A number with a unit extension; a negative one in parentheses (`-0.32.sp` is -(0.32.sp)). */
const unit = (n: number, u: string) => (n < 0 ? `(${num(n)}).${u}` : `${num(n)}.${u}`);
const float = (n: number) => `${num(n)}f`;

const color = (v: unknown) => `Color(0x${argbHex(rgba(v))})`;
const weight = (v: unknown) => `FontWeight(${Math.round(weightNumber(v))})`;
const easing = (v: unknown) =>
  `CubicBezierEasing(${(Array.isArray(v) ? v : [0, 0, 1, 1]).map((n) => float(Number(n))).join(', ')})`;

const GENERIC: Record<string, string> = {
  serif: 'FontFamily.Serif',
  'sans-serif': 'FontFamily.SansSerif',
  monospace: 'FontFamily.Monospace',
  cursive: 'FontFamily.Cursive',
};

function typography(v: unknown): string {
  if (!isObj(v)) return 'TextStyle()';
  const { generic } = familyParts(v['fontFamily']);
  const size = px(v['fontSize']);
  return `TextStyle(fontFamily = ${GENERIC[generic ?? ''] ?? 'FontFamily.Default'}, fontSize = ${unit(size, 'sp')}, fontWeight = ${weight(v['fontWeight'])}, lineHeight = ${unit(Number(v['lineHeight']), 'em')}, letterSpacing = ${unit(px(v['letterSpacing']), 'sp')})`;
}

function shadowLayers(v: unknown): string {
  const layers = (Array.isArray(v) ? v : [v])
    .filter(isObj)
    .map(
      (l) =>
        `ShadowLayer(color = ${color(l['color'])}, offsetX = ${unit(px(l['offsetX']), 'dp')}, offsetY = ${unit(px(l['offsetY']), 'dp')}, blur = ${unit(px(l['blur']), 'dp')}, spread = ${unit(px(l['spread']), 'dp')}${l['inset'] === true ? ', inset = true' : ''})`,
    );
  return `listOf(${layers.join(', ')})`;
}

function gradient(v: unknown): string {
  const stops = (Array.isArray(v) ? v : [])
    .filter(isObj)
    .map((s) => `${float(Number(s['position']))} to ${color(s['color'])}`);
  // From the top start corner to the bottom end one, as the CSS output's 135deg.
  return `Brush.linearGradient(${stops.join(', ')})`;
}

/** A token's Kotlin type and value expression; text sizes, letter spacing and line heights by role. */
function declaration(t: Tok, role: TextRole | undefined): [type: string, value: string] {
  const v = t.value;
  switch (t.type) {
    case 'color':
      return ['Color', color(v)];
    case 'dimension':
      return role ? ['TextUnit', unit(px(v), 'sp')] : ['Dp', unit(px(v), 'dp')];
    case 'number':
      return role === 'lineHeight' ? ['TextUnit', unit(Number(v), 'em')] : ['Float', float(Number(v))];
    case 'fontWeight':
      return ['FontWeight', weight(v)];
    case 'duration':
      return ['Int', String(Math.round(millis(v)))];
    case 'fontFamily':
      return ['List<String>', `listOf(${familyParts(v).families.map(str).join(', ')})`];
    case 'cubicBezier':
      return ['CubicBezierEasing', easing(v)];
    case 'transition': {
      const o = isObj(v) ? v : {};
      return [
        'Transition',
        `Transition(durationMillis = ${Math.round(millis(o['duration']))}, delayMillis = ${Math.round(millis(o['delay']))}, easing = ${easing(o['timingFunction'])})`,
      ];
    }
    case 'shadow':
      return ['List<ShadowLayer>', shadowLayers(v)];
    case 'gradient':
      return ['Brush', gradient(v)];
    case 'typography':
      return ['TextStyle', typography(v)];
    default:
      throw new Error(`no Compose type for ${t.type}`);
  }
}

const LEFT_OUT = {
  strokeStyle: 'Compose strokes take a PathEffect built with the drawing, not a value of its own.',
  border: 'Compose borders are BorderStroke(width, brush) on a shape, built where they are drawn.',
};

export function renderCompose(input: RenderInput): string {
  const roles = textRoles(input.light);
  const light = input.light.filter((t) => NATIVE_TYPES.has(t.type));
  const dark = input.dark.filter((t) => NATIVE_TYPES.has(t.type));
  const vals = (tokens: Tok[], indent: string) =>
    tokens.map((t) => {
      const [type, value] = declaration(t, roles.get(t.key));
      const doc = t.description ? `${indent}/** ${t.description} */\n` : '';
      return `${doc}${indent}val ${t.name}: ${type} = ${value}`;
    });
  const fields = dark.map((t) => `    val ${t.name}: ${declaration(t, roles.get(t.key))[0]},`);
  const args = (from: string) => dark.map((t) => `${t.name} = ${from}${t.name}`).join(', ');
  return [
    `// ${input.note}`,
    '// Jetpack Compose: sizes in dp, text sizes and letter spacing in sp, line heights in em (16px to the rem).',
    ...notCarried(input.light, LEFT_OUT).map((l) => `// ${commentText(l)}`),
    'package org.fleetgate.brand',
    '',
    'import androidx.compose.animation.core.CubicBezierEasing',
    'import androidx.compose.ui.graphics.Brush',
    'import androidx.compose.ui.graphics.Color',
    'import androidx.compose.ui.text.TextStyle',
    'import androidx.compose.ui.text.font.FontFamily',
    'import androidx.compose.ui.text.font.FontWeight',
    'import androidx.compose.ui.unit.Dp',
    'import androidx.compose.ui.unit.TextUnit',
    'import androidx.compose.ui.unit.dp',
    'import androidx.compose.ui.unit.em',
    'import androidx.compose.ui.unit.sp',
    '',
    'object BrandTokens {',
    ...vals(light, '  '),
    '',
    '  /** Dark mode: every token whose value differs there, under the same name (for darkColorScheme). */',
    '  object Dark {',
    ...vals(dark, '    '),
    '  }',
    '',
    '  /** The tokens that change with the colour scheme, for one scheme: Scheme.of(isSystemInDarkTheme()). */',
    '  class Scheme(',
    ...fields,
    '  ) {',
    '    companion object {',
    `      val light: Scheme = Scheme(${args('BrandTokens.')})`,
    `      val dark: Scheme = Scheme(${args('BrandTokens.Dark.')})`,
    '      fun of(darkTheme: Boolean): Scheme = if (darkTheme) dark else light',
    '    }',
    '  }',
    '',
    '  /** One layer of a shadow token (Modifier.dropShadow takes radius = blur, spread, color, offset). */',
    '  data class ShadowLayer(',
    '    val color: Color,',
    '    val offsetX: Dp,',
    '    val offsetY: Dp,',
    '    val blur: Dp,',
    '    val spread: Dp,',
    '    val inset: Boolean = false,',
    '  )',
    '',
    '  /** A transition token: tween(durationMillis, delayMillis, easing) makes its animation spec. */',
    '  data class Transition(val durationMillis: Int, val delayMillis: Int, val easing: CubicBezierEasing)',
    '}',
    '',
  ].join('\n');
}
