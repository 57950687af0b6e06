/**
 * `npm run build`: bundles the service into dist/ with esbuild (no type check — `npm run check`
 * does that), so `npm start` runs plain JavaScript and pays neither a transpiler nor the loading
 * of ~1,100 separate modules at start (the before/after is in BENCHMARKS.md's git history). Four entries,
 * dist/main.js (the service), dist/cli.js (`fleetgate <command>`, package.json's bin),
 * dist/sandbox.js (the emulator, packages/platform-emulator, which the service forks) and
 * dist/client.js (the typed client, package.json's `fleetgate/client` for plain Node), share
 * chunks; every output file sits at the top of dist/, which src/app-root.ts and the emulator's
 * child-process.ts (dist/sandbox.js beside it) rely on. The process tests run these files (the
 * suite builds them first, test/dist-setup.ts), so what is only loaded from the bundle is tested.
 * Packages stay external where they load files relative to themselves (native addons, wasm,
 * worker threads) or are loaded only on a cold brand build.
 * The new tree is built beside dist/ and swapped in by rename, so a build never leaves a
 * half-written dist/ under a running service (or a concurrent bench).
 */
import { chmod, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { SD_MODULE_BUILD, SD_MODULE_FILE } from '../src/brand/sd-module-text.js';

const REPO = path.resolve(import.meta.dirname, '..');

/** Not bundled: native addons, wasm, files found through __dirname, optional peers, cold-build-only tools. */
const EXTERNAL = [
  'better-sqlite3', // native addon found through `bindings`
  'better-sqlite3-napi', // its Node 22+ build, prebuilt per platform (src/store/dialects/sqlite-driver.ts)
  '@resvg/resvg-js', // native addon per platform
  'wawoff2', // wasm beside its code
  'pino', // transports run thread-stream's worker file by path
  'pino-pretty', // only on a terminal (src/log-terminal.ts)
  'ioredis', // reads its package.json through __dirname; loaded only with REDIS_URL
  'style-dictionary', // only when the tokens CSS is rebuilt
  'esbuild', // its binary is found beside its code; the bundle reads the prebuilt Style Dictionary module
  'pg-native', // pg's optional native driver, not installed
  'fsevents', // chokidar's optional macOS watcher
  // Fastify's JSON-schema compilers and its inject(): required only on first use (src/http/schema-compilers.ts)
  '@fastify/ajv-compiler',
  '@fastify/fast-json-stringify-compiler',
  'light-my-request',
];

/** Whether two directories hold the same files with the same bytes (false when b is missing). */
async function sameTree(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([readdir(a), readdir(b).catch(() => undefined)]);
  if (!right || left.length !== right.length) return false;
  for (const name of left) {
    const [x, y] = await Promise.all([
      readFile(path.join(a, name)),
      readFile(path.join(b, name)).catch(() => undefined),
    ]);
    if (!y || !x.equals(y)) return false;
  }
  return true;
}

export async function buildDist(): Promise<void> {
  const next = path.join(REPO, `dist.${process.pid}.tmp`);
  const old = path.join(REPO, `dist.${process.pid}.old`);
  await build({
    absWorkingDir: REPO,
    entryPoints: {
      main: 'src/main.ts',
      cli: 'src/cli/main.ts',
      sandbox: 'packages/platform-emulator/src/main.ts',
      client: 'src/client/index.ts',
    },
    outdir: next,
    bundle: true,
    splitting: true,
    external: EXTERNAL,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // CommonJS dependencies call require(); an ES module has none unless given one.
    banner: {
      js: "import { createRequire as __fgCreateRequire } from 'node:module'; const require = __fgCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The Style Dictionary module the brand publishes (src/brand/sd-module-text.ts), beside main.js.
  await build({ ...SD_MODULE_BUILD, outfile: path.join(next, SD_MODULE_FILE) });
  // package.json's bin: runnable as ./dist/cli.js too (esbuild keeps the entry's #! line).
  await chmod(path.join(next, 'cli.js'), 0o755);
  // Unchanged (the suite's global setup and a bench both build): dist/ stays as it is, so no
  // process running from it meets the moment between the two renames without a dist/.
  if (await sameTree(next, path.join(REPO, 'dist'))) {
    await rm(next, { recursive: true, force: true });
    return;
  }
  await rename(path.join(REPO, 'dist'), old).catch(() => undefined);
  await rename(next, path.join(REPO, 'dist'));
  await rm(old, { recursive: true, force: true });
}

// Run as a script (npm run build, npm start's prestart); imported, it only defines buildDist.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildDist();
