/**
 * Outgoing webhooks across instances: two service processes (`src/main.ts`, as `npm start`
 * runs it) on one store — a shared SQLite file, then one PostgreSQL schema — with the env
 * subscription (FLEETGATE_WEBHOOK_URL + FLEETGATE_WEBHOOK_SECRET) and one made through the
 * API. Events written through both instances reach each subscriber exactly once (counted again
 * once the outbox has drained and both workers have gone round again), signed with the
 * configured secret; the env subscription cannot be deleted through the API.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSecret } from '../../src/core/webhook-signature.js';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { eventually } from '../helpers/build-test-app.js';
import { requireService } from '../helpers/services.js';
import { startService, type Service } from '../helpers/spawn-service.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const pgAvailable = await requireService('PostgreSQL', '127.0.0.1', 5432);
const KEY = 'webhooks-scale-key-0123456789';
/** The retry base, which is also the workers' polling interval (under a second). */
const POLL_MS = 50;

let emu: TestEmulator;
let rx: Receiver;
let accountId: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  rx = await startReceiver();
  accountId = (await emu.api('GET', '/v2/users/me', { token: (await emu.userToken()).access_token })).json
    .account_id;
});
afterAll(async () => {
  await rx.close();
  await emu.close();
});

async function api(s: Service, method: string, p: string, body?: unknown) {
  const res = await fetch(`${s.base}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function twoInstances(label: string, storeEnv: Record<string, string>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-wh-scale-'));
  const envPath = `/env-${label}`;
  const apiPath = `/api-${label}`;
  const envSecret = newSecret();
  rx.secret(envPath, envSecret);
  const env = {
    FLEETGATE_DATA_DIR: dataDir,
    FLEETGATE_SANDBOX: '0',
    FLEETGATE_API_KEY: KEY,
    FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    VIDEO_CLIENT_ID: 'sandbox-client',
    VIDEO_CLIENT_SECRET: 'sandbox-secret',
    VIDEO_ACCOUNT_ID: accountId,
    VIDEO_API_BASE: `${emu.base}/v2`,
    VIDEO_OAUTH_BASE: emu.base,
    BRAND_WATCH: '0',
    FLEETGATE_WEBHOOK_URL: rx.url(envPath),
    FLEETGATE_WEBHOOK_SECRET: envSecret,
    FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
    FLEETGATE_WEBHOOK_RETRY_BASE_MS: String(POLL_MS),
    ...storeEnv,
  };
  // One after the other: the first also links the account; the second finds it linked.
  const a = await startService(env);
  const b = await startService(env);
  try {
    const sub = await api(a, 'POST', '/api/video/subscriptions', {
      url: rx.url(apiPath),
      events: ['event.created'],
    });
    expect(sub.status).toBe(201);
    rx.secret(apiPath, sub.json.secret);
    const list = await api(b, 'GET', '/api/video/subscriptions');
    expect(list.json.items.map((s: { id: string; source: string }) => [s.id, s.source])).toEqual(
      expect.arrayContaining([
        ['sub_env', 'env'],
        [sub.json.id, 'api'],
      ]),
    );
    const refused = await api(b, 'DELETE', '/api/video/subscriptions/sub_env');
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('managed_by_environment');

    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api(i % 2 ? b : a, 'POST', '/api/video/events', {
          topic: `Scale ${label} ${i}`,
          start_time: '2031-06-01T10:00:00.000Z',
        }),
      ),
    );
    expect(created.map((c) => c.status)).toEqual(Array(12).fill(201));
    const ids = created.map((c) => c.json.video_id as string).sort();
    const createdOn = (p: string) => rx.on(p).filter((r) => r.json?.type === 'event.created');
    await eventually(() => {
      for (const p of [envPath, apiPath]) expect(createdOn(p)).toHaveLength(ids.length);
    });
    // Late duplicates get their chance: the outbox drains on both subscriptions, then an event
    // written through each instance is delivered after it (the workers went round again), then
    // ten more polling intervals pass.
    const drained = async () => {
      for (const id of ['sub_env', sub.json.id as string]) {
        const got = await api(b, 'GET', `/api/video/subscriptions/${id}`);
        expect(got.json.deliveries).toMatchObject({ pending: 0, failed: 0 });
      }
    };
    await eventually(drained);
    const sentinels = await Promise.all(
      [a, b].map((s, i) =>
        api(s, 'POST', '/api/video/events', {
          topic: `Scale ${label} after ${i}`,
          start_time: '2031-06-01T10:00:00.000Z',
        }),
      ),
    );
    expect(sentinels.map((c) => c.status)).toEqual([201, 201]);
    ids.push(...sentinels.map((c) => c.json.video_id as string));
    ids.sort();
    await eventually(() => {
      for (const p of [envPath, apiPath]) expect(createdOn(p)).toHaveLength(ids.length);
    });
    await eventually(drained);
    await new Promise((resolve) => setTimeout(resolve, 10 * POLL_MS));
    for (const p of [envPath, apiPath]) {
      const got = createdOn(p);
      expect(got.map((r) => r.json.data.video_id).sort()).toEqual(ids);
      expect(new Set(got.map((r) => r.id)).size).toBe(ids.length);
      expect(got.every((r) => r.verified)).toBe(true);
    }
    // The link made at the first start was announced once, to the env subscription.
    const linked = rx.on(envPath).filter((r) => r.json?.type === 'link.changed');
    expect(linked.map((r) => r.json.data.status)).toEqual(['linked']);
    // Nothing arrives twice, whatever its type.
    expect(new Set(rx.on(envPath).map((r) => r.id)).size).toBe(rx.on(envPath).length);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('outgoing webhooks with two instances', () => {
  it('on one SQLite file, each event reaches each subscription once', async () => {
    await twoInstances('sqlite', {});
  });

  it.skipIf(!pgAvailable)('on one PostgreSQL schema, each event reaches each subscription once', async () => {
    const schema = `fg_wh_${process.pid}_${randomBytes(3).toString('hex')}`;
    try {
      await twoInstances('postgres', { DATABASE_URL: DB, FLEETGATE_DB_SCHEMA: schema });
    } finally {
      const c = new pg.Client({ connectionString: DB });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    }
  });
});
