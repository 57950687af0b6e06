/**
 * The favicon is packed once and kept in the brand cache like the PNGs: a restart with an
 * unchanged mark reads the ICO and renders nothing.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/brand/render.js';

const MARK =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0b5"/></svg>';
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('renderer cache', () => {
  it('packs an ICO of the widths asked for, and serves it again from the cache without rendering', async () => {
    const cache = await mkdtemp(path.join(tmpdir(), 'fg-render-'));
    dirs.push(cache);
    const ico = await (await createRenderer([], cache)).ico(MARK, [16, 32, 48]);
    // ICONDIR: reserved 0, type 1 (icon), count; then 16-byte entries whose first byte is the width.
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 3]);
    expect([0, 1, 2].map((n) => ico[6 + n * 16])).toEqual([16, 32, 48]);

    // With the PNGs gone, a fresh renderer (a restart) still answers, from the ICO alone.
    await rm(path.join(cache, 'png'), { recursive: true });
    const again = await (await createRenderer([], cache)).ico(MARK, [16, 32, 48]);
    expect(again.equals(ico)).toBe(true);
    expect(readdirSync(path.join(cache, 'png'))).toEqual([]);
    // Another set of widths is another icon.
    const small = await (await createRenderer([], cache)).ico(MARK, [16]);
    expect(small.readUInt16LE(4)).toBe(1);
  });
});
