/**
 * The emulator stands in for a third party, so it shares no code with the service: no module
 * under this package's src/ imports (statically, dynamically, or for its types) a file outside its own
 * folder. Packages from node_modules are fine. The service may import the emulator's entries,
 * not the other way round. The package is self-contained too: its tests and scripts import
 * nothing from outside it (the root's test helpers build on these, never the reverse).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = path.resolve(import.meta.dirname, '..');
const ROOT = path.join(PACKAGE, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(path.join(dir, e.name))
      : /\.(ts|js|mts|cts)$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );
}

/** Every module specifier in the text: import/export … from, bare import, import(), require(). */
export function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** The imports of `file` that reach outside `root` (relative or absolute paths only). */
export function escapes(file: string, text: string, root: string): string[] {
  return specifiers(text).filter((s) => {
    if (!s.startsWith('.') && !s.startsWith('/')) return false;
    const target = path.resolve(path.dirname(file), s);
    return target !== root && !target.startsWith(root + path.sep);
  });
}

describe('the emulator is independent of the service', () => {
  it('finds imports that leave the folder, of every form', () => {
    const file = path.join(ROOT, 'routes/x/y.ts');
    const text = [
      "import { a } from '../../../config.js';",
      "import type { B } from '../../state.js';",
      "import '../../../memory/pin.js';",
      "export { c } from '../../../../src/log.js';",
      "const m = await import('../../../mcp/endpoint.js');",
      "import * as z from 'zod';",
    ].join('\n');
    expect(escapes(file, text, ROOT)).toEqual([
      '../../../config.js',
      '../../../../src/log.js',
      '../../../memory/pin.js',
      '../../../mcp/endpoint.js',
    ]);
  });

  it("no module under the package's src/ imports from outside it", () => {
    const found = sources(ROOT).flatMap((file) =>
      escapes(file, readFileSync(file, 'utf8'), ROOT).map((s) => `${path.relative(ROOT, file)} → ${s}`),
    );
    expect(found).toEqual([]);
  });
});

describe('the package is self-contained', () => {
  it('no module under its test/ or scripts/ imports from outside the package', () => {
    const found = ['test', 'scripts'].flatMap((dir) =>
      // This file's own samples above are strings, not imports.
      sources(path.join(PACKAGE, dir))
        .filter((file) => file !== import.meta.filename)
        .flatMap((file) =>
          escapes(file, readFileSync(file, 'utf8'), PACKAGE).map(
            (s) => `${path.relative(PACKAGE, file)} → ${s}`,
          ),
        ),
    );
    expect(found).toEqual([]);
  });
});
