/**
 * `postinstall`: builds the one native addon, native/malloc-trim (glibc's malloc_trim for the
 * native-heap trimmer, src/memory/native-heap.ts), with the node-gyp npm ships, against the local
 * Node headers when they are installed (no download). It is optional: where it cannot be built
 * (no compiler, not glibc) the service runs without trimming, so this never fails the install.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
const dir = path.join(REPO, 'native/malloc-trim');

function warn(why: string): never {
  process.stderr.write(`fleetgate: native heap trimming not built (${why}); the service runs without it\n`);
  process.exit(0);
}

if (process.platform !== 'linux') warn(`not on Linux but ${process.platform}`);
// npm names its own node-gyp for lifecycle scripts; elsewhere, one on the PATH.
const gyp = process.env['npm_config_node_gyp'];
const [cmd, first] = gyp ? [process.execPath, [gyp]] : ['node-gyp', []];
const args = [...first, 'rebuild', '--loglevel=warn', `--directory=${dir}`];
// The headers of the running Node, when its prefix has them: node-gyp would download them.
const prefix = path.resolve(path.dirname(process.execPath), '..');
if (existsSync(path.join(prefix, 'include/node/node_api.h'))) args.push(`--nodedir=${prefix}`);
const r = spawnSync(cmd, args, { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
if (r.error) warn(r.error.message);
if (r.status !== 0) warn(`node-gyp exited with ${r.status}`);
