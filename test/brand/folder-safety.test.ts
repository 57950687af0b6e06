/**
 * What the brand folder may hold, beyond its schemas: SVGs are parsed and held to an allow-list
 * (namespaced scripts, entity-encoded javascript: links, animations of event handlers, foreign
 * content and fetching styles are refused, and every SVG of the default brand passes), every path
 * the folder names stays inside it (no "..", no absolute path, no symbolic link out), and the
 * documents' Markdown links keep only http(s), mailto and relative targets.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/brand/disk-cache.js';
import { markdownToHtml } from '../../src/brand/doc-pages.js';
import { BrandInvalidError, type BrandProblem } from '../../src/brand/problems.js';
import { readBrandFolder } from '../../src/brand/read-brand-folder.js';
import { svgChecker } from '../../src/brand/svg-check.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { buildTestApp, eventually, REPO } from '../helpers/build-test-app.js';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const svg = (body: string, attrs = '') => `<svg ${NS}${attrs} viewBox="0 0 10 10">${body}</svg>`;

let dir: string;
let outsideDir: string;
let outsideSvg: string;
const original = new Map<string, string>();

beforeAll(async () => {
  dir = await copyBrand();
  outsideDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-outside-'));
  outsideSvg = path.join(outsideDir, 'mark.svg');
  await writeFile(outsideSvg, svg('<rect width="10" height="10" fill="#f00"/>'));
  for (const f of ['assets/icon.svg', 'assets/assets.json', 'themes.json'])
    original.set(f, await readFile(path.join(dir, f), 'utf8'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outsideDir, { recursive: true, force: true });
});

/** The problems reading the folder reports (none: it loaded). */
async function problems(): Promise<BrandProblem[]> {
  try {
    await readBrandFolder(dir);
    return [];
  } catch (err) {
    if (err instanceof BrandInvalidError) return err.problems;
    throw err;
  }
}
const restore = async () => {
  for (const [f, text] of original) await writeFile(path.join(dir, f), text);
};

describe('SVGs in the brand folder', () => {
  // assets/icon.svg is the icon set's source, served byte for byte as /static/fleet/assets/icons/icon.svg.
  const refused: [string, string, RegExp][] = [
    [
      'a script in the SVG namespace under another prefix',
      svg('<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>'),
      /^refused element <x:script>: not in the SVG allow-list$/,
    ],
    [
      'an entity-encoded javascript: link on <a>',
      svg('<a href="&#106;avascript:alert(1)"><rect width="10" height="10"/></a>'),
      /^refused element <a>/,
    ],
    [
      'an entity-encoded javascript: link on <use>',
      svg('<use xlink:href="&#106;avascript:alert(1)"/>', ` ${XLINK}`),
      /^refused xlink:href="javascript:alert\(1\)" on <use>: links may only point at #id/,
    ],
    [
      'an animation that sets an event handler',
      svg('<rect width="10" height="10"><set attributeName="onmouseover" to="alert(1)"/></rect>'),
      /^refused <set attributeName="onmouseover">: animations may only change presentation attributes/,
    ],
    [
      'an animation that retargets a link',
      svg('<use href="#a"><animate attributeName="href" values="#a;#b"/></use>'),
      /^refused <animate attributeName="href">/,
    ],
    [
      'foreign content with an iframe',
      svg(
        '<foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/></foreignObject>',
      ),
      /^refused element <foreignObject>/,
    ],
    [
      'an event handler attribute',
      svg('<rect width="10" height="10" onclick="alert(1)"/>'),
      /^refused attribute onclick on <rect>: event handlers are not allowed$/,
    ],
    [
      'a style that imports',
      svg('<style>@import url(https://evil.example/x.css);</style>'),
      /^refused @import in <style>$/,
    ],
    [
      'a style with a javascript: url',
      svg('<style>rect { fill: url(javascript:alert(1)) }</style>'),
      /^refused scripted CSS in <style>$/,
    ],
    [
      'a style attribute fetching another resource',
      svg('<rect width="10" height="10" style="fill:url(https://evil.example/p.svg#x)"/>'),
      /^refused url\(https:\/\/evil\.example\/p\.svg#x\).* in attribute style on <rect>$/,
    ],
    [
      'an image loaded from elsewhere',
      svg('<image href="https://evil.example/pixel.png" width="10" height="10"/>'),
      /^refused href="https:\/\/evil\.example\/pixel\.png" on <image>/,
    ],
    [
      'an SVG image inlined (it could hold a script)',
      svg('<image href="data:image/svg+xml;base64,PHN2Zz4="/>'),
      /^refused href="data:image\/svg\+xml/,
    ],
    ['a DTD with entities', `<!DOCTYPE svg [<!ENTITY e "x">]>${svg('<rect/>')}`, /^refused a DOCTYPE/],
    ['markup that is not well-formed', svg('<rect>'), /^is not well-formed XML: /],
    ['an SVG root outside the SVG namespace', '<svg><rect/></svg>', /^is not an SVG document/],
  ];

  for (const [what, text, reason] of refused) {
    it(`refuses ${what}, naming the file and what was refused`, async () => {
      await writeFile(path.join(dir, 'assets/icon.svg'), text);
      const found = await problems();
      await restore();
      expect(found, JSON.stringify(found)).toContainEqual({
        file: 'assets/icon.svg',
        field: '(file)',
        reason: expect.stringMatching(reason),
      });
    });
  }

  it('accepts local references, an inlined raster and the presentation set', async () => {
    await writeFile(
      path.join(dir, 'assets/icon.svg'),
      `<?xml version="1.0" encoding="UTF-8"?>\n${svg(
        '<title>ok</title><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>' +
          '<clipPath id="c"><circle cx="5" cy="5" r="5"/></clipPath></defs>' +
          '<rect id="r" width="10" height="10" fill="url(#g)" clip-path="url(#c)" style="opacity:.9"/>' +
          '<use xlink:href="#r" x="1"/><image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>' +
          '<circle cx="5" cy="5" r="1"><animate attributeName="r" values="1;2;1" dur="2s" repeatCount="indefinite"/></circle>',
        ` ${XLINK}`,
      )}`,
    );
    const found = await problems();
    await restore();
    expect(found).toEqual([]);
  });

  it('passes every SVG of the default brand', async () => {
    const check = svgChecker(undefined);
    const files = (await readdir(path.join(REPO, 'brand'), { recursive: true })).filter((f) =>
      f.endsWith('.svg'),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const f of files)
      expect(await check(await readFile(path.join(REPO, 'brand', f), 'utf8')), f).toEqual([]);
  });

  it("keeps each file's verdict in the build cache by its text", async () => {
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-svg-cache-'));
    try {
      const cache = new DiskCache(cacheDir);
      await readBrandFolder(dir, { cache });
      const verdicts = readdirSync(cacheDir).filter((e) => e.endsWith('.svgcheck'));
      expect(verdicts.length).toBeGreaterThan(20);
      // Proof the second read takes the verdict from the cache: every entry now refuses.
      for (const v of verdicts)
        writeFileSync(path.join(cacheDir, v), JSON.stringify(['refused by the cache']));
      const err = await readBrandFolder(dir, { cache }).catch((e: unknown) => e);
      expect((err as BrandInvalidError).problems).toContainEqual({
        file: 'assets/icon.svg',
        field: '(file)',
        reason: 'refused by the cache',
      });
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it('keeps serving the last good icon when a watched edit adds a namespaced script', async () => {
    const t = await buildTestApp({ brandDir: dir, watch: true });
    try {
      const before = await t.app.inject('/static/fleet/assets/icons/icon.svg');
      expect(before.statusCode).toBe(200);
      await writeFile(
        path.join(dir, 'assets/icon.svg'),
        svg('<x:script xmlns:x="http://www.w3.org/2000/svg">alert(1)</x:script>'),
      );
      await eventually(() =>
        expect(
          t
            .logs()
            .some(
              (l) =>
                l.includes('brand edit rejected') &&
                l.includes('assets/icon.svg') &&
                l.includes('<x:script>'),
            ),
        ).toBe(true),
      );
      const after = await t.app.inject('/static/fleet/assets/icons/icon.svg');
      expect(after.body).toBe(before.body);
      expect(after.body).not.toContain('script');
    } finally {
      await t.close();
      await restore();
    }
  });
});

describe('paths the brand folder names', () => {
  const fromAssets = () => path.relative(path.join(dir, 'assets'), outsideSvg);

  it('refuses "..", absolute paths and names the field', async () => {
    await editJson(dir, 'assets/assets.json', (a) => {
      a.iconSet.source = fromAssets();
      a.iconSet.tileSource = outsideSvg;
      a.social.template = '../social-template.svg';
    });
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.iconFile = fromAssets();
    });
    const found = await problems();
    await restore();
    for (const [file, field] of [
      ['assets/assets.json', 'iconSet.source'],
      ['assets/assets.json', 'iconSet.tileSource'],
      ['assets/assets.json', 'social.template'],
      ['themes.json', 'funnels.freight.iconFile'],
    ])
      expect(found, `${field}: ${JSON.stringify(found)}`).toContainEqual({
        file,
        field,
        reason: expect.stringMatching(/inside the assets folder/),
      });
  });

  it('refuses a symbolic link out of the folder, for an SVG and a document alike', async () => {
    const icon = path.join(dir, 'assets/themes/freight.svg');
    const iconText = await readFile(icon, 'utf8');
    const doc = path.join(dir, 'docs/sales/06-leak.md');
    const outsideDoc = path.join(outsideDir, 'secret.md');
    await writeFile(
      outsideDoc,
      '---\ntitle: Secret\nsummary: Not brand\naudience: Nobody\n---\n\nA secret.\n',
    );
    await unlink(icon);
    await symlink(outsideSvg, icon);
    await symlink(outsideDoc, doc);
    const found = await problems();
    await unlink(icon);
    await writeFile(icon, iconText);
    await unlink(doc);
    for (const file of ['assets/themes/freight.svg', 'docs/sales/06-leak.md'])
      expect(found, JSON.stringify(found)).toContainEqual({
        file,
        field: '(file)',
        reason: 'resolves outside the brand folder (a symbolic link)',
      });
  });

  it('follows a symbolic link that stays inside the folder', async () => {
    const alias = path.join(dir, 'assets/themes/freight-alias.svg');
    await symlink('freight.svg', alias);
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.iconFile = 'themes/freight-alias.svg';
    });
    const found = await problems();
    await restore();
    await unlink(alias);
    expect(found).toEqual([]);
  });
});

describe('links in brand documents', () => {
  const BAD = [
    '[a](javascript:alert(1))',
    '[b](&#106;avascript:alert(2))',
    '[c](java&#9;script:alert(3))',
    '<javascript:alert(4)>',
    '[e](JAVASCRIPT:alert(5))',
    '[f]( \tjavascript:alert(6))',
    '[g](data:text/html,<script>alert(7)</script>)',
    '[h](vbscript:msgbox(8))',
    '[i][ref]',
    '![j](javascript:alert(10))',
    '![k](data:image/svg+xml,<svg/>)',
    '![l](mailto:brand@example.com)',
  ];
  const GOOD: [string, string, string][] = [
    ['[ok1](https://example.com/a?b=1&c=2)', 'href', 'https://example.com/a?b=1&c=2'],
    ['[ok2](http://example.com)', 'href', 'http://example.com'],
    ['[ok3](mailto:brand@example.com)', 'href', 'mailto:brand@example.com'],
    ['[ok4](/api/brand)', 'href', '/api/brand'],
    ['[ok5](02-voice-and-tone.html)', 'href', '02-voice-and-tone.html'],
    ['[ok6](#top)', 'href', '#top'],
    ['![ok7](https://example.com/x.png)', 'src', 'https://example.com/x.png'],
  ];
  const markdown = [...BAD, ...GOOD.map((g) => g[0])].join('\n\n') + '\n\n[ref]: javascript:alert(9)\n';

  /** Every link and image target as a browser reads it (entities decoded, resolved against the page). */
  const targets = (html: string) => {
    const doc = new DOMParser().parseFromString(
      `<!doctype html><html><body>${html}</body></html>`,
      'text/html',
    );
    const out: { attr: string; value: string; protocol: string }[] = [];
    for (const [tag, attr] of [
      ['a', 'href'],
      ['img', 'src'],
    ] as const) {
      const els = doc.getElementsByTagName(tag);
      for (let i = 0; i < els.length; i++) {
        const value = els.item(i)?.getAttribute(attr) ?? '';
        out.push({
          attr,
          value,
          protocol: new URL(value, 'https://brand.test/static/fleet/docs/x.html').protocol,
        });
      }
    }
    return out;
  };

  it('keep only http(s), mailto and relative targets; others are shown as their text', async () => {
    const html = await markdownToHtml(markdown);
    const found = targets(html);
    for (const t of found) expect(['https:', 'http:', 'mailto:'], JSON.stringify(t)).toContain(t.protocol);
    expect(found.filter((t) => t.attr === 'src').map((t) => t.protocol)).not.toContain('mailto:');
    for (const [, attr, value] of GOOD)
      expect(found).toContainEqual({ attr, value, protocol: expect.any(String) });
    for (const text of ['>a<', '>e<', '>h<', '>i<']) expect(html.replace(/<a [^>]*>/g, '>')).toContain(text);
    expect(html).not.toMatch(/<a href="(?:javascript|vbscript|data):/i);
  });

  it('holds in the served document page', async () => {
    await writeFile(
      path.join(dir, 'docs/sales/06-links.md'),
      `---\ntitle: Links\nsummary: Links of every kind\naudience: Tests\n---\n\n${markdown}`,
    );
    const t = await buildTestApp({ brandDir: dir });
    try {
      const page = await t.app.inject('/static/fleet/docs/links.html');
      expect(page.statusCode).toBe(200);
      const main = /<main class="doc">([\s\S]*)<\/main>/.exec(page.body)?.[1] ?? '';
      const found = targets(main);
      expect(found.length).toBeGreaterThan(GOOD.length);
      for (const f of found) expect(['https:', 'http:', 'mailto:'], JSON.stringify(f)).toContain(f.protocol);
    } finally {
      await t.close();
      await unlink(path.join(dir, 'docs/sales/06-links.md'));
    }
  });
});
