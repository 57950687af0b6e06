/**
 * Brand versions across instances: two service processes (`src/main.ts`) on one PostgreSQL
 * schema, both watching the same brand folder. Both load the first brand at start and both
 * reload the same edit at (nearly) the same moment; each content gets one version and each
 * change one signed `brand.updated`, counted again after the outbox has drained and the
 * workers have gone round.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { eventually } from '../helpers/build-test-app.js';
import { copyBrand, editJson } from '../helpers/brand-copy.js';
import { requireService } from '../helpers/services.js';
import { startService, type Service } from '../helpers/spawn-service.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const KEY = 'brand-versions-scale-key-0123456789';
const POLL_MS = 50;
const SUB = '/brand-instances';

let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx.close();
});

describe('brand versions with two instances', () => {
  it.skipIf(!pgAvailable)(
    'on one PostgreSQL schema, the same change publishes one version and one webhook',
    async () => {
      const schema = `fg_bv_${process.pid}_${randomBytes(3).toString('hex')}`;
      const brandDir = await copyBrand();
      const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-bv-scale-'));
      const env = {
        FLEETGATE_DATA_DIR: dataDir,
        FLEETGATE_SANDBOX: '0',
        FLEETGATE_API_KEY: KEY,
        FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        BRAND_DIR: brandDir,
        BRAND_WATCH: '1',
        FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
        FLEETGATE_WEBHOOK_RETRY_BASE_MS: String(POLL_MS),
        DATABASE_URL: DB,
        FLEETGATE_DB_SCHEMA: schema,
      };
      const services: Service[] = [];
      try {
        // Started together: both load the first brand while the other may be publishing it.
        services.push(...(await Promise.all([startService(env), startService(env)])));
        const [a, b] = services as [Service, Service];
        const header = async (s: Service) =>
          (await fetch(`${s.base}/api/brand`)).headers.get('brand-version');
        const versions = async (s: Service) =>
          (
            (await (await fetch(`${s.base}/api/brand/versions`)).json()) as { items: { version: string }[] }
          ).items.map((v) => v.version);
        expect([await header(a), await header(b)]).toEqual(['1.0.0', '1.0.0']);
        expect(await versions(b)).toEqual(['1.0.0']);

        const sub = await fetch(`${a.base}/api/video/subscriptions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: rx.url(SUB), events: ['brand.updated'] }),
        });
        expect(sub.status).toBe(201);
        const created = (await sub.json()) as { id: string; secret: string };
        rx.secret(SUB, created.secret);

        // Both instances watch the folder: both reload this edit and both try to publish it.
        await editJson(brandDir, 'tokens/base.tokens.json', (t) => {
          t.colors.palette.red['300'].$value.hex = '#fca5a6';
          t.colors.palette.red['300'].$value.components[2] = 0.651;
        });
        await eventually(async () => expect([await header(a), await header(b)]).toEqual(['1.0.1', '1.0.1']));
        expect(await versions(a)).toEqual(['1.0.1', '1.0.0']);
        const updates = () => rx.on(SUB).filter((r) => r.json?.type === 'brand.updated');
        await eventually(() => expect(updates()).toHaveLength(1));
        // Late duplicates get their chance: the outbox drains, then ten more polling intervals.
        await eventually(async () => {
          const got = await fetch(`${b.base}/api/video/subscriptions/${created.id}`, {
            headers: { authorization: `Bearer ${KEY}` },
          });
          expect(((await got.json()) as { deliveries: unknown }).deliveries).toMatchObject({
            pending: 0,
            failed: 0,
            delivered: 1,
          });
        });
        await new Promise((r) => setTimeout(r, 10 * POLL_MS));
        expect(updates()).toHaveLength(1);
        expect(updates()[0]?.verified).toBe(true);
        expect(updates()[0]?.json.data).toEqual({
          version: '1.0.1',
          previous: '1.0.0',
          bump: 'patch',
          added: 0,
          removed: 0,
          changed: 1,
        });
      } finally {
        await Promise.all(services.map((s) => s.stop()));
        await rm(dataDir, { recursive: true, force: true });
        await rm(brandDir, { recursive: true, force: true });
        const c = new pg.Client({ connectionString: DB });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      }
    },
    180_000,
  );
});
