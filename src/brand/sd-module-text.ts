/**
 * The text of the Style Dictionary module the service publishes (sd-module.ts, with css-values.ts
 * bundled in): one ES module a consumer imports as is. From source it is bundled here by esbuild
 * (and kept in the disk cache); the build (scripts/build.ts) writes the same bundle beside
 * dist/main.js, which the bundled service reads.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { APP_ROOT, FROM_SOURCE } from '../app-root.js';
import { buildIdOf, cacheKey, type DiskCache } from './disk-cache.js';

/** Its name under /static/fleet/tokens/ and beside dist/main.js. */
export const SD_MODULE_FILE = 'style-dictionary.js';

/** How the module is bundled, here and by the build. */
export const SD_MODULE_BUILD: BuildOptions = {
  absWorkingDir: APP_ROOT,
  entryPoints: ['src/brand/sd-module.ts'],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
};

const BUILD = buildIdOf(import.meta.url, ['sd-module', 'css-values'], 'esbuild');

export async function sdModuleText(cache: DiskCache): Promise<string> {
  if (!FROM_SOURCE) return readFile(path.join(APP_ROOT, 'dist', SD_MODULE_FILE), 'utf8');
  const bytes = await cache.memo(`${cacheKey(BUILD)}.sd-module.js`, async () => {
    const { build } = await import('esbuild');
    const out = await build({ ...SD_MODULE_BUILD, write: false, outfile: SD_MODULE_FILE });
    const file = out.outputFiles[0];
    if (!file) throw new Error('esbuild wrote no Style Dictionary module');
    return Buffer.from(file.contents);
  });
  return bytes.toString('utf8');
}
