/**
 * Dashboard sessions across instances sharing one store, over real HTTP: a session made on one
 * instance works on the other, and signing out on either ends it on both (its cookie is signed
 * out on the dashboard and refused by the API). Two processes on one SQLite file (twin), and
 * two on one PostgreSQL schema.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { requireService } from '../helpers/services.js';
import { dashboardClient } from '../pages/dashboard-client.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `fg_sessions_${process.pid}_${randomBytes(3).toString('hex')}`;
const postgres = await requireService('PostgreSQL', '127.0.0.1', 5432);

const opened: GatewayEnv[] = [];
afterAll(async () => {
  // The second of each pair shares the first's emulator (and data dir): closed first.
  for (const g of opened.reverse()) await g.close();
  if (!postgres) return;
  const c = new pg.Client({ connectionString: DB });
  await c.connect();
  await c.query(`drop schema if exists ${schema} cascade`);
  await c.end();
});

async function signOutOnOneRefusedOnTheOther(a: GatewayEnv, b: GatewayEnv) {
  const onA = dashboardClient(a.base);
  const onB = dashboardClient(b.base);
  const cookie = await onA.signIn();
  expect(await onB.signedIn(cookie)).toBe(true);
  expect((await onB.http('GET', '/api/video/status', { cookie })).status).toBe(200);

  const out = await onB.http('POST', '/dashboard/logout', {
    cookie,
    form: { csrf: await onB.csrfOf(cookie) },
  });
  expect(out.status).toBe(303);

  for (const side of [onA, onB]) {
    expect(await side.signedIn(cookie)).toBe(false);
    expect((await side.http('GET', '/api/video/status', { cookie })).status).toBe(401);
  }
}

describe('dashboard sessions across instances', () => {
  it('on one SQLite file: signing out on one instance ends the session on the other', async () => {
    const a = await startGateway();
    opened.push(a);
    const b = await a.twin();
    opened.push(b);
    await signOutOnOneRefusedOnTheOther(a, b);
  }, 60_000);

  it.skipIf(!postgres)(
    'on one PostgreSQL schema: signing out on one instance ends the session on the other',
    async () => {
      const env = {
        DATABASE_URL: DB,
        FLEETGATE_DB_SCHEMA: schema,
        FLEETGATE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      };
      const a = await startGateway({ env });
      opened.push(a);
      const b = await startGateway({ env, emu: a.emu, dataDir: a.dataDir });
      opened.push(b);
      await signOutOnOneRefusedOnTheOther(a, b);
    },
    60_000,
  );
});
