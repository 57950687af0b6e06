/**
 * A consumer running Style Dictionary 4 on GET /api/brand/tokens itself. Stock, it prints
 * `[object Object]` for the DTCG object values and turns the dark overrides under $extensions
 * into tokens of their own; with the module the service publishes
 * (/static/fleet/tokens/style-dictionary.js, imported as served) every value comes out as the
 * service's own tokens.css has it, in light mode and in dark.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import StyleDictionary from 'style-dictionary';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let dir: string;
let tokensFile: string;
beforeAll(async () => {
  t = await buildTestApp();
  dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-sd-consumer-'));
  tokensFile = path.join(dir, 'tokens.json');
  await writeFile(tokensFile, (await t.app.inject({ url: '/api/brand/tokens' })).body);
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

/** `--name: value` of every declaration in a CSS text, the first of each name. */
function declared(css: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of css.matchAll(/^\s*--([a-z0-9-]+): ([^;]+);/gm))
    if (m[1] && m[2] && !out.has(m[1])) out.set(m[1], m[2].trim());
  return out;
}

async function build(sd: StyleDictionary, platform: string): Promise<string> {
  const [out] = await sd.formatPlatform(platform);
  return typeof out?.output === 'string' ? out.output : '';
}

const log = { verbosity: 'silent', warnings: 'disabled' } as const;

describe('Style Dictionary on the served DTCG document', () => {
  it('stock, prints [object Object] and makes the dark overrides into tokens', async () => {
    const sd = new StyleDictionary({
      source: [tokensFile],
      log,
      platforms: {
        css: { transformGroup: 'css', files: [{ destination: 'x.css', format: 'css/variables' }] },
      },
    });
    const css = await build(sd, 'css');
    expect(css).toContain('[object Object]');
    expect(css).toMatch(/--extensions-org-fleetgate-modes-dark-colors-brand-primary/);
  });

  it("with the published module, builds each mode with the service's own values", async () => {
    const res = await t.app.inject({ url: '/static/fleet/tokens/style-dictionary.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // Self-contained: nothing to resolve but itself.
    expect(res.body).not.toMatch(/^\s*import\b/m);
    const file = path.join(dir, 'style-dictionary.mjs');
    await writeFile(file, res.body);
    const mod = (await import(pathToFileURL(file).href)) as {
      register: (sd: typeof StyleDictionary) => void;
    };
    mod.register(StyleDictionary);
    const platform = (mode: string) => ({
      transforms: ['name/kebab', 'fleetgate/dtcg-css'],
      files: [{ destination: `${mode}.css`, format: 'css/variables' }],
    });
    const light = new StyleDictionary({
      source: [tokensFile],
      preprocessors: ['fleetgate/light'],
      log,
      platforms: { css: platform('light') },
    });
    const dark = new StyleDictionary({
      source: [tokensFile],
      preprocessors: ['fleetgate/dark'],
      log,
      platforms: { css: platform('dark') },
    });
    const lightCss = await build(light, 'css');
    const darkCss = await build(dark, 'css');
    for (const css of [lightCss, darkCss]) {
      expect(css).not.toContain('[object Object]');
      expect(css).not.toMatch(/--extensions-/);
    }
    const ours = (await t.app.inject({ url: '/api/brand/tokens.css' })).body;
    const [root = '', darkBlock = ''] = ours.split('/* Dark mode');
    const lightOurs = declared(root);
    const lightTheirs = declared(lightCss);
    expect(lightTheirs.size).toBe(117);
    // Ours keep aliases as var() chains; theirs are resolved: compare where ours has a value.
    for (const [name, value] of lightOurs)
      if (!value.includes('var(')) expect(lightTheirs.get(name), name).toBe(value);
    expect(lightTheirs.get('motion-transition-default')).toBe('200ms cubic-bezier(0.2, 0, 0, 1) 0ms');
    expect(lightTheirs.get('gradients-dawn')).toBe('linear-gradient(135deg, #0b2545 0%, #e0a526 100%)');
    const darkTheirs = declared(darkCss);
    expect(darkTheirs.get('colors-brand-primary')).toBe('#d5e1f2');
    expect(darkTheirs.get('colors-text-default')).toBe(declared(darkBlock).get('colors-text-default'));
    expect(darkTheirs.get('colors-palette-navy-900')).toBe('#0b2545');
  });
});
