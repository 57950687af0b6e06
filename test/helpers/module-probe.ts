/**
 * Which modules a child process (and the processes it forks) loaded: a module-resolution hook,
 * given through NODE_OPTIONS, writes each resolved URL to a file. A file of the bundle (dist/) is
 * read back as the sources its source map lists, so a test can say "the OpenTelemetry SDK was
 * loaded" of the bundle as of the sources; a package kept external is its own node_modules path.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO } from './build-test-app.js';

const DIST = path.join(REPO, 'dist');

/** A bundle file's sources, repository-relative (`src/tracing/sdk.ts`, `node_modules/…`). */
function bundleSources(file: string): string[] {
  const map = `${file}.map`;
  if (!existsSync(map)) return [];
  const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
  return sources.map((s) => path.relative(REPO, path.resolve(path.dirname(file), s)));
}

export interface ModuleProbe {
  /** Environment for the child: NODE_OPTIONS with the hook (forked children inherit it). */
  env: Record<string, string>;
  /** Repository-relative paths of every module loaded so far, bundle files as their sources. */
  loaded(): Promise<string[]>;
  /** The bundle files (dist/…) loaded so far, by name. */
  bundleFiles(): Promise<string[]>;
  /** Every file loaded so far, as an absolute path. */
  files(): Promise<string[]>;
}

export async function moduleProbe(dir: string): Promise<ModuleProbe> {
  const log = path.join(dir, 'modules.log');
  const hooks = path.join(dir, 'probe-hooks.mjs');
  const register = path.join(dir, 'probe-register.mjs');
  await writeFile(log, '');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}
`,
  );
  await writeFile(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  const files = async () => [
    ...new Set(
      (await readFile(log, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((u) => fileURLToPath(u)),
    ),
  ];
  return {
    env: {
      NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${pathToFileURL(register).href}`.trim(),
    },
    async loaded() {
      const out = new Set<string>();
      for (const f of await files()) {
        if (path.dirname(f) === DIST) for (const s of bundleSources(f)) out.add(s);
        else out.add(path.relative(REPO, f));
      }
      return [...out];
    },
    async bundleFiles() {
      return (await files()).filter((f) => path.dirname(f) === DIST).map((f) => path.basename(f));
    },
    files,
  };
}
