import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
let items: Record<string, any>[];
beforeAll(async () => {
  t = await buildTestApp();
  items = (await t.app.inject('/api/brand/assets')).json<{ items: Record<string, any>[] }>().items;
});
afterAll(() => t.close());

const fetchAsset = async (url: string) => (await t.app.inject(url.slice(BASE.length))).rawPayload;

describe('asset files', () => {
  it('match their listed bytes, sha256 and PNG dimensions', async () => {
    for (const i of items) {
      const body = await fetchAsset(i['url']);
      expect(body.length, i['url']).toBe(i['bytes']);
      expect(createHash('sha256').update(body).digest('hex')).toBe(i['sha256']);
      if (i['format'] === 'png') {
        expect(body.subarray(1, 4).toString('latin1')).toBe('PNG');
        expect([body.readUInt32BE(16), body.readUInt32BE(20)]).toEqual([i['width'], i['height']]);
      }
    }
  });

  it('includes the full web icon set', async () => {
    const byId = (id: string) => items.find((i) => i['id'] === id);
    expect(byId('apple-touch-icon')).toMatchObject({ width: 180, height: 180 });
    expect(byId('icon-192')).toMatchObject({ width: 192, height: 192 });
    expect(byId('icon-512')).toMatchObject({ width: 512, height: 512 });
    expect(byId('icon-maskable-512')).toMatchObject({ width: 512, height: 512, purpose: 'maskable' });
    const ico = await fetchAsset(byId('favicon')?.['url']);
    // ICONDIR: reserved 0, type 1, count; then 16-byte entries whose first byte is the width.
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const widths = Array.from({ length: count }, (_, n) => ico[6 + n * 16]);
    expect(widths.sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([16, 32, 48]);
    const svg = (await fetchAsset(byId('icon-svg')?.['url'])).toString();
    expect(svg).toContain('prefers-color-scheme: dark');
    const manifest = JSON.parse((await fetchAsset(byId('web-manifest')?.['url'])).toString()) as {
      icons: { purpose: string }[];
    };
    expect(manifest.icons.map((i) => i.purpose)).toContain('maskable');
  });

  it('renders the brand fonts into images (text is drawn, not left blank)', async () => {
    // The logo PNG has ink in the wordmark area, right of the mark.
    const logo = items.find((i) => i['id'] === 'logo-horizontal-light' && i['format'] === 'png');
    const body = await fetchAsset(logo?.['url']);
    expect(body.length).toBeGreaterThan(8000);
    const svg = (
      await fetchAsset(
        items.find((i) => i['id'] === 'logo-horizontal-light' && i['format'] === 'svg')?.['url'],
      )
    ).toString();
    expect(svg).not.toContain('<text');
    expect((svg.match(/<path/g) ?? []).length).toBeGreaterThan(5);
  });

  it('serves /favicon.ico at the root', async () => {
    const res = await t.app.inject('/favicon.ico');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
  });
});
