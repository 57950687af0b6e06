/**
 * The `android` format: XML value resources for res/values/ (colors as #aarrggbb, dimens in dp,
 * text sizes and letter spacing in sp, line heights as float dimens, font weights and durations
 * as integers, font stacks as string arrays, typography tokens as text styles with
 * android:letterSpacing in em), and res/values-night/ for dark mode: the same names with the
 * dark values, since Android picks night resources by folder, never within one file.
 */
import { commentText } from './comment-text.js';
import { argbHex, familyParts, notCarried, rgba, textRoles, type TextRole } from './token-native.js';
import { isObj, millis, num, px, weightNumber, type RenderInput, type Tok } from './token-list.js';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A string resource's text: Android's own escapes first (quotes, backslash, a leading @ or ?). */
const androidString = (s: string) =>
  xml(
    s
      .replace(/\\/g, '\\\\')
      .replace(/'/g, "\\'")
      .replace(/"/g, '\\"')
      .replace(/\n/g, '\\n')
      .replace(/^([@?])/, '\\$1'),
  );

const dimen = (n: number, unit: 'dp' | 'sp') => `${num(n)}${unit}`;

function style(t: Tok): string[] {
  const v = isObj(t.value) ? t.value : {};
  const size = px(v['fontSize']);
  const w = Math.round(weightNumber(v['fontWeight']));
  const items: [string, string][] = [
    ['android:fontFamily', familyParts(v['fontFamily']).generic ?? 'sans-serif'],
    ['android:textSize', dimen(size, 'sp')],
    // Before API 28 there is only bold or not; textFontWeight gives the weight itself.
    ['android:textStyle', w >= 600 ? 'bold' : 'normal'],
    ['android:textFontWeight', String(w)],
    ['android:lineHeight', dimen(size * Number(v['lineHeight']), 'sp')],
    // In em: a fraction of the text size.
    ['android:letterSpacing', num(size ? px(v['letterSpacing']) / size : 0)],
  ];
  return [
    `  <style name="${t.name}">`,
    ...items.map(([k, x]) => `    <item name="${k}">${xml(x)}</item>`),
    '  </style>',
  ];
}

/** A token's resource element(s); undefined where Android has no value resource for its type. */
function resource(t: Tok, role: TextRole | undefined): string[] | undefined {
  const v = t.value;
  const n = t.name;
  switch (t.type) {
    case 'color':
      return [`  <color name="${n}">#${argbHex(rgba(v))}</color>`];
    case 'dimension':
      return [`  <dimen name="${n}">${dimen(px(v), role ? 'sp' : 'dp')}</dimen>`];
    case 'number':
      return [`  <item name="${n}" type="dimen" format="float">${num(Number(v))}</item>`];
    case 'fontWeight':
      return [`  <integer name="${n}">${Math.round(weightNumber(v))}</integer>`];
    case 'duration':
      return [`  <integer name="${n}">${Math.round(millis(v))}</integer>`];
    case 'fontFamily':
      return [
        `  <string-array name="${n}">`,
        ...familyParts(v).families.map((f) => `    <item>${androidString(f)}</item>`),
        '  </string-array>',
      ];
    case 'typography':
      return style(t);
    default:
      return undefined;
  }
}

/** What Android's value resources cannot hold, and why. */
const LEFT_OUT = {
  shadow:
    'Android draws view shadows from elevation and its light source, not from offset, blur and spread layers.',
  gradient: 'a gradient is a drawable, its own file under res/drawable/, not a value resource.',
  cubicBezier: 'an easing is a pathInterpolator, its own file under res/interpolator/.',
  transition: 'Android has no resource for a duration, delay and easing together.',
  strokeStyle: 'Android has no value resource for a stroke style.',
  border: 'a border is part of a shape drawable, its own file under res/drawable/.',
};

function file(tokens: Tok[], roles: Map<string, TextRole>, header: string[]): string {
  const body = tokens.flatMap((t) => {
    const r = resource(t, roles.get(t.key));
    if (!r) return [];
    return t.description ? [`  <!-- ${t.description} -->`, ...r] : r;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    ...header.map((l) => `<!-- ${commentText(l)} -->`),
    '<resources>',
    ...body,
    '</resources>',
    '',
  ].join('\n');
}

/** res/values/tokens.xml and res/values-night/tokens.xml. */
export function renderAndroid(input: RenderInput): { values: string; night: string } {
  const roles = textRoles(input.light);
  const units = 'Android resources: sizes in dp, text sizes and letter spacing in sp (16px to the rem).';
  return {
    values: file(input.light, roles, [
      input.note,
      units,
      'Dark mode: values-night/tokens.xml, the same names with their dark values.',
      ...notCarried(input.light, LEFT_OUT),
    ]),
    night: file(input.dark, roles, [
      input.note,
      'Dark mode (res/values-night/): the tokens whose value differs there; the rest are in values/tokens.xml.',
    ]),
  };
}
