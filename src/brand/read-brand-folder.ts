/**
 * Reads a brand folder from disk and checks all of it, collecting every problem (file, field,
 * reason) before giving up, so one run tells the author everything to fix.
 */
import { readFile, readdir, realpath } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { existsSync } from 'node:fs';
import type * as z from 'zod';
import { buildId, cacheKey, type DiskCache } from './disk-cache.js';
import { checkAliases, flattenTokens, type FlatToken } from './dtcg.js';
import { BrandInvalidError, type BrandProblem } from './problems.js';
import { svgChecker } from './svg-check.js';
import {
  assetsFileSchema,
  brandInfoSchema,
  docFrontMatterSchema,
  fontsFileSchema,
  REQUIRED_TOKEN_GROUPS,
  THEME_KEYS,
  themesFileSchema,
  type AssetsFile,
  type BrandInfo,
  type FontsFile,
  type ThemesFile,
} from './schema.js';

export interface SourceDoc {
  group: string;
  slug: string;
  order: number;
  file: string;
  title: string;
  summary: string;
  audience: string;
  markdown: string;
}

export interface FontFile {
  stack: string;
  family: string;
  weight: number;
  subset: string;
  path: string;
  fileName: string;
}

export interface BrandSource {
  dir: string;
  info: BrandInfo;
  themes: ThemesFile;
  fonts: FontsFile;
  fontFiles: FontFile[];
  tokens: { base: unknown; dark: unknown; flat: Map<string, FlatToken>; darkFlat: Map<string, FlatToken> };
  assets: AssetsFile;
  svgs: Map<string, string>;
  docs: SourceDoc[];
}

const require = createRequire(import.meta.url);

/**
 * Why `rel` is not a file inside the brand folder, or undefined when it is (or does not exist:
 * reading it says so). Every path the folder names is read through here, so none can reach
 * outside it, by "..", an absolute path or a symbolic link.
 */
async function outside(dir: string, rel: string): Promise<string | undefined> {
  if (path.isAbsolute(rel) || rel.split(/[\\/]/).includes('..'))
    return 'must be a path inside the brand folder (no "..", not absolute)';
  let root: string;
  let file: string;
  try {
    [root, file] = await Promise.all([realpath(dir), realpath(path.join(dir, rel))]);
  } catch {
    return undefined;
  }
  return file.startsWith(root + path.sep) ? undefined : 'resolves outside the brand folder (a symbolic link)';
}

async function readText(dir: string, rel: string, problems: BrandProblem[]): Promise<string | undefined> {
  const escape = await outside(dir, rel);
  if (escape) {
    problems.push({ file: rel, field: '(file)', reason: escape });
    return undefined;
  }
  try {
    return await readFile(path.join(dir, rel), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.push({
      file: rel,
      field: '(file)',
      reason: code === 'ENOENT' ? 'missing' : `cannot be read (${code ?? 'error'})`,
    });
    return undefined;
  }
}

async function readJson(dir: string, rel: string, problems: BrandProblem[]): Promise<unknown> {
  const raw = await readText(dir, rel, problems);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch (err) {
    problems.push({ file: rel, field: '(file)', reason: `not valid JSON: ${(err as Error).message}` });
    return undefined;
  }
}

function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  problems: BrandProblem[],
): z.infer<S> | undefined {
  if (value === undefined) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) {
    problems.push({ file, field: issue.path.join('.') || '(root)', reason: issue.message });
  }
  return undefined;
}

/** Cross-file theme checks, run on the raw file too so a schema error elsewhere does not hide them. */
function checkThemes(raw: unknown, info: BrandInfo | undefined, problems: BrandProblem[]): void {
  const funnels = (raw as { funnels?: unknown } | undefined)?.funnels;
  if (typeof funnels !== 'object' || funnels === null) return;
  const keys = Object.keys(funnels);
  for (const k of THEME_KEYS) {
    if (!keys.includes(k))
      problems.push({
        file: 'themes.json',
        field: `funnels.${k}`,
        reason: 'missing: every live funnel theme key is required',
      });
  }
  for (const k of keys) {
    if (!(THEME_KEYS as readonly string[]).includes(k)) {
      problems.push({
        file: 'themes.json',
        field: `funnels.${k}`,
        reason: `unknown funnel key; allowed: ${THEME_KEYS.join(', ')}`,
      });
    }
  }
  if (info) {
    const businesses = new Set(info.fleet.map((b) => b.key));
    for (const [k, t] of Object.entries(funnels as Record<string, { business?: unknown }>)) {
      if (typeof t.business === 'string' && !businesses.has(t.business)) {
        problems.push({
          file: 'themes.json',
          field: `funnels.${k}.business`,
          reason: `no business "${t.business}" in brand.json fleet`,
        });
      }
    }
  }
}

function checkTokens(base: unknown, dark: unknown, problems: BrandProblem[]) {
  const flat = flattenTokens(base, 'tokens/base.tokens.json', problems);
  const darkFlat = flattenTokens(dark, 'tokens/dark.tokens.json', problems);
  const groups = new Set([...flat.keys()].map((p) => p.split('.')[0]));
  for (const g of REQUIRED_TOKEN_GROUPS) {
    if (!groups.has(g))
      problems.push({ file: 'tokens/base.tokens.json', field: g, reason: 'required token group is missing' });
  }
  checkAliases(flat, flat, 'tokens/base.tokens.json', problems);
  const merged = new Map([...flat, ...darkFlat]);
  checkAliases(darkFlat, merged, 'tokens/dark.tokens.json', problems);
  for (const [p, t] of darkFlat) {
    const baseToken = flat.get(p);
    if (!baseToken)
      problems.push({
        file: 'tokens/dark.tokens.json',
        field: p,
        reason: 'overrides a token that base.tokens.json does not define',
      });
    else if (baseToken.type !== t.type) {
      problems.push({
        file: 'tokens/dark.tokens.json',
        field: p,
        reason: `type ${t.type} differs from base type ${baseToken.type}`,
      });
    }
  }
  return { flat, darkFlat };
}

function fontFilesFor(fonts: FontsFile, problems: BrandProblem[]): FontFile[] {
  const out: FontFile[] = [];
  for (const [stack, def] of Object.entries(fonts.stacks)) {
    let pkgDir: string;
    try {
      pkgDir = path.dirname(require.resolve(`${def.package}/package.json`));
    } catch {
      problems.push({
        file: 'fonts.json',
        field: `stacks.${stack}.package`,
        reason: `package ${def.package} is not installed`,
      });
      continue;
    }
    const name = def.package.replace('@fontsource/', '');
    for (const subset of fonts.subsets) {
      for (const weight of def.weights) {
        const fileName = `${name}-${subset}-${weight}-normal.woff2`;
        const full = path.join(pkgDir, 'files', fileName);
        if (!existsSync(full)) {
          problems.push({
            file: 'fonts.json',
            field: `stacks.${stack}.weights`,
            reason: `${def.package} has no ${subset} ${weight} file`,
          });
          continue;
        }
        out.push({ stack, family: def.family, weight, subset, path: full, fileName });
      }
    }
  }
  return out;
}

/**
 * A YAML parser whose results are kept in the build cache by text: a restart with unchanged
 * documents neither loads the parser (~250 KB of bundle) nor runs it.
 */
function cachedYaml(cache: DiskCache | undefined): (text: string) => Promise<unknown> {
  let parser: Promise<{ parse: (text: string) => unknown }> | undefined;
  let build: string | undefined;
  return async (text) => {
    const key = cache ? cacheKey((build ??= buildId(import.meta.url, 'yaml')), text) : undefined;
    const hit = key ? cache?.getSync(key) : undefined;
    if (hit) return JSON.parse(hit.toString('utf8')) as unknown;
    parser ??= import('./yaml-parse.js');
    const value = (await parser).parse(text);
    let exact = true;
    const json = JSON.stringify(value ?? null, (_k, v: unknown): unknown => {
      if (typeof v === 'number' && !Number.isFinite(v)) exact = false; // .inf and .nan have no JSON
      return v;
    });
    if (key && exact) cache?.setSync(key, Buffer.from(json));
    return value;
  };
}

async function readDocs(
  dir: string,
  info: BrandInfo | undefined,
  problems: BrandProblem[],
  parseYaml: (text: string) => Promise<unknown>,
): Promise<SourceDoc[]> {
  const docs: SourceDoc[] = [];
  const root = path.join(dir, 'docs');
  let groupDirs: string[];
  try {
    groupDirs = (await readdir(root, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    problems.push({ file: 'docs/', field: '(folder)', reason: 'missing' });
    return docs;
  }
  const declared = new Set(info?.docGroups.map((g) => g.key) ?? []);
  const slugs = new Map<string, string>();
  for (const group of groupDirs.sort()) {
    if (info && !declared.has(group)) {
      problems.push({
        file: `docs/${group}/`,
        field: '(folder)',
        reason: 'group is not declared in brand.json docGroups',
      });
      continue;
    }
    const files = (await readdir(path.join(root, group))).filter((f) => f.endsWith('.md')).sort();
    for (const f of files) {
      const rel = `docs/${group}/${f}`;
      const m = /^(\d{2})-([a-z0-9-]+)\.md$/.exec(f);
      if (!m?.[1] || !m[2]) {
        problems.push({ file: rel, field: '(name)', reason: 'file name must look like 01-some-slug.md' });
        continue;
      }
      const raw = await readText(dir, rel, problems);
      if (raw === undefined) continue;
      const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(raw);
      if (!fm) {
        problems.push({
          file: rel,
          field: '(front matter)',
          reason: 'must start with YAML front matter between --- lines',
        });
        continue;
      }
      let meta: unknown;
      try {
        meta = await parseYaml(fm[1] ?? '');
      } catch (err) {
        problems.push({
          file: rel,
          field: '(front matter)',
          reason: `not valid YAML: ${(err as Error).message.split('\n')[0]}`,
        });
        continue;
      }
      const front = check(docFrontMatterSchema, meta ?? {}, rel, problems);
      if (!front) continue;
      const slug = m[2];
      const clash = slugs.get(slug);
      if (clash)
        problems.push({ file: rel, field: '(name)', reason: `slug "${slug}" is also used by ${clash}` });
      slugs.set(slug, rel);
      docs.push({
        group,
        slug,
        order: Number(m[1]),
        file: rel,
        ...front,
        markdown: (fm[2] ?? '').trim() + '\n',
      });
    }
  }
  if (docs.length === 0 && groupDirs.length > 0)
    problems.push({ file: 'docs/', field: '(folder)', reason: 'holds no documents' });
  return docs;
}

/** The drawn theme icons themes.json names (paths below assets/); an alt text needs its icon. */
function themeIconFiles(themes: ThemesFile, problems: BrandProblem[]): string[] {
  const files: string[] = [];
  for (const kind of ['official', 'funnels'] as const) {
    for (const [k, t] of Object.entries(themes[kind])) {
      if (t.iconFile) files.push(t.iconFile);
      else if (t.iconAlt)
        problems.push({
          file: 'themes.json',
          field: `${kind}.${k}.iconAlt`,
          reason: 'describes an icon, but the theme has no iconFile',
        });
    }
  }
  return files;
}

async function readSvgs(
  dir: string,
  assets: AssetsFile,
  extra: string[],
  problems: BrandProblem[],
  cache: DiskCache | undefined,
): Promise<Map<string, string>> {
  const check = svgChecker(cache);
  const names = new Set([
    ...assets.files.map((f) => f.file),
    assets.iconSet.source,
    assets.iconSet.tileSource,
    assets.social.template,
    ...extra,
  ]);
  const svgs = new Map<string, string>();
  for (const name of names) {
    const rel = `assets/${name}`;
    const svg = await readText(dir, rel, problems);
    if (svg === undefined) continue;
    const refused = await check(svg);
    for (const reason of refused) problems.push({ file: rel, field: '(file)', reason });
    if (refused.length === 0) svgs.set(name, svg);
  }
  const ids = new Set<string>();
  for (const [i, f] of assets.files.entries()) {
    if (ids.has(f.id))
      problems.push({ file: 'assets/assets.json', field: `files.${i}.id`, reason: `duplicate id "${f.id}"` });
    ids.add(f.id);
  }
  return svgs;
}

/** @param opts.cache where parsed front matter is kept between starts (none: parsed every time) */
export async function readBrandFolder(dir: string, opts: { cache?: DiskCache } = {}): Promise<BrandSource> {
  const problems: BrandProblem[] = [];
  const [infoRaw, themesRaw, fontsRaw, assetsRaw, baseRaw, darkRaw] = await Promise.all([
    readJson(dir, 'brand.json', problems),
    readJson(dir, 'themes.json', problems),
    readJson(dir, 'fonts.json', problems),
    readJson(dir, 'assets/assets.json', problems),
    readJson(dir, 'tokens/base.tokens.json', problems),
    readJson(dir, 'tokens/dark.tokens.json', problems),
  ]);
  const info = check(brandInfoSchema, infoRaw, 'brand.json', problems);
  const themes = check(themesFileSchema, themesRaw, 'themes.json', problems);
  const fonts = check(fontsFileSchema, fontsRaw, 'fonts.json', problems);
  const assets = check(assetsFileSchema, assetsRaw, 'assets/assets.json', problems);
  checkThemes(themesRaw, info, problems);
  const tokenMaps =
    baseRaw !== undefined && darkRaw !== undefined ? checkTokens(baseRaw, darkRaw, problems) : undefined;
  const fontFiles = fonts ? fontFilesFor(fonts, problems) : [];
  const iconFiles = themes ? themeIconFiles(themes, problems) : [];
  const svgs = assets
    ? await readSvgs(dir, assets, iconFiles, problems, opts.cache)
    : new Map<string, string>();
  const docs = await readDocs(dir, info, problems, cachedYaml(opts.cache));
  if (problems.length > 0 || !info || !themes || !fonts || !assets || !tokenMaps) {
    throw new BrandInvalidError(dir, problems);
  }
  return {
    dir,
    info,
    themes,
    fonts,
    fontFiles,
    tokens: { base: baseRaw, dark: darkRaw, ...tokenMaps },
    assets,
    svgs,
    docs,
  };
}
