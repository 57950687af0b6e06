/**
 * The native formats: the Android resources are well-formed XML (parsed by a real XML parser),
 * and Android, SwiftUI and Jetpack Compose each carry every colour and dimension of the DTCG
 * document with its value (colours from their hex, dimensions in px/pt/dp at 16px to the rem).
 */
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenTokens, resolveValue, type FlatToken } from '../src/brand/dtcg.js';
import { buildTestApp, type TestApp } from './helpers/build-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function served(format: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/brand/tokens?format=${format}` });
  expect(res.statusCode).toBe(200);
  return res.body;
}

type Obj = Record<string, unknown>;
interface Expect {
  token: FlatToken;
  /** #rrggbb (colours) */
  hex?: string;
  alpha?: number;
  /** device-independent pixels (dimensions) */
  px?: number;
}

/** Every colour and dimension of the served DTCG document, aliases followed. */
async function expected(): Promise<Expect[]> {
  const doc = JSON.parse(await served('json')) as unknown;
  const flat = flattenTokens(doc, 'tokens', []);
  const out: Expect[] = [];
  for (const token of flat.values()) {
    const v = resolveValue(token.value, flat) as Obj;
    if (token.type === 'color')
      out.push({ token, hex: String(v['hex']).toLowerCase(), alpha: Number(v['alpha'] ?? 1) });
    if (token.type === 'dimension')
      out.push({ token, px: Number(v['value']) * (v['unit'] === 'rem' ? 16 : 1) });
  }
  expect(out.filter((e) => e.hex).length).toBeGreaterThan(40);
  expect(out.filter((e) => e.px !== undefined).length).toBeGreaterThan(30);
  return out;
}

const words = (dotted: string) => dotted.split(/[.-]/);
const camel = (dotted: string) =>
  words(dotted)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');
const snake = (dotted: string) => words(dotted).join('_');
const byte = (hex: string, i: number) => parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
const alphaHex = (a: number) =>
  Math.round(a * 255)
    .toString(16)
    .padStart(2, '0');

describe('the android format', () => {
  it('is well-formed XML resources with every colour and dimension', async () => {
    const xml = await served('android');
    const problems: string[] = [];
    const doc = new DOMParser({ onError: (level, msg) => problems.push(`${level}: ${msg}`) }).parseFromString(
      xml,
      'text/xml',
    );
    expect(problems).toEqual([]);
    expect(doc.documentElement?.tagName).toBe('resources');
    const values = new Map<string, string>();
    for (const kind of ['color', 'dimen', 'integer']) {
      const els = doc.getElementsByTagName(kind);
      for (let i = 0; i < els.length; i++) {
        const el = els.item(i);
        if (el) values.set(`${kind}:${el.getAttribute('name') ?? ''}`, el.textContent ?? '');
      }
    }
    for (const e of await expected()) {
      const name = snake(e.token.path);
      if (e.hex)
        expect(values.get(`color:${name}`), name).toBe(`#${alphaHex(e.alpha ?? 1)}${e.hex.slice(1)}`);
      else expect(values.get(`dimen:${name}`), name).toBe(`${(e.px ?? NaN).toFixed(2)}dp`);
    }
    expect(values.get('integer:motion_duration_normal')).toBe('200');
    expect(values.get('integer:type_weight_bold')).toBe('700');
  });
});

/** `name = value` for each `let`/`val` line of a Swift or Kotlin file. */
const declared = (source: string, keyword: 'let' | 'val') =>
  new Map(
    [...source.matchAll(new RegExp(`\\b${keyword} (\\w+) = (.+?)(?: \\/\\*\\*.*)?$`, 'gm'))].map((m) => [
      m[1] ?? '',
      m[2] ?? '',
    ]),
  );

describe('the swift format', () => {
  it('is a SwiftUI enum carrying every colour and dimension', async () => {
    const swift = await served('swift');
    expect(swift).toMatch(/^import SwiftUI$/m);
    expect(swift).toMatch(/^public enum BrandTokens \{$/m);
    const lets = declared(swift, 'let');
    for (const e of await expected()) {
      const name = camel(e.token.path);
      if (e.hex) {
        const [r, g, b] = [0, 1, 2].map((i) => (byte(e.hex ?? '', i) / 255).toFixed(3));
        expect(lets.get(name), name).toBe(
          `Color(red: ${r}, green: ${g}, blue: ${b}, opacity: ${String(e.alpha ?? 1)})`,
        );
      } else expect(lets.get(name), name).toBe(`CGFloat(${(e.px ?? NaN).toFixed(2)})`);
    }
    expect(lets.get('motionDurationNormal')).toBe('TimeInterval(0.2)');
  });
});

describe('the compose format', () => {
  it('is a Kotlin object for Jetpack Compose carrying every colour and dimension', async () => {
    const kt = await served('compose');
    expect(kt).toMatch(/^package org\.fleetgate\.brand$/m);
    expect(kt).toMatch(/^import androidx\.compose\.ui\.graphics\.Color$/m);
    expect(kt).toMatch(/^import androidx\.compose\.ui\.unit\.dp$/m);
    expect(kt).toMatch(/^object BrandTokens \{$/m);
    const vals = declared(kt, 'val');
    for (const e of await expected()) {
      const name = camel(e.token.path);
      if (e.hex) expect(vals.get(name), name).toBe(`Color(0x${alphaHex(e.alpha ?? 1)}${e.hex.slice(1)})`);
      else expect(vals.get(name), name).toBe(`${(e.px ?? NaN).toFixed(2)}.dp`);
    }
    expect(vals.get('motionDurationNormal')).toBe('200');
    expect(vals.get('typeWeightBold')).toBe('FontWeight(700)');
  });
});
