/**
 * Connection health with two gateway instances on one PostgreSQL schema and one emulator, both
 * delivering outgoing webhooks: revoking the tokens, a failed refresh and its recovery, restoring
 * access by a relink, and removing the app each reach a subscriber as exactly one signed
 * `connection.*` webhook, though both instances notice the change at once.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulator, ENV, settled, subscribe } from '../gateway/connection-health-helpers.js';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { startReceiver, type Receiver } from '../gateway/webhook-receiver.js';
import { eventually } from '../helpers/build-test-app.js';
import { requireService } from '../helpers/services.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await requireService('PostgreSQL', '127.0.0.1', 5432);
const schema = `fg_health_${process.pid}_${randomBytes(3).toString('hex')}`;
const env = {
  ...ENV,
  DATABASE_URL: DB,
  FLEETGATE_DB_SCHEMA: schema,
  FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};
const P = '/conn';

let a: GatewayEnv;
let b: GatewayEnv;
let rx: Receiver;
beforeAll(async () => {
  if (!available) return;
  rx = await startReceiver();
  a = await startGateway({ env });
  b = await startGateway({ env: { ...env, PUBLIC_URL: a.base }, emu: a.emu });
  // The platform's deliveries reach B; A made the link.
  a.emu.options.webhookUrl = `${b.base}/api/video/webhooks`;
  await subscribe(a, rx, P, ['connection.*']);
});
afterAll(async () => {
  if (!available) return;
  await b.close();
  await a.close();
  await rx.close();
  const c = new pg.Client({ connectionString: DB });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
});

const types = () => rx.on(P).map((r) => r.json.type as string);
/** Both instances ask the platform at once (each runs its status probes). */
const bothCall = () =>
  Promise.all([a.api('GET', '/api/video/status?fresh=1'), b.api('GET', '/api/video/status?fresh=1')]);

describe.skipIf(!available)('connection health webhooks (two instances on PostgreSQL)', () => {
  it('a link sends one connection.linked', async () => {
    await a.link();
    await settled(rx, P, 1);
    expect(types()).toEqual(['connection.linked']);
  });

  it('a failed refresh seen by both sends one refresh_failed, and its recovery one recovered', async () => {
    await emulator(a, 'POST', '/_sandbox/tokens/expire');
    await emulator(a, 'POST', '/_sandbox/faults', {
      path: '/oauth/token',
      method: 'POST',
      status: 500,
      times: 1,
    });
    await bothCall();
    await settled(rx, P, 2);
    expect(types().at(-1)).toBe('connection.refresh_failed');
    await eventually(async () => {
      await bothCall();
      expect(types()).toContain('connection.recovered');
    }, 100);
    await settled(rx, P, 3);
    expect(types()).toEqual(['connection.linked', 'connection.refresh_failed', 'connection.recovered']);
  });

  it('revoking the tokens sends one connection.needs_relink though both instances find out', async () => {
    await emulator(a, 'POST', '/_sandbox/tokens/revoke');
    await bothCall();
    await bothCall();
    await settled(rx, P, 4);
    expect(types().at(-1)).toBe('connection.needs_relink');
    expect((await b.api('GET', '/api/video/monitor')).json.link.status).toBe('needs_relink');
  });

  it('restoring access sends one connection.recovered', async () => {
    await a.link();
    await settled(rx, P, 5);
    expect(types().at(-1)).toBe('connection.recovered');
    expect((await b.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });

  it('removing the app sends one connection.deauthorized and both instances see no link', async () => {
    const r = await emulator(a, 'POST', '/_sandbox/app/deauthorize');
    expect(r.delivery.attempts[0].status).toBe(200);
    await settled(rx, P, 6);
    expect(types().at(-1)).toBe('connection.deauthorized');
    expect((await a.api('GET', '/api/video/monitor')).json.link.status).toBe('not_linked');
    expect((await b.api('GET', '/api/video/monitor')).json.link.status).toBe('not_linked');
    expect(rx.on(P).every((m) => m.verified)).toBe(true);
    expect(new Set(rx.on(P).map((m) => m.id)).size).toBe(6);
  });
});
