/**
 * The previous release, built as it shipped, for the two-version test: release/previous.json names
 * its commit; `git archive` of that commit (from this clone's history, which CI's full clone of
 * main has) is unpacked into a temporary folder, given this checkout's installed packages and
 * built with its own build script (esbuild), so `npm start`'s command line from its own
 * package.json runs its own dist/main.js. The installed packages serve it only if every runtime
 * package its lockfile names is installed here at the same version (each is checked); otherwise
 * it gets its own `npm ci --omit=dev`, which needs the registry, and the test says so.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { REPO } from '../helpers/build-test-app.js';

const run = promisify(execFile);

export interface ReleaseRecord {
  commit: string;
  /** The newest migration that release has. */
  migration: string;
}

export interface PreviousRelease extends ReleaseRecord {
  dir: string;
  /** Its `npm start` command line: node, its flags and its dist/main.js. */
  command: [string, ...string[]];
  /** How its packages were provided, and how long unpacking and building took. */
  packages: 'installed' | 'own npm ci';
  buildMs: number;
  remove(): Promise<void>;
}

export const releaseRecord = (): ReleaseRecord =>
  JSON.parse(readFileSync(path.join(REPO, 'release/previous.json'), 'utf8')) as ReleaseRecord;

/** Why this clone cannot build it (no such commit: a shallow clone), or undefined. */
export async function unavailable(commit: string): Promise<string | undefined> {
  try {
    await run('git', ['-C', REPO, 'cat-file', '-e', `${commit}^{commit}`]);
    return undefined;
  } catch {
    return `commit ${commit} (release/previous.json) is not in this clone's history; clone with full history`;
  }
}

interface LockPackage {
  version?: string;
  dev?: boolean;
  link?: boolean;
}
const lockPackages = (dir: string) =>
  (
    JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockPackage>;
    }
  ).packages;

/** The runtime packages its lockfile pins that are not installed here at that version. */
export function mismatchedPackages(dir: string): string[] {
  const theirs = lockPackages(dir);
  const ours = lockPackages(REPO);
  return Object.entries(theirs)
    .filter(([where, p]) => where.startsWith('node_modules/') && !p.dev && !p.link)
    .filter(([where, p]) => ours[where]?.version !== p.version)
    .map(
      ([where, p]) =>
        `${where.slice('node_modules/'.length)} ${p.version ?? '?'} (installed: ${ours[where]?.version ?? 'none'})`,
    );
}

/** This checkout's packages, linked one by one; its own workspace package is its own. */
async function linkPackages(dir: string): Promise<void> {
  const into = path.join(dir, 'node_modules');
  await mkdir(into);
  for (const name of readdirSync(path.join(REPO, 'node_modules'))) {
    if (name.startsWith('.') && name !== '.bin') continue;
    if (name === '@fleetgate') continue;
    await symlink(path.join(REPO, 'node_modules', name), path.join(into, name));
  }
  await mkdir(path.join(into, '@fleetgate'));
  for (const pkg of readdirSync(path.join(dir, 'packages')))
    await symlink(path.join('..', '..', 'packages', pkg), path.join(into, '@fleetgate', pkg));
}

export async function buildPreviousRelease(): Promise<PreviousRelease> {
  const record = releaseRecord();
  const started = performance.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'fleetgate-previous-'));
  try {
    // git archive of the commit, unpacked by node-tar as it streams.
    const git = spawn('git', ['-C', REPO, 'archive', '--format=tar', record.commit], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    git.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => git.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const unpack = tar.x({ cwd: dir });
      unpack.on('error', reject);
      unpack.on('close', () => resolve());
      git.stdout.pipe(unpack);
    });
    if ((await exited) !== 0) throw new Error(`git archive ${record.commit} failed: ${stderr}`);
    const mismatched = mismatchedPackages(dir);
    let packages: PreviousRelease['packages'] = 'installed';
    if (mismatched.length === 0) await linkPackages(dir);
    else {
      console.warn(
        `previous release ${record.commit.slice(0, 10)}: its runtime packages differ from the installed ones (${mismatched.slice(0, 5).join(', ')}${mismatched.length > 5 ? ', …' : ''}); installing its own with npm ci --omit=dev`,
      );
      await run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
      });
      packages = 'own npm ci';
    }
    await run(process.execPath, [path.join(REPO, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build.ts'], {
      cwd: dir,
    });
    if (!existsSync(path.join(dir, 'dist/main.js')))
      throw new Error('the previous release built no dist/main.js');
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const [node, ...args] = (pkg.scripts['start'] ?? '').trim().split(/\s+/);
    if (node !== 'node') throw new Error(`the previous release's start script does not run node: ${node}`);
    return {
      ...record,
      dir,
      command: [process.execPath, ...args.map((a) => (a.startsWith('-') ? a : path.resolve(dir, a)))],
      packages,
      buildMs: performance.now() - started,
      remove: () => rm(dir, { recursive: true, force: true }),
    };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
