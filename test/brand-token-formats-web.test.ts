/**
 * The web formats proven by their real consumers: Tailwind CSS v4 compiles a page that imports
 * the served theme and uses its utilities; the served ES module imports in Node and carries
 * every DTCG token's value; tsc compiles a file using the typed module's literal types.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from '@tailwindcss/node';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenTokens, resolveValue, type FlatToken } from '../src/brand/dtcg.js';
import { cssValue } from '../src/brand/tokens-css.js';
import { buildTestApp, REPO, type TestApp } from './helpers/build-test-app.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-token-formats-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

async function served(format: string): Promise<string> {
  const res = await t.app.inject({ url: `/api/brand/tokens?format=${format}` });
  expect(res.statusCode).toBe(200);
  return res.body;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The served DTCG document's tokens, each with every alias inside its value followed. */
async function dtcgTokens(): Promise<{ token: FlatToken; value: unknown }[]> {
  const doc = JSON.parse(await served('json')) as unknown;
  const flat = flattenTokens(doc, 'tokens', []);
  const deep = (v: unknown): unknown => {
    const r = resolveValue(v, flat);
    if (Array.isArray(r)) return r.map(deep);
    if (isObj(r)) return Object.fromEntries(Object.entries(r).map(([k, x]) => [k, deep(x)]));
    return r;
  };
  return [...flat.values()].map((token) => ({ token, value: deep(token.value) }));
}

const camel = (dotted: string) =>
  dotted
    .split(/[.-]/)
    .map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join('');

describe('the tailwind format', () => {
  it('compiles with Tailwind v4: the theme becomes utilities, dark mode overrides the same variables', async () => {
    const theme = path.join(dir, 'tokens.tailwind.css');
    await writeFile(theme, await served('tailwind'));
    const page = `@import "tailwindcss";\n@import ${JSON.stringify(theme)};\n`;
    const compiler = await compile(page, { base: REPO, onDependency: () => {} });
    const css = compiler.build([
      'bg-brand-primary',
      'text-text-default',
      'bg-surface-page',
      'p-4',
      'rounded-md',
      'shadow-md',
      'font-sans',
      'font-bold',
      'text-lg',
      'ease-standard',
      'md:flex',
    ]);
    const rule = (sel: string) => new RegExp(`\\.${sel} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
    expect(rule('bg-brand-primary')).toContain('background-color: var(--color-brand-primary)');
    expect(css).toContain('--color-brand-primary: var(--color-palette-navy-900);');
    expect(css).toContain('--color-palette-navy-900: #0b2545;');
    expect(rule('p-4')).toContain('padding: var(--spacing-4)');
    expect(css).toMatch(/--spacing-4: 1rem;/);
    expect(rule('rounded-md')).toContain('border-radius: var(--radius-md)');
    expect(rule('shadow-md')).toContain('0px 2px 4px -1px');
    expect(rule('font-sans')).toContain('font-family: var(--font-sans)');
    expect(css).toMatch(/--font-sans: Inter, system-ui/);
    expect(rule('font-bold')).toContain('var(--font-weight-bold)');
    expect(rule('ease-standard')).toContain('var(--ease-standard)');
    expect(css).toContain('--ease-standard: cubic-bezier(0.2, 0, 0, 1);');
    // Our breakpoint (768px), not Tailwind's default 48rem.
    expect(css).toMatch(/@media \(width >= 768px\)/);
    const dark = /\[data-theme="dark"\] \{([^}]*)\}/.exec(css)?.[1] ?? '';
    expect(dark).toContain('--color-brand-primary: var(--color-palette-navy-100);');
    expect(css).not.toContain('[object Object]');
  });
});

describe('the js format', () => {
  it('imports as an ES module whose values are the DTCG ones', async () => {
    const file = path.join(dir, 'tokens.mjs');
    await writeFile(file, await served('js'));
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const tokens = await dtcgTokens();
    expect(Object.keys(mod).length).toBe(tokens.length);
    for (const { token, value } of tokens) {
      const got = mod[camel(token.path)];
      const where = `${token.path} (${token.type})`;
      if (token.type === 'color' && isObj(value) && value['alpha'] === undefined)
        expect(got, where).toBe(value['hex']);
      else if (token.type === 'dimension' || token.type === 'duration')
        expect(got, where).toBe(`${String((value as Obj)['value'])}${String((value as Obj)['unit'])}`);
      else if (typeof value === 'number') expect(got, where).toBe(value);
      else expect(got, where).toBe(cssValue(token.type, value));
    }
    expect(mod['colorsBrandPrimary']).toBe('#0b2545');
    expect(mod['motionDurationNormal']).toBe('200ms');
    expect(mod['gradientsDawn']).toBe('linear-gradient(135deg, #0b2545 0%, #e0a526 100%)');
  });
});

describe('the ts format', () => {
  const check = (files: Record<string, string>) => {
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noUncheckedIndexedAccess: true,
      types: [],
    };
    const roots = Object.keys(files).map((f) => path.join(dir, f));
    const program = ts.createProgram(roots, options);
    return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  };

  it('compiles with tsc, every value with its literal type', async () => {
    await writeFile(path.join(dir, 'tokens.ts'), await served('ts'));
    const use = `import { colorsBrandPrimary, motionDurationNormal, tokens, typeWeightBold, type TokenName } from './tokens.js';
const primary: '#0b2545' = colorsBrandPrimary;
const duration: '200ms' = motionDurationNormal;
const bold: 700 = typeWeightBold;
const name: TokenName = 'gradientsDawn';
export const used: string = primary + duration + String(bold) + tokens[name];
`;
    await writeFile(path.join(dir, 'use.ts'), use);
    expect(check({ 'tokens.ts': '', 'use.ts': '' })).toEqual([]);
    // The types are the literal values: a wrong one does not compile.
    await writeFile(
      path.join(dir, 'wrong.ts'),
      `import { colorsBrandPrimary } from './tokens.js';\nexport const c: '#000000' = colorsBrandPrimary;\n`,
    );
    expect(check({ 'wrong.ts': '' }).join('\n')).toMatch(/'"#0b2545"' is not assignable to type '"#000000"'/);
  });

  it('has the same names and values as the js module', async () => {
    const js = await served('js');
    const tsText = await served('ts');
    const decl = (s: string) =>
      [...s.matchAll(/^export const (\w+) =\s*([^;]+);/gm)].map((m) => [m[1], m[2]?.trim()]);
    const jsDecl = decl(js);
    expect(jsDecl.length).toBeGreaterThan(100);
    expect(decl(tsText).filter(([n]) => n !== 'tokens')).toEqual(jsDecl);
  });
});
