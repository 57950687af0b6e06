/**
 * Brand versions end to end, over real HTTP against `src/main.ts` (as `npm start` runs it) on a
 * private copy of the brand folder that the test edits while the service watches it: a changed
 * colour is a patch, an added token a minor, a removed one a major with its replacement named;
 * the changelog, the versions list and each version's tokens follow, every brand response names
 * the version in its Brand-Version header, llms.txt and the MCP manifest resource name it, a
 * subscriber receives one signed `brand.updated` per change, and a restart keeps the versions.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { eventually } from '../helpers/build-test-app.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const KEY = 'brand-versions-key-0123456789';
const SUB = '/brand';

let brandDir: string;
let dataDir: string;
let rx: Receiver;
let svc: Service;
let env: Record<string, string>;

const get = async (p: string) => {
  const res = await fetch(`${svc.base}${p}`);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: text.startsWith('{') ? JSON.parse(text) : undefined,
  };
};
const brandVersion = async () => (await get('/api/brand')).headers.get('brand-version');
const updates = () => rx.on(SUB).filter((r) => r.json?.type === 'brand.updated');
const base = (edit: (t: any) => void) => editJson(brandDir, 'tokens/base.tokens.json', edit);
const srgb = (hex: string) => ({
  colorSpace: 'srgb',
  components: [1, 2, 3].map(
    (i) => Math.round((parseInt(hex.slice(2 * i - 1, 2 * i + 1), 16) / 255) * 1e4) / 1e4,
  ),
  hex,
});

beforeAll(async () => {
  brandDir = await copyBrand();
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-brand-versions-'));
  rx = await startReceiver();
  env = {
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_SANDBOX: '0',
    FLEETGATE_API_KEY: KEY,
    FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BRAND_DIR: brandDir,
    BRAND_WATCH: '1',
    FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
    FLEETGATE_WEBHOOK_RETRY_BASE_MS: '50',
  };
  svc = await startService(env);
  const sub = await fetch(`${svc.base}/api/video/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: rx.url(SUB), events: ['brand.updated'] }),
  });
  expect(sub.status).toBe(201);
  rx.secret(SUB, ((await sub.json()) as { secret: string }).secret);
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await rx?.close();
  await rm(brandDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

describe('brand versions over HTTP', () => {
  it('starts at 1.0.0, named in the manifest, the header (edge and Fastify alike) and llms.txt', async () => {
    const manifest = await get('/api/brand');
    expect(manifest.json.version).toBe('1.0.0');
    expect(manifest.json.brandVersion).toBe('1.0.0');
    expect(manifest.headers.get('brand-version')).toBe('1.0.0');
    expect(manifest.headers.get('access-control-expose-headers')).toContain('Brand-Version');
    for (const p of [
      '/api/brand/tokens?format=scss&theme=freight',
      '/api/brand/tokens',
      '/api/brand/tokens?format=scss',
      '/api/brand/themes/freight',
      '/llms.txt',
    ])
      expect((await get(p)).headers.get('brand-version'), p).toBe('1.0.0');
    // An encoded path goes through Fastify's routes rather than the edge: the same header.
    const viaFastify = await get('/api/brand/tokens?format=json&x=1');
    expect(viaFastify.headers.get('brand-version')).toBe('1.0.0');
    expect((await get('/llms.txt')).text).toContain('Brand version: 1.0.0');
    const versions = await get('/api/brand/versions');
    expect(versions.json.items).toMatchObject([{ version: '1.0.0', removed: 0, changed: 0 }]);
    expect(versions.json.items[0].added).toBeGreaterThan(100);
    expect(versions.json.nextCursor).toBeNull();
  });

  it('a changed colour is a patch: changelog, versions and one signed brand.updated', async () => {
    await base((t) => {
      t.colors.palette.red['300'].$value = srgb('#fca5a6');
    });
    await eventually(async () => expect(await brandVersion()).toBe('1.0.1'));
    const log = await get('/api/brand/changelog');
    expect(log.status).toBe(200);
    expect(log.headers.get('brand-version')).toBe('1.0.1');
    expect(log.json).toEqual({
      from: '1.0.0',
      to: '1.0.1',
      bump: 'patch',
      added: [],
      removed: [],
      changed: [{ path: 'colors.palette.red.300', from: srgb('#fca5a5'), to: srgb('#fca5a6') }],
    });
    await eventually(() => expect(updates()).toHaveLength(1));
    const [u] = updates();
    expect(u?.verified).toBe(true);
    expect(u?.json.data).toEqual({
      version: '1.0.1',
      previous: '1.0.0',
      bump: 'patch',
      added: 0,
      removed: 0,
      changed: 1,
    });
  });

  it('an added token is a minor', async () => {
    await base((t) => {
      t.colors.palette.red['500'] = { $value: srgb('#ef4444') };
    });
    await eventually(async () => expect(await brandVersion()).toBe('1.1.0'));
    const log = await get('/api/brand/changelog');
    expect(log.json).toMatchObject({
      from: '1.0.1',
      to: '1.1.0',
      bump: 'minor',
      added: [{ path: 'colors.palette.red.500', type: 'color', value: srgb('#ef4444') }],
      removed: [],
      changed: [],
    });
  });

  it('a removed token is a major, naming the token that now holds its value', async () => {
    await base((t) => {
      delete t.colors.palette.red['500'];
      t.colors.palette.crimson = { '500': { $value: srgb('#ef4444') } };
    });
    await eventually(async () => expect(await brandVersion()).toBe('2.0.0'));
    const log = await get('/api/brand/changelog?to=2.0.0');
    expect(log.json).toMatchObject({
      from: '1.1.0',
      to: '2.0.0',
      bump: 'major',
      removed: [{ path: 'colors.palette.red.500', replacement: 'colors.palette.crimson.500' }],
      added: [{ path: 'colors.palette.crimson.500' }],
    });
    await eventually(() =>
      expect(updates().map((u) => u.json.data.version)).toEqual(['1.0.1', '1.1.0', '2.0.0']),
    );
    expect(updates().every((u) => u.verified)).toBe(true);
    expect((await get('/llms.txt')).text).toContain('Brand version: 2.0.0');
  });

  it('diffs non-adjacent versions from their stored documents, and refuses bad ranges', async () => {
    const log = await get('/api/brand/changelog?from=1.0.0&to=2.0.0');
    expect(log.json.bump).toBe('minor');
    expect(log.json.added.map((a: { path: string }) => a.path)).toEqual(['colors.palette.crimson.500']);
    expect(log.json.changed.map((c: { path: string }) => c.path)).toEqual(['colors.palette.red.300']);
    const backwards = await get('/api/brand/changelog?from=2.0.0&to=1.0.0');
    expect(backwards.status).toBe(400);
    expect(backwards.json.error.code).toBe('invalid_range');
    const unknown = await get('/api/brand/changelog?from=0.9.0');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe('version_not_found');
    // Public like every brand answer: a browser can read the errors too.
    for (const r of [log, backwards, unknown]) expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect((await get('/api/brand/changelog?to=banana')).status).toBe(400);
  });

  it('pages the versions newest first with an opaque cursor', async () => {
    const first = await get('/api/brand/versions?limit=3');
    expect(first.json.items.map((v: { version: string }) => v.version)).toEqual(['2.0.0', '1.1.0', '1.0.1']);
    expect(first.json.items[0]).toMatchObject({ added: 1, removed: 1, changed: 0, bump: 'major' });
    expect(Date.parse(first.json.items[0].publishedAt)).not.toBeNaN();
    const second = await get(`/api/brand/versions?limit=3&cursor=${first.json.nextCursor}`);
    expect(second.json).toMatchObject({ items: [{ version: '1.0.0' }], nextCursor: null });
    const bad = await get('/api/brand/versions?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('invalid_cursor');
    expect(bad.headers.get('access-control-allow-origin')).toBe('*');
  });

  it("serves each version's stored tokens", async () => {
    const old = await get('/api/brand/tokens?version=1.0.0');
    expect(old.status).toBe(200);
    expect(old.headers.get('brand-version')).toBe('1.0.0');
    expect(old.headers.get('cache-control')).toContain('immutable');
    expect(old.json.colors.palette.red['300'].$value).toEqual(srgb('#fca5a5'));
    expect(old.json.colors.palette.crimson).toBeUndefined();
    const now = await get('/api/brand/tokens');
    expect(now.json.colors.palette.red['300'].$value).toEqual(srgb('#fca5a6'));
    const again = await fetch(`${svc.base}/api/brand/tokens?version=1.0.0`, {
      headers: { 'if-none-match': old.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const missing = await get('/api/brand/tokens?version=9.9.9');
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('version_not_found');
    expect((await get('/api/brand/tokens?version=1.0.0&format=scss')).status).toBe(400);
  });

  it('names the version in the MCP manifest and llms.txt resources', async () => {
    const rpc = async (method: string, params: Record<string, unknown>) => {
      const res = await fetch(`${svc.base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return ((await res.json()) as { result: any }).result;
    };
    const { resources } = await rpc('resources/list', {});
    const uri = (name: string) => resources.find((r: { name: string }) => r.name === name)?.uri as string;
    const read = async (name: string) =>
      (await rpc('resources/read', { uri: uri(name) })).contents[0].text as string;
    expect(JSON.parse(await read('manifest')).brandVersion).toBe('2.0.0');
    expect(await read('llms-txt')).toContain('Brand version: 2.0.0');
  });

  it('keeps the versions across a restart, publishing nothing new for the same brand', async () => {
    await svc.stop();
    svc = await startService(env);
    expect(await brandVersion()).toBe('2.0.0');
    const all = await get('/api/brand/versions');
    expect(all.json.items.map((v: { version: string }) => v.version)).toEqual([
      '2.0.0',
      '1.1.0',
      '1.0.1',
      '1.0.0',
    ]);
    // The worker went round after the restart; still one announcement per change.
    await new Promise((r) => setTimeout(r, 500));
    expect(updates()).toHaveLength(3);
  }, 120_000);
});
