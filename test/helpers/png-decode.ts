/**
 * A small, independent PNG decoder for tests (8-bit RGB/RGBA, not interlaced, as resvg writes
 * them): checks the signature and every chunk's CRC, inflates the image data and undoes the
 * scanline filters, so a PNG that passes has been fully decoded, not just had its header read.
 */
import { crc32, inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  channels: 3 | 4;
  /** Unfiltered pixels, row by row. */
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): DecodedPng {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG signature');
  let at = 8;
  let header:
    { width: number; height: number; depth: number; colorType: number; interlace: number } | undefined;
  const data: Buffer[] = [];
  let ended = false;
  while (at < png.length && !ended) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('latin1');
    const body = png.subarray(at + 8, at + 8 + length);
    if (body.length !== length) throw new Error(`chunk ${type} is truncated`);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length))
      throw new Error(`chunk ${type} fails its CRC`);
    if (type === 'IHDR') {
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body.readUInt8(8),
        colorType: body.readUInt8(9),
        interlace: body.readUInt8(12),
      };
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!header || !ended) throw new Error('missing IHDR or IEND');
  const { width, height, depth, colorType, interlace } = header;
  if (depth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0)
    throw new Error(`unsupported PNG: depth ${depth}, color type ${colorType}, interlace ${interlace}`);
  const channels = colorType === 6 ? 4 : 3;
  const stride = width * channels;
  const raw = inflateSync(Buffer.concat(data));
  if (raw.length !== height * (stride + 1))
    throw new Error(`image data is ${raw.length} bytes, expected ${height * (stride + 1)}`);
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] ?? 0;
      const a = x >= channels ? (pixels[y * stride + x - channels] ?? 0) : 0;
      const b = y > 0 ? (pixels[(y - 1) * stride + x] ?? 0) : 0;
      const c = x >= channels && y > 0 ? (pixels[(y - 1) * stride + x - channels] ?? 0) : 0;
      const predicted =
        filter === 0
          ? 0
          : filter === 1
            ? a
            : filter === 2
              ? b
              : filter === 3
                ? (a + b) >> 1
                : filter === 4
                  ? paeth(a, b, c)
                  : NaN;
      if (Number.isNaN(predicted)) throw new Error(`row ${y} has unknown filter ${filter}`);
      pixels[y * stride + x] = (v + predicted) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}
