/**
 * pinTickObjectShapes(): in a fresh Node process, ticks, then full GCs while no tick object is
 * alive (an idle service), then ticks again. Without the pin the tick objects' maps are
 * collected and rebuilt and nextTick's object-literal feedback turns megamorphic (every later
 * tick object is built through the V8 runtime); with it the feedback stays monomorphic. The
 * feedback is read from V8's own debug print of nextTick (--allow-natives-syntax).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { pinTickObjectShapes } from '../src/memory/tick-shapes.js';
import { REPO } from './helpers/build-test-app.js';

const SCRIPT = `
const noop = () => {};
const ticks = async (rounds) => {
  for (let k = 0; k < rounds; k++) {
    for (let i = 0; i < 1000; i++) process.nextTick(noop, i);
    await new Promise((r) => setImmediate(r));
  }
};
await ticks(200);
for (let g = 0; g < 4; g++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
await ticks(50);
%DebugPrint(process.nextTick);
`;

// Plain node, no tsx: tsx's loader thread can end the process before V8's debug print (C stdio)
// is flushed. The pin module is the source transpiled on its own (it imports only node:).
const dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-ticks-'));
const file = path.join(dir, 'ticks.mjs');
writeFileSync(file, SCRIPT);
const source = (name: string) => readFileSync(path.join(REPO, 'src/memory', name), 'utf8');
writeFileSync(
  path.join(dir, 'tick-shapes.js'),
  transformSync(source('tick-shapes.ts'), { loader: 'ts', format: 'esm' }).code,
);
const MODULE = path.join(dir, 'pin-tick-shapes.mjs');
writeFileSync(MODULE, transformSync(source('pin-tick-shapes.ts'), { loader: 'ts', format: 'esm' }).code);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The states of nextTick's DefineKeyedOwnPropertyInLiteral feedback slots after an idle GC. */
function literalFeedback(pin: boolean): string[] {
  // Pinned as the service does it: before any of the process's own code runs.
  const preload = pin ? ['--import', MODULE] : [];
  const out = execFileSync(process.execPath, [...preload, '--allow-natives-syntax', '--expose-gc', file], {
    cwd: REPO,
    encoding: 'utf8',
  });
  return [...out.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1] ?? '');
}

describe('tick object shapes', () => {
  it('without the pin, an idle full GC turns nextTick megamorphic (the failure it prevents)', () => {
    const states = literalFeedback(false);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states).toContain('MEGAMORPHIC');
  });

  it('with the pin, nextTick stays monomorphic through the same GCs', () => {
    const states = literalFeedback(true);
    expect(states.length).toBeGreaterThanOrEqual(2);
    expect(states.every((s) => s === 'MONOMORPHIC')).toBe(true);
  });

  it('holds one tick object of each shape, once per process', () => {
    expect(pinTickObjectShapes()).toBe(2);
    expect(pinTickObjectShapes()).toBe(2);
  });
});
