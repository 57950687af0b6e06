/**
 * A token's $description is brand-folder text that every format but JSON writes into a comment.
 * Built through the real pipeline from a brand folder whose descriptions try every way out of a
 * comment (a comment end, a nested comment start, line breaks, `-->`, U+2028, `}` ending the :root block, `{…}`
 * that Style Dictionary would resolve), each output is read as its consumer reads it, and the
 * marker in those descriptions is found in comments only, never in code.
 */
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from '@tailwindcss/node';
import { DOMParser, type Node as XmlNode } from '@xmldom/xmldom';
import * as sass from 'sass';
import ts from 'typescript';
import type { Node } from 'web-tree-sitter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_FORMATS } from '../../src/brand/token-formats.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { buildTestApp, REPO, type TestApp } from '../helpers/build-test-app.js';
import { isComment, parse } from '../helpers/grammars.js';

const MARK = 'PWNED';
const EVIL = [
  `${MARK}1 */ ${MARK}2(); /* ${MARK}3`,
  `${MARK}4 } :root { --${MARK}5: 1; }`,
  `--> <!-- ${MARK}6 <x/> & ${MARK}7`,
  `\u2028${MARK}8(); \u2029 ${MARK}9();`,
  `"'\\ $${MARK}10 \${${MARK}11} -- ---`,
  `see {colors.palette.navy.900} and {no.such.token} ${MARK}12`,
].join('\n');

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await copyBrand();
  await editJson(dir, 'tokens/base.tokens.json', (d) => {
    for (const token of [
      d.colors.brand.primary,
      d.type.style.display,
      d.type.weight.bold,
      d.type.size.md,
      d.shadows.md,
      d.gradients.dawn,
      d.motion.duration.fast,
      d.motion.easing.standard,
      d.motion.transition.default,
      d.type.family.sans,
    ])
      token.$description = EVIL;
  });
  // A dark override's own description too.
  await editJson(dir, 'tokens/dark.tokens.json', (d) => {
    d.colors.surface.page.$description = EVIL;
  });
  t = await buildTestApp({ brandDir: dir });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function served(format: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/brand/tokens?format=${format}` });
  expect(res.statusCode, format).toBe(200);
  return res.body;
}

/** CSS as its compiler wrote it, comments taken out (a compiler never leaves a comment open). */
const outsideCssComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '');

/** Every leaf of a tree-sitter tree outside comments. */
function codeLeaves(n: Node, out: string[] = []): string[] {
  if (isComment(n)) return out;
  if (n.childCount === 0) out.push(n.text);
  for (const c of n.children) if (c) codeLeaves(c, out);
  return out;
}

/** Every token of a JS/TS module that is not a comment, as TypeScript's scanner reads it. */
function codeTokens(source: string): string[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source);
  const out: string[] = [];
  for (let k = scanner.scan(); k !== ts.SyntaxKind.EndOfFileToken; k = scanner.scan()) {
    if (k === ts.SyntaxKind.SingleLineCommentTrivia || k === ts.SyntaxKind.MultiLineCommentTrivia) continue;
    out.push(scanner.getTokenText());
  }
  return out;
}

/** Every XML node's text and attribute values outside comments. */
function xmlCode(xml: string): string[] {
  const problems: string[] = [];
  const doc = new DOMParser({ onError: (l, m) => problems.push(`${l}: ${m}`) }).parseFromString(
    xml,
    'text/xml',
  );
  expect(problems).toEqual([]);
  const out: string[] = [];
  const walk = (n: XmlNode) => {
    if (n.nodeType === n.COMMENT_NODE) return;
    if (n.nodeType === n.TEXT_NODE) out.push(n.nodeValue ?? '');
    if (n.nodeType === n.ELEMENT_NODE)
      for (const a of Array.from((n as unknown as { attributes: ArrayLike<{ value: string }> }).attributes))
        out.push(a.value);
    for (const c of Array.from(n.childNodes)) walk(c);
  };
  walk(doc);
  return out;
}

const noMark = (parts: string[], where: string) =>
  expect(
    parts.filter((p) => p.includes(MARK)),
    where,
  ).toEqual([]);

describe('a $description that tries to leave its comment', () => {
  it('builds (its {…} are not references), and the JSON keeps it as written', async () => {
    const doc = JSON.parse(await served('json')) as {
      colors: { brand: { primary: { $description: string } } };
    };
    expect(doc.colors.brand.primary.$description).toBe(EVIL);
    // Somewhere in every other format the description is there, as one line.
    for (const f of TOKEN_FORMATS.filter((x) => x !== 'json'))
      expect(await served(f), f).toContain(`see {colors.palette.navy.900} and {no.such.token} ${MARK}12`);
  });

  it('stays a comment in the stylesheet, the Sass and the Tailwind theme, as their compilers read them', async () => {
    const css = sass.compileString(await served('css'), { syntax: 'css' }).css;
    noMark([outsideCssComments(css)], 'css');
    expect(css).toContain('--colors-brand-primary:');
    const scss = sass.compileString(`${await served('scss')}\n.x { color: $colors-brand-primary; }`).css;
    noMark([outsideCssComments(scss)], 'scss');
    const theme = path.join(dir, 'theme.css');
    await writeFile(theme, await served('tailwind'));
    const compiler = await compile(`@import "tailwindcss";\n@import ${JSON.stringify(theme)};\n`, {
      base: REPO,
      onDependency: () => {},
    });
    const tw = compiler.build(['bg-brand-primary', 'text-display', 'shadow-md', 'ease-standard']);
    noMark([outsideCssComments(tw)], 'tailwind');
    expect(tw).toContain('--color-brand-primary:');
  });

  it('stays a comment in the ES and TypeScript modules, which import and compile', async () => {
    for (const f of ['js', 'ts']) noMark(codeTokens(await served(f)), f);
    const file = path.join(dir, 'tokens.mjs');
    await writeFile(file, await served('js'));
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    expect(mod['colorsBrandPrimary']).toBe('#0b2545');
  });

  it('stays a comment in the Swift and Kotlin files, which parse without error', async () => {
    for (const [format, grammar] of [
      ['swift', 'swift'],
      ['compose', 'kotlin'],
    ] as const) {
      const root = await parse(grammar, await served(format));
      noMark(codeLeaves(root), format);
      expect(
        root.descendantsOfType(['comment', 'multiline_comment', 'line_comment', 'block_comment']).length,
      ).toBeGreaterThan(0);
    }
  });

  it('stays a comment in the Android resources and their values-night/ file', async () => {
    noMark(xmlCode(await served('android')), 'android');
    const night = await t.app.inject({ url: '/static/fleet/tokens/android/values-night/tokens.xml' });
    noMark(xmlCode(night.body), 'values-night');
    expect(night.body).toContain(`${MARK}12`);
  });
});
