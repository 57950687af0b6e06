/**
 * The native formats, read as their consumers read them. SwiftUI and Jetpack Compose: parsed by
 * the tree-sitter Swift and Kotlin grammars (no parse error), every token of the DTCG document
 * declared by name with its platform type and value (colours, dp/sp/em and points, Font.Weight,
 * text styles, shadows, gradients, easings, transitions), and the dark values beside the light
 * ones. Android: XML parsed by a real parser, every resource name and type one Android accepts,
 * units dp/sp, text styles as styles, and the dark values in the values-night/ file.
 */
import { DOMParser, type Element } from '@xmldom/xmldom';
import type { Node } from 'web-tree-sitter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { camel, expectedTokens, isObj, ms, px, rgba, snake, type Expected } from '../helpers/dtcg-expect.js';
import {
  callArgs,
  declarations,
  numberOf,
  parse,
  parseErrors,
  typeNames,
  unitOf,
} from '../helpers/grammars.js';

let t: TestApp;
let light: Expected[];
let dark: Expected[];
beforeAll(async () => {
  t = await buildTestApp();
  ({ light, dark } = expectedTokens(JSON.parse(await served('json')) as Record<string, unknown>));
});
afterAll(() => t.close());

async function served(format: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/brand/tokens?format=${format}` });
  expect(res.statusCode).toBe(200);
  return res.body;
}

/** The brand's text roles: its sizes and letter spacings are sp, its line heights em. */
const role = (path: string) =>
  path.startsWith('type.size.') || path.startsWith('type.letter-spacing.')
    ? 'sp'
    : path.startsWith('type.line-height.')
      ? 'em'
      : undefined;

const close = (a: number, b: number, digits = 3) => expect(a).toBeCloseTo(b, digits);

describe('the grammars', () => {
  it('report a parse error as an ERROR or MISSING node', async () => {
    await expect(
      parse('swift', 'public enum A {\n  public static let x: Color = Color(red: 1\n}\n'),
    ).rejects.toThrow(/swift does not parse/);
    await expect(parse('kotlin', 'object A {\n  val x: Dp = 16.dp */ code()\n}\n')).rejects.toThrow(
      /kotlin does not parse/,
    );
    expect(parseErrors(await parse('kotlin', 'object A {\n  val x = 1\n}\n'))).toEqual([]);
  });
});

describe('the swift format', () => {
  let decls: Map<string, { type: string; value: Node | undefined }>;
  let root: Node;
  beforeAll(async () => {
    root = await parse('swift', await served('swift'));
    decls = declarations(root, 'swift');
  });

  const checkColor = (value: Node | undefined, v: unknown, where: string) => {
    const call = callArgs(value);
    expect(call?.callee, where).toBe('Color');
    const [r, g, b, a] = rgba(v);
    close(numberOf(call?.args.get('red')), r);
    close(numberOf(call?.args.get('green')), g);
    close(numberOf(call?.args.get('blue')), b);
    close(numberOf(call?.args.get('opacity')), a);
  };

  const check = (e: Expected, scope: string) => {
    const name = `${scope}.${camel(e.token.path)}`;
    const d = decls.get(name);
    expect(d, name).toBeDefined();
    const v = e.value;
    const o = isObj(v) ? v : {};
    switch (e.token.type) {
      case 'color':
        expect(d?.type, name).toBe('Color');
        checkColor(d?.value, v, name);
        break;
      case 'dimension':
        expect(d?.type, name).toBe('CGFloat');
        close(numberOf(d?.value), px(v));
        break;
      case 'number':
        expect(d?.type, name).toBe('CGFloat');
        close(numberOf(d?.value), Number(v));
        break;
      case 'fontWeight':
        expect(d?.type, name).toBe('Font.Weight');
        expect(d?.value?.text, name).toBe(
          { 400: '.regular', 500: '.medium', 600: '.semibold', 700: '.bold' }[Number(v)],
        );
        break;
      case 'duration':
        expect(d?.type, name).toBe('TimeInterval');
        close(numberOf(d?.value), ms(v) / 1000);
        break;
      case 'fontFamily':
        expect(d?.type, name).toBe('[String]');
        expect(d?.value?.type).toBe('array_literal');
        expect(
          d?.value?.namedChildren.map((c) => JSON.parse(c?.text ?? '') as string),
          name,
        ).toEqual(v);
        break;
      case 'typography': {
        expect(d?.type, name).toBe('TextStyle');
        const call = callArgs(d?.value);
        expect(call?.callee).toBe('TextStyle');
        close(numberOf(call?.args.get('size')), px(o['fontSize']));
        close(numberOf(call?.args.get('lineHeight')), Number(o['lineHeight']));
        close(numberOf(call?.args.get('tracking')), px(o['letterSpacing']));
        expect(call?.args.get('weight')?.text).toMatch(/^\.(regular|medium|semibold|bold)$/);
        expect(call?.args.get('families')?.text).toContain(JSON.stringify((o['fontFamily'] as string[])[0]));
        break;
      }
      case 'shadow': {
        expect(d?.type, name).toBe('[ShadowLayer]');
        const layers = (Array.isArray(v) ? v : [v]) as Record<string, unknown>[];
        const calls = d?.value?.namedChildren.map((c) => callArgs(c ?? undefined)) ?? [];
        expect(calls.length, name).toBe(layers.length);
        layers.forEach((l, i) => {
          const c = calls[i];
          expect(c?.callee).toBe('ShadowLayer');
          checkColor(c?.args.get('color'), l['color'], name);
          close(numberOf(c?.args.get('y')), px(l['offsetY']));
          close(numberOf(c?.args.get('blur')), px(l['blur']));
          close(numberOf(c?.args.get('spread')), px(l['spread']));
        });
        break;
      }
      case 'gradient': {
        expect(d?.type, name).toBe('LinearGradient');
        expect(callArgs(d?.value)?.callee).toBe('LinearGradient');
        const stops = d?.value
          ?.descendantsOfType('call_expression')
          .filter((c) => c?.text.startsWith('Gradient.Stop'));
        expect(stops?.length, name).toBe((v as unknown[]).length);
        (v as Record<string, unknown>[]).forEach((s, i) => {
          const c = callArgs(stops?.[i] ?? undefined);
          checkColor(c?.args.get('color'), s['color'], name);
          close(numberOf(c?.args.get('location')), Number(s['position']));
        });
        break;
      }
      case 'cubicBezier': {
        expect(d?.type, name).toBe('CubicBezier');
        const c = callArgs(d?.value);
        expect(['x1', 'y1', 'x2', 'y2'].map((k) => numberOf(c?.args.get(k)))).toEqual(v);
        break;
      }
      case 'transition': {
        expect(d?.type, name).toBe('Animation');
        // .timingCurve(x1, y1, x2, y2, duration: s).delay(s)
        const curve = d?.value
          ?.descendantsOfType('call_expression')
          .find((c) => c?.text.startsWith('.timingCurve') && !c.text.includes('.delay'));
        const c = callArgs(curve ?? undefined);
        expect(['0', '1', '2', '3'].map((k) => numberOf(c?.args.get(k)))).toEqual(o['timingFunction']);
        close(numberOf(c?.args.get('duration')), ms(o['duration']) / 1000);
        expect(d?.value?.text).toMatch(/\.delay\(/);
        break;
      }
      case 'strokeStyle':
      case 'border':
        throw new Error(`the brand has no ${e.token.type} token`);
    }
  };

  it('parses, and declares every token with its SwiftUI type and value', () => {
    expect(root.text).toMatch(/^import SwiftUI$/m);
    for (const e of light) check(e, 'BrandTokens');
    const own = [...decls.keys()].filter((k) => /^BrandTokens\.[a-z]\w*$/.test(k));
    expect(own.length).toBe(light.length);
    expect(light.length).toBe(117);
    for (const type of ['TextStyle', 'ShadowLayer', 'CubicBezier', 'Scheme', 'Dark'])
      expect(typeNames(root, 'swift').has(`BrandTokens.${type}`), type).toBe(true);
    expect(decls.get('BrandTokens.TextStyle.font')?.type).toBe('Font');
  });

  it('carries dark mode: BrandTokens.Dark with the dark values, and a Scheme per colour scheme', () => {
    expect(dark.length).toBe(16);
    for (const e of dark) check(e, 'BrandTokens.Dark');
    expect([...decls.keys()].filter((k) => k.startsWith('BrandTokens.Dark.')).length).toBe(dark.length);
    for (const e of dark) {
      const field = decls.get(`BrandTokens.Scheme.${camel(e.token.path)}`);
      expect(field?.type, e.token.path).toBe('Color');
    }
    expect(decls.get('BrandTokens.Scheme.dark')?.value?.text).toContain(
      `colorsBrandPrimary: BrandTokens.Dark.colorsBrandPrimary`,
    );
    expect(decls.get('BrandTokens.Scheme.light')?.value?.text).toContain(
      `colorsBrandPrimary: BrandTokens.colorsBrandPrimary`,
    );
    expect(root.text).toMatch(/static func of\(_ colorScheme: ColorScheme\) -> Scheme/);
  });
});

describe('the compose format', () => {
  let decls: Map<string, { type: string; value: Node | undefined }>;
  let root: Node;
  beforeAll(async () => {
    root = await parse('kotlin', await served('compose'));
    decls = declarations(root, 'kotlin');
  });

  const checkColor = (value: Node | undefined, v: unknown, where: string) => {
    const call = callArgs(value);
    expect(call?.callee, where).toBe('Color');
    const [r, g, b, a] = rgba(v);
    const hex = (n: number) =>
      Math.round(n * 255)
        .toString(16)
        .padStart(2, '0');
    expect(call?.args.get('0')?.text, where).toBe(`0x${hex(a)}${hex(r)}${hex(g)}${hex(b)}`);
  };
  const checkUnit = (value: Node | undefined, n: number, unit: string, where: string) => {
    const u = unitOf(value);
    expect(u?.unit, where).toBe(unit);
    close(u?.value ?? NaN, n);
  };

  const check = (e: Expected, scope: string) => {
    const name = `${scope}.${camel(e.token.path)}`;
    const d = decls.get(name);
    expect(d, name).toBeDefined();
    const v = e.value;
    const o = isObj(v) ? v : {};
    const r = role(e.token.path);
    switch (e.token.type) {
      case 'color':
        expect(d?.type, name).toBe('Color');
        checkColor(d?.value, v, name);
        break;
      case 'dimension':
        // Text sizes and letter spacing are sp (TextUnit), every other size dp.
        expect(d?.type, name).toBe(r === 'sp' ? 'TextUnit' : 'Dp');
        checkUnit(d?.value, px(v), r ?? 'dp', name);
        break;
      case 'number':
        expect(d?.type, name).toBe(r === 'em' ? 'TextUnit' : 'Float');
        if (r === 'em') checkUnit(d?.value, Number(v), 'em', name);
        break;
      case 'fontWeight':
        expect(d?.type, name).toBe('FontWeight');
        expect(numberOf(callArgs(d?.value)?.args.get('0'))).toBe(v);
        break;
      case 'duration':
        expect(d?.type, name).toBe('Int');
        expect(numberOf(d?.value)).toBe(ms(v));
        break;
      case 'fontFamily':
        expect(d?.type, name).toBe('List<String>');
        expect(
          [...(callArgs(d?.value)?.args.values() ?? [])].map((n) => JSON.parse(n.text) as string),
          name,
        ).toEqual(v);
        break;
      case 'typography': {
        expect(d?.type, name).toBe('TextStyle');
        const c = callArgs(d?.value);
        expect(c?.callee).toBe('TextStyle');
        checkUnit(c?.args.get('fontSize'), px(o['fontSize']), 'sp', name);
        checkUnit(c?.args.get('lineHeight'), Number(o['lineHeight']), 'em', name);
        checkUnit(c?.args.get('letterSpacing'), px(o['letterSpacing']), 'sp', name);
        expect(c?.args.get('fontWeight')?.text).toBe(`FontWeight(${String(o['fontWeight'])})`);
        expect(c?.args.get('fontFamily')?.text).toMatch(/^FontFamily\.(Serif|SansSerif|Monospace)$/);
        break;
      }
      case 'shadow': {
        expect(d?.type, name).toBe('List<ShadowLayer>');
        const layers = (Array.isArray(v) ? v : [v]) as Record<string, unknown>[];
        const calls = [...(callArgs(d?.value)?.args.values() ?? [])].map((n) => callArgs(n));
        expect(calls.length, name).toBe(layers.length);
        layers.forEach((l, i) => {
          checkColor(calls[i]?.args.get('color'), l['color'], name);
          checkUnit(calls[i]?.args.get('offsetY'), px(l['offsetY']), 'dp', name);
          checkUnit(calls[i]?.args.get('blur'), px(l['blur']), 'dp', name);
          checkUnit(calls[i]?.args.get('spread'), px(l['spread']), 'dp', name);
        });
        break;
      }
      case 'gradient': {
        expect(d?.type, name).toBe('Brush');
        const c = callArgs(d?.value);
        expect(c?.callee).toBe('Brush.linearGradient');
        const stops = [...(c?.args.values() ?? [])];
        expect(stops.length).toBe((v as unknown[]).length);
        (v as Record<string, unknown>[]).forEach((s, i) => {
          // `0f to Color(…)`: an infix call making the (position, colour) pair.
          const [pos, op, col] = stops[i]?.namedChildren ?? [];
          expect(op?.text).toBe('to');
          close(numberOf(pos ?? undefined), Number(s['position']));
          checkColor(col ?? undefined, s['color'], name);
        });
        break;
      }
      case 'cubicBezier': {
        expect(d?.type, name).toBe('CubicBezierEasing');
        const c = callArgs(d?.value);
        expect(['0', '1', '2', '3'].map((k) => numberOf(c?.args.get(k)))).toEqual(v);
        break;
      }
      case 'transition': {
        expect(d?.type, name).toBe('Transition');
        const c = callArgs(d?.value);
        expect(numberOf(c?.args.get('durationMillis'))).toBe(ms(o['duration']));
        expect(numberOf(c?.args.get('delayMillis'))).toBe(ms(o['delay']));
        const easing = callArgs(c?.args.get('easing'));
        expect(['0', '1', '2', '3'].map((k) => numberOf(easing?.args.get(k)))).toEqual(o['timingFunction']);
        break;
      }
      case 'strokeStyle':
      case 'border':
        throw new Error(`the brand has no ${e.token.type} token`);
    }
  };

  it('parses, and declares every token with its Compose type, text in sp and em', () => {
    expect(root.text).toMatch(/^package org\.fleetgate\.brand$/m);
    for (const imp of ['ui.unit.sp', 'ui.unit.em', 'ui.unit.dp', 'ui.text.TextStyle', 'ui.graphics.Brush'])
      expect(root.text).toMatch(
        new RegExp(`^import androidx\\.compose\\.${imp.replace(/\./g, '\\.')}$`, 'm'),
      );
    for (const e of light) check(e, 'BrandTokens');
    const own = [...decls.keys()].filter((k) => /^BrandTokens\.[a-z]\w*$/.test(k));
    expect(own.length).toBe(light.length);
    for (const type of ['Dark', 'Scheme', 'ShadowLayer', 'Transition'])
      expect(typeNames(root, 'kotlin').has(`BrandTokens.${type}`), type).toBe(true);
  });

  it('carries dark mode: BrandTokens.Dark with the dark values, and a Scheme per mode', () => {
    for (const e of dark) check(e, 'BrandTokens.Dark');
    expect([...decls.keys()].filter((k) => k.startsWith('BrandTokens.Dark.')).length).toBe(dark.length);
    const params = root.descendantsOfType('class_parameter').map((p) => p?.namedChildren.map((c) => c?.text));
    for (const e of dark) expect(params, e.token.path).toContainEqual([camel(e.token.path), 'Color']);
    expect(decls.get('BrandTokens.Scheme.Companion.dark')?.value?.text).toContain(
      'colorsBrandPrimary = BrandTokens.Dark.colorsBrandPrimary',
    );
    expect(root.text).toMatch(/fun of\(darkTheme: Boolean\): Scheme/);
  });
});

describe('the android format', () => {
  const read = (xml: string) => {
    const problems: string[] = [];
    const doc = new DOMParser({ onError: (level, msg) => problems.push(`${level}: ${msg}`) }).parseFromString(
      xml,
      'text/xml',
    );
    expect(problems).toEqual([]);
    expect(doc.documentElement?.tagName).toBe('resources');
    const resources = new Map<string, Element>();
    for (const el of Array.from(doc.documentElement?.childNodes ?? [])) {
      if (el.nodeType !== el.ELEMENT_NODE) continue;
      const e = el as Element;
      const name = e.getAttribute('name') ?? '';
      // A resource name is a Java identifier in R: lower-case letters, digits, underscores.
      expect(name, e.tagName).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(['color', 'dimen', 'integer', 'item', 'string-array', 'style'], e.tagName).toContain(e.tagName);
      expect(resources.has(name), `${name} declared twice`).toBe(false);
      resources.set(name, e);
    }
    const comments = Array.from(doc.childNodes)
      .filter((n) => n.nodeType === n.COMMENT_NODE)
      .map((n) => n.nodeValue ?? '');
    return { resources, comments };
  };
  const argb = (v: unknown) => {
    const [r, g, b, a] = rgba(v);
    const hex = (n: number) =>
      Math.round(n * 255)
        .toString(16)
        .padStart(2, '0');
    return `#${hex(a)}${hex(r)}${hex(g)}${hex(b)}`;
  };
  const dimenOf = (el: Element | undefined) => {
    const m = /^(-?\d+(?:\.\d+)?)(dp|sp)$/.exec(el?.textContent ?? '');
    return m ? { value: Number(m[1]), unit: m[2] } : undefined;
  };

  const check = (e: Expected, resources: Map<string, Element>): boolean => {
    const name = snake(e.token.path);
    const el = resources.get(name);
    const v = e.value;
    const o = isObj(v) ? v : {};
    const r = role(e.token.path);
    switch (e.token.type) {
      case 'color':
        expect(el?.tagName, name).toBe('color');
        expect(el?.textContent, name).toBe(argb(v));
        return true;
      case 'dimension':
        expect(el?.tagName, name).toBe('dimen');
        expect(dimenOf(el), name).toEqual({ value: px(v), unit: r ?? 'dp' });
        return true;
      case 'number':
        expect([el?.tagName, el?.getAttribute('type'), el?.getAttribute('format')], name).toEqual([
          'item',
          'dimen',
          'float',
        ]);
        expect(Number(el?.textContent)).toBe(v);
        return true;
      case 'fontWeight':
      case 'duration':
        expect(el?.tagName, name).toBe('integer');
        expect(Number(el?.textContent), name).toBe(e.token.type === 'duration' ? ms(v) : v);
        return true;
      case 'fontFamily':
        expect(el?.tagName, name).toBe('string-array');
        expect(Array.from(el?.getElementsByTagName('item') ?? []).map((i) => i.textContent)).toEqual(v);
        return true;
      case 'typography': {
        expect(el?.tagName, name).toBe('style');
        const items = new Map(
          Array.from(el?.getElementsByTagName('item') ?? []).map((i) => [
            i.getAttribute('name'),
            i.textContent ?? '',
          ]),
        );
        const size = px(o['fontSize']);
        expect(items.get('android:textSize'), name).toBe(`${size}sp`);
        expect(Number(items.get('android:textFontWeight'))).toBe(o['fontWeight']);
        // Android's letterSpacing is a float in em: a fraction of the text size.
        close(Number(items.get('android:letterSpacing')), px(o['letterSpacing']) / size);
        close(
          Number(/^([\d.]+)sp$/.exec(items.get('android:lineHeight') ?? '')?.[1]),
          size * Number(o['lineHeight']),
          2,
        );
        expect(items.get('android:fontFamily')).toMatch(/^(serif|sans-serif|monospace)$/);
        return true;
      }
      case 'shadow':
      case 'gradient':
      case 'cubicBezier':
      case 'transition':
      case 'strokeStyle':
      case 'border':
        expect(el, `${name} (${e.token.type}) has no value resource`).toBeUndefined();
        return false;
    }
  };

  it('is XML resources Android accepts, every value token carried, the rest named as not carried', async () => {
    const { resources, comments } = read(await served('android'));
    const left = light.filter((e) => !check(e, resources));
    expect(resources.size).toBe(light.length - left.length);
    expect(new Set(left.map((e) => e.token.type))).toEqual(
      new Set(['shadow', 'gradient', 'cubicBezier', 'transition']),
    );
    // The header names each token left out, with why.
    const header = comments.join('\n');
    for (const e of left) expect(header, e.token.path).toContain(e.token.path);
    expect(header).toMatch(/Not carried: shadow \(.*\): Android draws view shadows from elevation/);
  });

  it('has its dark values in values-night/tokens.xml, a static file named by the manifest', async () => {
    const base = read(await served('android'));
    const res = await t.app.inject({ url: '/static/fleet/tokens/android/values-night/tokens.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const night = read(res.body);
    expect(night.resources.size).toBe(dark.length);
    for (const e of dark) {
      check(e, night.resources);
      // The same resource as in values/: Android swaps it in dark mode.
      expect(base.resources.get(snake(e.token.path))?.tagName).toBe(
        night.resources.get(snake(e.token.path))?.tagName,
      );
    }
    const values = await t.app.inject({ url: '/static/fleet/tokens/android/values/tokens.xml' });
    expect(values.body).toBe(await served('android'));
    // The android response names it, for a client that only asked for the format.
    const android = await t.app.inject({ url: '/api/brand/tokens?format=android' });
    expect(android.headers['link']).toMatch(
      /^<http:\/\/[^>]+\/static\/fleet\/tokens\/android\/values-night\/tokens\.xml>; rel="alternate"/,
    );
    const manifest = (await t.app.inject({ url: '/api/brand' })).json<{
      endpoints: Record<string, string>;
    }>();
    expect(Object.keys(manifest.endpoints)).toContain(
      'GET /static/fleet/tokens/android/values-night/tokens.xml',
    );
  });
});
