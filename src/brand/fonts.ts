/**
 * The brand's web fonts: self-hosted @fontsource files, one @font-face stylesheet that imports
 * them, and the font stacks (family + fallbacks) builders and agents ask for.
 */
import { readFile } from 'node:fs/promises';
import type { BrandSource } from './read-brand-folder.js';

const UNICODE_RANGES: Record<string, string> = {
  latin:
    'U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD',
  'latin-ext':
    'U+0100-02BA, U+02BD-02C5, U+02C7-02CC, U+02CE-02D7, U+02DD-02FF, U+0304, U+0308, U+0329, U+1D00-1DBF, U+1E00-1E9F, U+1EF2-1EFF, U+2020, U+20A0-20AB, U+20AD-20C0, U+2113, U+2C60-2C7F, U+A720-A7FF',
};

export interface FontAsset {
  name: string;
  body: Buffer;
}

export type FontStack = {
  family: string;
  role: string;
  stack: string;
  fallback: string[];
  weights: number[];
  source: 'self-hosted';
  package: string;
  license: string;
  files: { weight: number; style: 'normal'; subset: string; format: 'woff2'; url: string; bytes: number }[];
};

export const quoteFamily = (f: string) => (/^[a-z-]+$/i.test(f) ? f : `'${f}'`);

export async function buildFonts(src: BrandSource, baseUrl: string) {
  const files: FontAsset[] = await Promise.all(
    src.fontFiles.map(async (f) => ({ name: f.fileName, body: await readFile(f.path) })),
  );
  const url = (name: string) => `${baseUrl}/static/fleet/fonts/${name}`;
  const faces = src.fontFiles.map(
    (f) =>
      `@font-face {\n  font-family: '${f.family}';\n  font-style: normal;\n  font-display: swap;\n  font-weight: ${f.weight};\n  src: url('./${f.fileName}') format('woff2');\n  unicode-range: ${UNICODE_RANGES[f.subset] ?? 'U+0000-FFFF'};\n}`,
  );
  const css = `/* ${src.info.name} web fonts, self-hosted from @fontsource. SIL Open Font License 1.1. */\n${faces.join('\n')}\n`;
  const bytes = new Map(files.map((f) => [f.name, f.body.length]));
  const stacks: Record<string, FontStack> = {};
  for (const [key, def] of Object.entries(src.fonts.stacks)) {
    stacks[key] = {
      family: def.family,
      role: def.role,
      stack: [def.family, ...def.fallback].map(quoteFamily).join(', '),
      fallback: def.fallback,
      weights: def.weights,
      source: 'self-hosted',
      package: def.package,
      license: 'OFL-1.1',
      files: src.fontFiles
        .filter((f) => f.stack === key)
        .map((f) => ({
          weight: f.weight,
          style: 'normal',
          subset: f.subset,
          format: 'woff2',
          url: url(f.fileName),
          bytes: bytes.get(f.fileName) ?? 0,
        })),
    };
  }
  return {
    css,
    files,
    response: {
      importUrl: `${baseUrl}/static/fleet/fonts/fonts.css`,
      import: `@import url('${baseUrl}/static/fleet/fonts/fonts.css');`,
      html: `<link rel="stylesheet" href="${baseUrl}/static/fleet/fonts/fonts.css">`,
      stacks,
      subsets: src.fonts.subsets,
    },
  };
}
