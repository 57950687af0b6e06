/**
 * The native-heap trimmer: the addon is built by `npm install` (postinstall) and loads here; in
 * a fresh process it gives back the pages of a fragmented glibc heap (freed buffers kept
 * resident between small live ones); and the timer trims on its interval until stopped.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeTrim, startHeapTrimmer } from '../src/memory/native-heap.js';
import { REPO } from './helpers/build-test-app.js';

const ADDON = path.join(REPO, 'native/malloc-trim/build/Release/malloc_trim.node');

// 100 MB of 50 KB buffers, each followed by a small one kept alive, so the freed pages are not at
// the top of the heap and free() alone gives nothing back.
const FRAGMENT = `
const { trim } = require(${JSON.stringify(ADDON)});
const mb = () => process.memoryUsage.rss() / 1048576;
const keep = []; let bufs = [];
for (let i = 0; i < 2000; i++) { bufs.push(Buffer.allocUnsafeSlow(50000).fill(1)); keep.push(Buffer.allocUnsafeSlow(200).fill(1)); }
bufs = null; gc(); gc();
setTimeout(() => {
  const freed = mb(); const released = trim(); const trimmed = mb();
  process.stdout.write(JSON.stringify({ freed, trimmed, released, kept: keep.length }));
}, 100);
`;

describe('native heap trimming', () => {
  it('is built by the install on this glibc machine', () => {
    expect(nativeTrim()).toBeTypeOf('function');
  });

  it('gives the free pages of a fragmented heap back to the OS', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '-e', FRAGMENT], { encoding: 'utf8' });
    const r = JSON.parse(out) as { freed: number; trimmed: number; released: boolean; kept: number };
    expect(r.kept).toBe(2000);
    expect(r.released).toBe(true);
    // The 100 MB stayed resident after free(); the trim hands most of it back.
    expect(r.freed - r.trimmed).toBeGreaterThan(60);
  });

  it('trims on its interval, reports what it gave back, and stops', async () => {
    let calls = 0;
    const reports: number[] = [];
    const t = startHeapTrimmer({
      intervalMs: 10,
      trim: () => ++calls % 2 === 0,
      onTrim: (before) => reports.push(before),
    });
    expect(t.available).toBe(true);
    await new Promise((r) => setTimeout(r, 80));
    t.stop();
    const seen = calls;
    expect(seen).toBeGreaterThanOrEqual(3);
    expect(reports.length).toBe(Math.floor(seen / 2));
    await new Promise((r) => setTimeout(r, 40));
    expect(calls).toBe(seen);
  });

  it('does nothing without the addon', () => {
    const t = startHeapTrimmer({ trim: undefined });
    expect(t.available).toBe(false);
    expect(t.trimNow()).toBe(false);
    t.stop();
  });
});
