/**
 * A brand edit that validates but that Style Dictionary cannot build (an alias cycle: every alias
 * points at a token, so validation lets it through) is rejected like any invalid edit: no brand
 * version is published, no `brand.updated` is sent, the live answers stay on the last good brand
 * and the rejection is logged naming the tokens. A good edit afterwards publishes as usual. Over
 * real HTTP against `src/main.ts` watching a private copy of the brand folder.
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

const KEY = 'brand-build-failure-key-0123456789';
const SUB = '/brand';

let brandDir: string;
let dataDir: string;
let rx: Receiver;
let svc: Service;

const get = async (p: string) => {
  const res = await fetch(`${svc.base}${p}`);
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    json: text.startsWith('{') ? JSON.parse(text) : undefined,
  };
};
const versions = async () =>
  ((await get('/api/brand/versions')).json.items as { version: string }[]).map((v) => v.version);
const updates = () => rx.on(SUB).filter((r) => r.json?.type === 'brand.updated');

beforeAll(async () => {
  brandDir = await copyBrand();
  dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-brand-build-'));
  rx = await startReceiver();
  svc = await startService({
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_SANDBOX: '0',
    FLEETGATE_API_KEY: KEY,
    FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BRAND_DIR: brandDir,
    BRAND_WATCH: '1',
    FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
    FLEETGATE_WEBHOOK_RETRY_BASE_MS: '50',
  });
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

describe('a brand edit that fails to build', () => {
  it('is rejected: nothing published, nothing announced, the live brand unchanged', async () => {
    expect(await versions()).toEqual(['1.0.0']);
    await editJson(brandDir, 'tokens/base.tokens.json', (t) => {
      t.colors.palette.loop = {
        a: { $value: '{colors.palette.loop.b}' },
        b: { $value: '{colors.palette.loop.a}' },
      };
    });
    await eventually(() => {
      const rejected = svc
        .output()
        .split('\n')
        .find((l) => l.includes('brand edit rejected'));
      expect(rejected).toBeDefined();
      expect(rejected).toContain('colors.palette.loop.a');
      expect(rejected).toContain('Circular definition cycle');
    });
    expect(await versions()).toEqual(['1.0.0']);
    expect((await get('/api/brand/tokens?version=1.0.1')).status).toBe(404);
    const live = await get('/api/brand/tokens');
    expect(live.headers.get('brand-version')).toBe('1.0.0');
    expect(live.json.colors.palette.loop).toBeUndefined();
    expect((await get('/api/brand')).json.brandVersion).toBe('1.0.0');
    expect(updates()).toEqual([]);
  });

  it('a good edit afterwards publishes the next version and announces only it', async () => {
    await editJson(brandDir, 'tokens/base.tokens.json', (t) => {
      delete t.colors.palette.loop;
      t.colors.palette.red['300'].$value.hex = '#fca5a6';
    });
    await eventually(async () =>
      expect((await get('/api/brand')).headers.get('brand-version')).toBe('1.0.1'),
    );
    expect(await versions()).toEqual(['1.0.1', '1.0.0']);
    await eventually(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]?.json.data).toEqual({
      version: '1.0.1',
      previous: '1.0.0',
      bump: 'patch',
      added: 0,
      removed: 0,
      changed: 1,
    });
  });
});
