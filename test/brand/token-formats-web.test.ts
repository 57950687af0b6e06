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
import { flattenTokens, resolveValue, type FlatToken } from '../../src/brand/dtcg.js';
import { cssValue } from '../../src/brand/tokens-css.js';
import { buildTestApp, REPO, type TestApp } from '../helpers/build-test-app.js';
import { expectedTokens } from '../helpers/dtcg-expect.js';

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
    // A dark value's palette colour is defined even though no utility names it.
    expect(css).toMatch(/--color-palette-navy-100: #d5e1f2;/);
    expect(css).not.toContain('[object Object]');
  });

  it("uses v4's namespaces: a type style is a text-* utility with its line height, letter spacing and weight", async () => {
    const theme = path.join(dir, 'tokens.tailwind.css');
    const served_ = await served('tailwind');
    await writeFile(theme, served_);
    const page = `@import "tailwindcss";\n@import ${JSON.stringify(theme)};\n.hero { background: var(--gradients-dawn); transition: var(--motion-transition-default); font: var(--type-style-display); }\n`;
    const compiler = await compile(page, { base: REPO, onDependency: () => {} });
    const css = compiler.build([
      'text-display',
      'text-label',
      'duration-normal',
      'ease-enter',
      'font-display',
    ]);
    const rule = (sel: string) => new RegExp(`\\.${sel} \\{([^}]*)\\}`).exec(css)?.[1] ?? '';
    const display = rule('text-display');
    expect(display).toContain('font-size: var(--text-display)');
    expect(display).toContain('line-height: var(--tw-leading, var(--text-display--line-height))');
    expect(display).toContain('letter-spacing: var(--tw-tracking, var(--text-display--letter-spacing))');
    expect(display).toContain('font-weight: var(--tw-font-weight, var(--text-display--font-weight))');
    expect(css).toContain('--text-display: var(--text-5xl);');
    expect(css).toContain('--text-display--letter-spacing: var(--tracking-tight);');
    expect(css).toContain('--tracking-tight: -0.02rem;');
    expect(rule('text-label')).toContain(
      'letter-spacing: var(--tw-tracking, var(--text-label--letter-spacing))',
    );
    expect(rule('duration-normal')).toContain('transition-duration: var(--transition-duration-normal)');
    expect(css).toContain('--transition-duration-normal: 200ms;');
    expect(rule('ease-enter')).toContain('var(--ease-enter)');
    // No namespace fits transitions, gradients or the font shorthand: plain variables, tokens.css's names.
    const root = /:root \{([^}]*--gradients-dawn[^}]*)\}/.exec(served_)?.[1] ?? '';
    expect(root).toContain(
      '--gradients-dawn: linear-gradient(135deg, var(--color-palette-navy-900) 0%, var(--color-palette-gold-500) 100%);',
    );
    expect(root).toContain(
      '--motion-transition-default: var(--transition-duration-normal) var(--ease-standard) 0ms;',
    );
    expect(root).toContain(
      '--type-style-display: var(--font-weight-bold) var(--text-5xl)/var(--leading-tight) var(--font-display);',
    );
    expect(rule('hero')).toContain('background: var(--gradients-dawn)');
    expect(css).toContain('--gradients-dawn: linear-gradient(');
    expect(css).toMatch(/--color-palette-gold-500: #e0a526;/);
    // No variable outside a v4 namespace is left in @theme.
    const themeBlock = /@theme \{([^}]*)\}/.exec(served_)?.[1] ?? '';
    const names = [...themeBlock.matchAll(/^\s*--([a-z0-9-]+?)-[a-z0-9]+(?:--[a-z-]+)?:/gm)].map((m) => m[1]);
    for (const n of new Set(names))
      expect(
        [
          'color',
          'font',
          'font-weight',
          'text',
          'leading',
          'tracking',
          'spacing',
          'radius',
          'shadow',
          'transition-duration',
          'ease',
          'breakpoint',
        ].some((ns) => `${n}-`.startsWith(`${ns}-`)),
        n,
      ).toBe(true);
    expect(served_).not.toMatch(/--(typography|gradient|transition|duration)-(?!duration)/);
  });
});

/** The js format's value for a DTCG token: numbers stay numbers, typography its sub-values, the rest CSS. */
function jsExpected(type: string, value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (type === 'typography' && isObj(value)) {
    const css = (t: string, v: unknown) => (typeof v === 'number' ? v : cssValue(t, v));
    return {
      fontFamily: css('fontFamily', value['fontFamily']),
      fontSize: css('dimension', value['fontSize']),
      fontWeight: css('fontWeight', value['fontWeight']),
      lineHeight: css('number', value['lineHeight']),
      letterSpacing: css('dimension', value['letterSpacing']),
    };
  }
  return cssValue(type, value);
}

describe('the js format', () => {
  it('imports as an ES module whose values are the DTCG ones, typography with every sub-value', async () => {
    const file = path.join(dir, 'tokens.mjs');
    await writeFile(file, await served('js'));
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const tokens = await dtcgTokens();
    expect(Object.keys(mod).filter((k) => k !== 'dark').length).toBe(tokens.length);
    for (const { token, value } of tokens) {
      const got = mod[camel(token.path)];
      const where = `${token.path} (${token.type})`;
      if (token.type === 'color' && isObj(value) && value['alpha'] === undefined)
        expect(got, where).toBe(value['hex']);
      else if (token.type === 'dimension' || token.type === 'duration')
        expect(got, where).toBe(`${String((value as Obj)['value'])}${String((value as Obj)['unit'])}`);
      else expect(got, where).toEqual(jsExpected(token.type, value));
    }
    expect(mod['colorsBrandPrimary']).toBe('#0b2545');
    expect(mod['motionDurationNormal']).toBe('200ms');
    expect(mod['gradientsDawn']).toBe('linear-gradient(135deg, #0b2545 0%, #e0a526 100%)');
    // The CSS font shorthand has no letter spacing; the object keeps it.
    expect(mod['typeStyleDisplay']).toEqual({
      fontFamily: "Fraunces, Georgia, Cambria, 'Times New Roman', serif",
      fontSize: '3rem',
      fontWeight: 700,
      lineHeight: 1.15,
      letterSpacing: '-0.02rem',
    });
  });

  it('exports `dark`: the dark value of every token that differs in dark mode, by the same name', async () => {
    const file = path.join(dir, 'tokens-dark.mjs');
    await writeFile(file, await served('js'));
    const mod = (await import(pathToFileURL(file).href)) as { dark: Record<string, unknown> };
    const { dark } = expectedTokens(JSON.parse(await served('json')) as Obj);
    expect(dark.length).toBe(16);
    expect(Object.keys(mod.dark).sort()).toEqual(dark.map((e) => camel(e.token.path)).sort());
    for (const e of dark)
      expect(mod.dark[camel(e.token.path)], e.token.path).toEqual(jsExpected(e.token.type, e.value));
    expect(mod.dark['colorsBrandPrimary']).toBe('#d5e1f2');
  });
});

describe('the ts format', () => {
  const check = (files: Record<string, string>, extra: ts.CompilerOptions = {}) => {
    const options: ts.CompilerOptions = {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noUncheckedIndexedAccess: true,
      types: [],
      ...extra,
    };
    const roots = Object.keys(files).map((f) => path.join(dir, f));
    const program = ts.createProgram(roots, options);
    return ts
      .getPreEmitDiagnostics(program)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
  };

  it('compiles with tsc, every value with its literal type, dark mode typed too', async () => {
    await writeFile(path.join(dir, 'tokens.ts'), await served('ts'));
    const use = `import { colorsBrandPrimary, dark, motionDurationNormal, tokens, typeStyleDisplay, typeWeightBold, type TokenName } from './tokens.js';
const primary: '#0b2545' = colorsBrandPrimary;
const darkPrimary: '#d5e1f2' = dark.colorsBrandPrimary;
const duration: '200ms' = motionDurationNormal;
const bold: 700 = typeWeightBold;
const tracking: '-0.02rem' = typeStyleDisplay.letterSpacing;
const name: TokenName = 'gradientsDawn';
export const used: string = primary + darkPrimary + duration + String(bold) + tracking + tokens[name];
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

  it('compiles with --isolatedDeclarations: every exported declaration has a type of its own', async () => {
    await writeFile(path.join(dir, 'tokens.ts'), await served('ts'));
    expect(check({ 'tokens.ts': '' }, { isolatedDeclarations: true, declaration: true })).toEqual([]);
    // The check is real: an untyped object of shorthand properties is what it refuses (TS9016).
    await writeFile(path.join(dir, 'untyped.ts'), 'const a = 1;\nexport const o = { a };\n');
    expect(check({ 'untyped.ts': '' }, { isolatedDeclarations: true, declaration: true }).join('\n')).toMatch(
      /TS9016/,
    );
  });

  it('has the same names and values as the js module', async () => {
    const jsFile = path.join(dir, 'same.mjs');
    await writeFile(jsFile, await served('js'));
    const tsFile = path.join(dir, 'same-ts.mjs');
    const out = ts.transpileModule(await served('ts'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    await writeFile(tsFile, out.outputText);
    const fromJs = (await import(pathToFileURL(jsFile).href)) as Record<string, unknown>;
    const fromTs = { ...((await import(pathToFileURL(tsFile).href)) as Record<string, unknown>) };
    expect(Object.keys(fromJs).length).toBeGreaterThan(100);
    const tokens = fromTs['tokens'];
    delete fromTs['tokens'];
    expect(fromTs).toEqual({ ...fromJs });
    const light = { ...fromJs };
    delete light['dark'];
    expect(tokens).toEqual(light);
  });
});
