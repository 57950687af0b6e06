/**
 * Document front matter is parsed once and kept in the build cache by its text: a second read
 * of an unchanged folder takes it from the cache, and an edited document is parsed again.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskCache } from '../../src/brand/disk-cache.js';
import { readBrandFolder } from '../../src/brand/read-brand-folder.js';
import { copyBrand } from '../helpers/brand-copy.js';

const dirs: string[] = [];
/** The cache's front matter entries (the SVG verdicts beside them are svg-check's). */
const frontMatter = (dir: string) => readdirSync(dir).filter((e) => !e.endsWith('.svgcheck'));
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('front matter cache', () => {
  it('reads unchanged front matter from the cache and parses edited documents again', async () => {
    const brand = await copyBrand();
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'fg-fm-'));
    dirs.push(brand, cacheDir);
    const cache = new DiskCache(cacheDir);
    const first = await readBrandFolder(brand, { cache });
    const entries = frontMatter(cacheDir);
    expect(entries).toHaveLength(first.docs.length);

    // Prove the second read uses the cache: the entry holding this title now says something else.
    const doc = path.join(brand, 'docs/brand/01-brand-guidelines.md');
    const entry = entries.find((e) =>
      readFileSync(path.join(cacheDir, e), 'utf8').includes('"Brand guidelines"'),
    );
    expect(entry).toBeDefined();
    const cached = JSON.parse(readFileSync(path.join(cacheDir, entry!), 'utf8'));
    writeFileSync(path.join(cacheDir, entry!), JSON.stringify({ ...cached, title: 'From the cache' }));
    const second = await readBrandFolder(brand, { cache });
    expect(second.docs.find((d) => d.slug === 'brand-guidelines')?.title).toBe('From the cache');

    // An edit changes the text, so the key: parsed afresh, stored beside the old entry.
    writeFileSync(doc, readFileSync(doc, 'utf8').replace('title: Brand guidelines', 'title: Edited'));
    const third = await readBrandFolder(brand, { cache });
    expect(third.docs.find((d) => d.slug === 'brand-guidelines')?.title).toBe('Edited');
    expect(frontMatter(cacheDir)).toHaveLength(first.docs.length + 1);
  });

  it('still reports invalid YAML, and caches nothing for it', async () => {
    const brand = await copyBrand();
    const cacheDir = await mkdtemp(path.join(tmpdir(), 'fg-fm-'));
    dirs.push(brand, cacheDir);
    const doc = path.join(brand, 'docs/brand/01-brand-guidelines.md');
    writeFileSync(doc, readFileSync(doc, 'utf8').replace('title: Brand guidelines', 'title: [unclosed'));
    const cache = new DiskCache(cacheDir);
    await expect(readBrandFolder(brand, { cache })).rejects.toThrow(/not valid YAML/);
    const count = readdirSync(cacheDir).length;
    await expect(readBrandFolder(brand, { cache })).rejects.toThrow(/not valid YAML/);
    expect(readdirSync(cacheDir)).toHaveLength(count);
  });
});
