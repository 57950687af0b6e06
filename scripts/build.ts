/**
 * `npm run build`: transpiles src/ to dist/ file by file with esbuild (no bundling, no type
 * check — `npm run check` does that), so `npm start` runs plain JavaScript and pays no
 * transpiler at start. dist/ mirrors src/, so paths relative to a module stay the same.
 * The new tree is built beside dist/ and swapped in by rename, so a build never leaves a
 * half-written dist/ under a running service (or a concurrent bench).
 */
import { readdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const REPO = path.resolve(import.meta.dirname, '..');
const entryPoints = (await readdir(path.join(REPO, 'src'), { recursive: true }))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  .map((f) => path.join('src', f));

const next = path.join(REPO, `dist.${process.pid}.tmp`);
const old = path.join(REPO, `dist.${process.pid}.old`);
await build({
  absWorkingDir: REPO,
  entryPoints,
  outdir: next,
  outbase: 'src',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
await rename(path.join(REPO, 'dist'), old).catch(() => undefined);
await rename(next, path.join(REPO, 'dist'));
await rm(old, { recursive: true, force: true });
