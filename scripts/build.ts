/**
 * `npm run build`: transpiles src/ to dist/ file by file with esbuild (no bundling, no type
 * check — `npm run check` does that), so `npm start` runs plain JavaScript and pays no
 * transpiler at start. dist/ mirrors src/, so paths relative to a module stay the same.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const REPO = path.resolve(import.meta.dirname, '..');
const entryPoints = (await readdir(path.join(REPO, 'src'), { recursive: true }))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => path.join('src', f));

await rm(path.join(REPO, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: REPO,
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
