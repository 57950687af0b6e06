/**
 * The `swift` format: one SwiftUI file, `enum BrandTokens`, every token as a typed static let in
 * SwiftUI's own types (Color, CGFloat points, Font.Weight, TimeInterval seconds, Animation,
 * LinearGradient) or in small structs where SwiftUI has none (a text style with its Font, a shadow
 * layer, a cubic Bézier). Dark mode sits beside the light set: `BrandTokens.Dark` holds every
 * token whose value differs in dark mode under the same name, and `BrandTokens.Scheme.of(_:)`
 * picks one set for a ColorScheme.
 */
import { commentText } from './comment-text.js';
import { familyParts, notCarried, rgba, NATIVE_TYPES } from './token-native.js';
import { isObj, millis, num, px, weightNumber, type RenderInput, type Tok } from './token-list.js';

const str = (s: string) =>
  `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;

function color(v: unknown): string {
  const c = rgba(v);
  const f = (n: number) => n.toFixed(3);
  return `Color(red: ${f(c.r)}, green: ${f(c.g)}, blue: ${f(c.b)}, opacity: ${num(c.a)})`;
}

/** SwiftUI's named weights, nearest to the number. */
function weight(v: unknown): string {
  const names = ['ultraLight', 'thin', 'light', 'regular', 'medium', 'semibold', 'bold', 'heavy', 'black'];
  const i = Math.min(8, Math.max(0, Math.round(weightNumber(v) / 100) - 1));
  return `.${names[i] ?? 'regular'}`;
}

const seconds = (v: unknown) => num(millis(v) / 1000);
const bezier = (v: unknown) => (Array.isArray(v) ? v.map((n) => num(Number(n))) : ['0', '0', '1', '1']);

function shadowLayers(v: unknown): string {
  const layers = (Array.isArray(v) ? v : [v])
    .filter(isObj)
    .map(
      (l) =>
        `ShadowLayer(color: ${color(l['color'])}, x: ${num(px(l['offsetX']))}, y: ${num(px(l['offsetY']))}, blur: ${num(px(l['blur']))}, spread: ${num(px(l['spread']))}${l['inset'] === true ? ', inset: true' : ''})`,
    );
  return `[${layers.join(', ')}]`;
}

function gradient(v: unknown): string {
  const stops = (Array.isArray(v) ? v : [])
    .filter(isObj)
    .map((s) => `Gradient.Stop(color: ${color(s['color'])}, location: ${num(Number(s['position']))})`);
  // The CSS output's 135deg: from the top leading corner to the bottom trailing one.
  return `LinearGradient(gradient: Gradient(stops: [${stops.join(', ')}]), startPoint: .topLeading, endPoint: .bottomTrailing)`;
}

function typography(v: unknown): string {
  if (!isObj(v)) return 'TextStyle(families: [], size: 16, weight: .regular, lineHeight: 1, tracking: 0)';
  const { families } = familyParts(v['fontFamily']);
  return `TextStyle(families: [${families.map(str).join(', ')}], size: ${num(px(v['fontSize']))}, weight: ${weight(v['fontWeight'])}, lineHeight: ${num(Number(v['lineHeight']))}, tracking: ${num(px(v['letterSpacing']))})`;
}

/** A token's Swift type and value expression. */
function declaration(t: Tok): [type: string, value: string] {
  const v = t.value;
  switch (t.type) {
    case 'color':
      return ['Color', color(v)];
    case 'dimension':
      return ['CGFloat', num(px(v))];
    case 'number':
      return ['CGFloat', num(Number(v))];
    case 'fontWeight':
      return ['Font.Weight', weight(v)];
    case 'duration':
      return ['TimeInterval', seconds(v)];
    case 'fontFamily':
      return ['[String]', `[${familyParts(v).families.map(str).join(', ')}]`];
    case 'cubicBezier': {
      const [x1, y1, x2, y2] = bezier(v);
      return ['CubicBezier', `CubicBezier(x1: ${x1}, y1: ${y1}, x2: ${x2}, y2: ${y2})`];
    }
    case 'transition': {
      const o = isObj(v) ? v : {};
      const [x1, y1, x2, y2] = bezier(o['timingFunction']);
      return [
        'Animation',
        `.timingCurve(${x1}, ${y1}, ${x2}, ${y2}, duration: ${seconds(o['duration'])}).delay(${seconds(o['delay'])})`,
      ];
    }
    case 'shadow':
      return ['[ShadowLayer]', shadowLayers(v)];
    case 'gradient':
      return ['LinearGradient', gradient(v)];
    case 'typography':
      return ['TextStyle', typography(v)];
    default:
      throw new Error(`no Swift type for ${t.type}`);
  }
}

const LEFT_OUT = {
  strokeStyle: 'SwiftUI strokes take a StrokeStyle built with the shape, not a value of its own.',
  border: 'SwiftUI has no border value: a border is an overlay of a stroked shape.',
};

const doc = (t: Tok, indent: string) => (t.description ? `${indent}/// ${t.description}\n` : '');
const lets = (tokens: Tok[], indent: string) =>
  tokens.map((t) => {
    const [type, value] = declaration(t);
    return `${doc(t, indent)}${indent}public static let ${t.name}: ${type} = ${value}`;
  });

const TYPES = `    /// A typography token: SwiftUI's Font for it, and the two values a Font does not hold.
    public struct TextStyle: Sendable {
        /// The font stack; the first is the brand font (bundle it with the app).
        public let families: [String]
        /// Points.
        public let size: CGFloat
        public let weight: Font.Weight
        /// A multiple of the size.
        public let lineHeight: CGFloat
        /// Points, for \`.tracking(_:)\`.
        public let tracking: CGFloat
        public var font: Font { Font.custom(families.first ?? "", size: size).weight(weight) }
        /// For \`.lineSpacing(_:)\`: the points SwiftUI adds between lines for this line height.
        public var lineSpacing: CGFloat { size * (lineHeight - 1) }
    }

    /// One layer of a shadow token, in points. SwiftUI's \`.shadow(color:radius:x:y:)\` takes
    /// \`radius\` (half the CSS blur) and has no spread or inset.
    public struct ShadowLayer: Sendable {
        public let color: Color
        public let x: CGFloat
        public let y: CGFloat
        public let blur: CGFloat
        public let spread: CGFloat
        public var inset: Bool = false
        public var radius: CGFloat { blur / 2 }
    }

    /// A cubic Bézier easing; \`animation(duration:)\` makes it a SwiftUI Animation.
    public struct CubicBezier: Sendable {
        public let x1: Double
        public let y1: Double
        public let x2: Double
        public let y2: Double
        public func animation(duration: TimeInterval) -> Animation {
            .timingCurve(x1, y1, x2, y2, duration: duration)
        }
    }`;

export function renderSwift(input: RenderInput): string {
  const light = input.light.filter((t) => NATIVE_TYPES.has(t.type));
  const dark = input.dark.filter((t) => NATIVE_TYPES.has(t.type));
  const fields = dark.map((t) => `        public let ${t.name}: ${declaration(t)[0]}`);
  const args = (from: string) => dark.map((t) => `${t.name}: ${from}${t.name}`).join(', ');
  return [
    `// ${input.note}`,
    '// SwiftUI: sizes in points (16 to the rem), durations in seconds, colours in sRGB.',
    ...notCarried(input.light, LEFT_OUT).map((l) => `// ${commentText(l)}`),
    '//',
    '// BrandTokens.swift',
    '//',
    '',
    'import SwiftUI',
    '',
    'public enum BrandTokens {',
    ...lets(light, '    '),
    '',
    '    /// Dark mode: every token whose value differs there, under the same name.',
    '    public enum Dark {',
    ...lets(dark, '        '),
    '    }',
    '',
    '    /// The tokens that change with the colour scheme, for one scheme:',
    '    /// `BrandTokens.Scheme.of(colorScheme)` with `@Environment(\\.colorScheme)`.',
    '    public struct Scheme: Sendable {',
    ...fields,
    `        public static let light = Scheme(${args('BrandTokens.')})`,
    `        public static let dark = Scheme(${args('BrandTokens.Dark.')})`,
    '        public static func of(_ colorScheme: ColorScheme) -> Scheme {',
    '            colorScheme == .dark ? dark : light',
    '        }',
    '    }',
    '',
    TYPES,
    '}',
    '',
  ].join('\n');
}
