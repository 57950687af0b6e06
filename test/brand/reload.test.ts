import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, eventually, type TestApp } from '../helpers/build-test-app.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = await copyBrand();
  t = await buildTestApp({ brandDir: dir, watch: true });
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const tagline = async () =>
  (await t.app.inject('/api/brand/themes/freight')).json<{ tagline: string }>().tagline;

describe('live brand folder', () => {
  it('swaps a valid edit in without restart, with a new ETag, for REST and MCP alike', async () => {
    const before = await t.app.inject('/api/brand/themes/freight');
    // Warm the MCP result cache with the old brand, so the test proves it is not served stale.
    await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_brand_theme', arguments: { key: 'freight' } },
      },
    });
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.tagline = 'Every lane, every load, on time.';
    });
    await eventually(async () => expect(await tagline()).toBe('Every lane, every load, on time.'));
    const after = await t.app.inject('/api/brand/themes/freight');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    const css = await t.app.inject('/api/brand/themes');
    expect(css.body).toContain('Every lane, every load, on time.');
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_brand_theme', arguments: { key: 'freight' } },
      },
    });
    expect(mcp.json().result.structuredContent.tagline).toBe('Every lane, every load, on time.');
  });

  it('keeps serving the last good brand when an edit is invalid, and logs what is wrong', async () => {
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.color2 = 'orange';
    });
    await eventually(() => {
      expect(
        t.logs().some((l) => l.includes('funnels.freight.color2') && l.includes('brand edit rejected')),
      ).toBe(true);
    });
    expect(await tagline()).toBe('Every lane, every load, on time.');
    expect((await t.app.inject('/api/brand/themes/freight')).statusCode).toBe(200);
  });

  it('picks up a new document once the folder is valid again', async () => {
    await editJson(dir, 'themes.json', (th) => {
      th.funnels.freight.color2 = '#F97316';
    });
    await writeFile(
      path.join(dir, 'docs/sales/06-pricing-faq.md'),
      '---\ntitle: Pricing FAQ\nsummary: Answers to pricing questions.\naudience: Sales\n---\n# Pricing FAQ\n\nAsk us.\n',
    );
    await eventually(async () => {
      const docs = (await t.app.inject('/api/brand/docs')).json<{ count: number }>();
      expect(docs.count).toBe(28);
    });
    expect((await t.app.inject('/static/fleet/docs/pricing-faq.html')).statusCode).toBe(200);
  });
});
