/**
 * The emulator stands in for a third party and shares no code with the service, but a few pure
 * primitives are the same in both: the wall clock of a time zone, Fastify's lazily loaded
 * schema compilers and the JSON-RPC error envelope of an MCP endpoint. Each side keeps its own
 * copy; this holds the copies equal (code only: comments and `export` may differ), so a fix to
 * one is made to both. It also holds the root's tests to starting the emulator through
 * test/helpers/emulator.ts, which wires in the suite's whole contract check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const EMULATOR = 'packages/platform-emulator';

/** The code of a file, or of one top-level declaration in it, printed without comments. */
function code(file: string, declaration?: string): string {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(REPO, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const printer = ts.createPrinter({ removeComments: true });
  const named = (s: ts.Statement) =>
    ts.isVariableStatement(s)
      ? s.declarationList.declarations.some((d) => d.name.getText(source) === declaration)
      : (ts.isFunctionDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === declaration;
  const statements = declaration === undefined ? source.statements : source.statements.filter(named);
  if (statements.length === 0) throw new Error(`${file} has no ${declaration}`);
  return statements
    .map((s) => printer.printNode(ts.EmitHint.Unspecified, s, source).replace(/^export /, ''))
    .join('\n');
}

describe("the emulator's copies of the service's primitives", () => {
  it('the wall clock of a time zone', () => {
    expect(code(`${EMULATOR}/src/wall-clock.ts`)).toBe(code('src/core/wall-clock.ts'));
  });

  it("Fastify's lazily loaded schema compilers", () => {
    expect(code(`${EMULATOR}/src/schema-compilers.ts`)).toBe(code('src/http/schema-compilers.ts'));
  });

  it('the JSON-RPC error envelope', () => {
    expect(code(`${EMULATOR}/src/routes/hosted-mcp/http.ts`, 'rpcError')).toBe(
      code('src/mcp/mcp-endpoint.ts', 'rpcError'),
    );
  });
});

describe("the root's tests", () => {
  it("start the emulator only through test/helpers/emulator.ts (the suite's contract check)", () => {
    const files = (dir: string): string[] =>
      readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? files(path.join(dir, e.name))
          : e.name.endsWith('.ts')
            ? [path.join(dir, e.name)]
            : [],
      );
    const direct = [...files('test'), ...files('bench')].filter(
      (f) =>
        f !== path.join('test', 'helpers', 'emulator.ts') &&
        readFileSync(path.join(REPO, f), 'utf8').includes(`${EMULATOR}/test/helpers/emulator.js`),
    );
    expect(direct).toEqual([]);
  });
});
