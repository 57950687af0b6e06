/**
 * Raster and outline work for brand images, with resvg: SVG text becomes paths (so served SVGs
 * need no fonts), PNGs are rendered with the brand's own fonts and packed into ICOs, and all are
 * cached on disk by content hash so a restart or a reload re-renders only what changed.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resvg as ResvgClass } from '@resvg/resvg-js';
import { cjsExport } from '../cjs-export.js';

/** resvg is loaded on the first cache miss only: a restart with an unchanged brand never needs it. */
let resvg: Promise<typeof ResvgClass> | undefined;
// CommonJS: read through cjsExport, which works from source and from the bundle alike.
const loadResvg = () => (resvg ??= import('@resvg/resvg-js').then((m) => cjsExport(m, 'Resvg')));
import { cacheKey, DiskCache } from './disk-cache.js';
import type { FontFile } from './read-brand-folder.js';

export interface Renderer {
  outline(svg: string): Promise<string>;
  png(svg: string, width: number): Promise<Buffer>;
  /** An ICO holding the SVG drawn at each width (a favicon). */
  ico(svg: string, widths: number[]): Promise<Buffer>;
}

/** resvg reads TrueType, not WOFF2, so the @fontsource files are unpacked once into the cache. */
async function ttfFiles(fonts: FontFile[], dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const out: string[] = [];
  // One at a time: wawoff2 returns a view into its wasm heap, which the next call overwrites.
  for (const f of fonts) {
    const file = path.join(dir, f.fileName.replace(/\.woff2$/, '.ttf'));
    if (!existsSync(file)) {
      // Imported only when a font is missing: its wasm heap costs ~32 MB for the process's life.
      const { default: wawoff2 } = await import('wawoff2');
      const ttf = Buffer.from(await wawoff2.decompress(await readFile(f.path)));
      await writeFile(`${file}.${process.pid}.tmp`, ttf);
      await rename(`${file}.${process.pid}.tmp`, file);
    }
    out.push(file);
  }
  return out;
}

export async function createRenderer(fonts: FontFile[], cacheDir: string): Promise<Renderer> {
  const fontFiles = await ttfFiles(fonts, path.join(cacheDir, 'fonts'));
  const fontKey = cacheKey(...fontFiles);
  const pngs = new DiskCache(path.join(cacheDir, 'png'));
  const outlines = new DiskCache(path.join(cacheDir, 'outlined'));
  const icos = new DiskCache(path.join(cacheDir, 'ico'));
  const font = { fontFiles, loadSystemFonts: false, defaultFontFamily: fonts[0]?.family ?? 'sans-serif' };
  const png = (svg: string, width: number) =>
    pngs.memo(`${cacheKey(svg, width, fontKey)}.png`, () =>
      loadResvg().then((Resvg) =>
        new Resvg(svg, { font, fitTo: { mode: 'width', value: width } }).render().asPng(),
      ),
    );
  return {
    async outline(svg) {
      if (!/<text[\s>]/.test(svg)) return svg;
      // Outlining parses every font file per call, so results are kept like the PNGs.
      const out = await outlines.memo(`${cacheKey(svg, fontKey)}.svg`, () =>
        loadResvg().then((Resvg) => Buffer.from(new Resvg(svg, { font }).toString() + '\n')),
      );
      return out.toString('utf8');
    },
    png,
    ico(svg, widths) {
      // Packing decodes every PNG again (10–30 ms of each start here), so the ICO is kept too, and
      // png-to-ico with its PNG decoder is loaded only on a miss.
      return icos.memo(`${cacheKey(svg, widths.join(','), fontKey)}.ico`, async () => {
        const [{ default: pngToIco }, images] = await Promise.all([
          import('png-to-ico'),
          Promise.all(widths.map((w) => png(svg, w))),
        ]);
        return pngToIco(images);
      });
    },
  };
}

/** Width and height of a PNG from its IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Intrinsic size of an SVG from its viewBox (or width/height). */
export function svgSize(svg: string): { width: number; height: number } {
  const vb = /viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(svg);
  if (vb?.[1] && vb[2]) return { width: Number(vb[1]), height: Number(vb[2]) };
  const w = /\swidth="([\d.]+)"/.exec(svg);
  const h = /\sheight="([\d.]+)"/.exec(svg);
  return { width: Number(w?.[1] ?? 0), height: Number(h?.[1] ?? 0) };
}
