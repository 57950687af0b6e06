/**
 * Key rotation beside a running gateway, on SQLite and PostgreSQL: a refresh that lands between
 * rotate-key's read and its write survives (the write is a compare-and-swap that re-reads and
 * re-seals on conflict), ends sealed under the new key, and the next refresh is accepted.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../src/cli/rotate-key.js';
import { keyring, open, sealedKeyId } from '../../src/gateway/oauth/vault.js';
import { readKeyFile } from '../../src/gateway/secrets.js';
import { createStore } from '../../src/store/create-store.js';
import { requireService } from '../helpers/services.js';
import { startGateway, type GatewayEnv } from './helpers.js';

const DB = process.env['FLEETGATE_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgres = await requireService('PostgreSQL', '127.0.0.1', 5432);
const schemas: string[] = [];

const envs: GatewayEnv[] = [];
afterEach(async () => {
  for (const e of envs.splice(0).reverse()) await e.close();
});
afterAll(async () => {
  if (schemas.length === 0) return;
  const c = new pg.Client({ connectionString: DB });
  await c.connect();
  for (const s of schemas) await c.query(`drop schema if exists ${pg.escapeIdentifier(s)} cascade`);
  await c.end();
});

const adapters = [
  { name: 'sqlite', env: (): Record<string, string> => ({}), skip: false },
  {
    name: 'postgres',
    env: (): Record<string, string> => {
      const schema = `fg_rotate_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      return { DATABASE_URL: DB, FLEETGATE_DB_SCHEMA: schema };
    },
    skip: !postgres,
  },
];

const grants = async (e: GatewayEnv) => (await e.emu.api('GET', '/_sandbox/stats')).json;
const me = (e: GatewayEnv) =>
  e.gateway.platform.call({ method: 'GET', path: '/users/me', label: 'LIGHT', group: 'meetings' });

describe.each(adapters)('rotate-key on $name', ({ env, skip }) => {
  it.skipIf(skip)(
    'keeps a refresh made between its read and its write, re-sealed under the new key',
    async () => {
      const e = await startGateway({ env: env() });
      envs.push(e);
      await e.link();
      // rotate-key's own connection to the store, as the CLI process has.
      const store = await createStore({
        databaseUrl: e.config.databaseUrl,
        dataDir: e.dataDir,
        ...(e.config.databaseSchema ? { schema: e.config.databaseSchema } : {}),
      });
      const keyFile = path.join(e.dataDir, 'encryption-keys.json');
      let refreshedTo = '';
      let interleaved = 0;
      const rotated = await rotateKeys({
        keyFile,
        encryptionKey: undefined,
        store,
        afterRead: async () => {
          if (interleaved++ > 0) return;
          // The platform drops the access token; the gateway refreshes (a single-use refresh token).
          await e.emu.api('POST', '/_sandbox/tokens/expire');
          expect((await me(e)).status).toBe(200);
          refreshedTo = (await grants(e)).lastRefreshToken as string;
        },
      }).finally(() => store.close());
      const ring = keyring(readKeyFile(keyFile).map((k) => Buffer.from(k.key, 'base64')));
      const link = await e.store.getLink();
      expect(link?.status).toBe('linked');
      expect(sealedKeyId(link?.accessToken ?? '')).toBe(rotated.keyId);
      expect(sealedKeyId(link?.refreshToken ?? '')).toBe(rotated.keyId);
      expect(open(ring, link?.refreshToken ?? '', 'link:default:refresh_token')).toBe(refreshedTo);
      // The surviving refresh token is the live one: the next refresh is accepted.
      e.gateway.tokens.reset();
      await e.emu.api('POST', '/_sandbox/tokens/expire');
      expect((await me(e)).status).toBe(200);
      expect((await grants(e)).rejectedRefreshTokens).toBe(0);
      expect((await e.store.getLink())?.status).toBe('linked');
      // The conflict was seen: the values were read again after the refresh.
      expect(interleaved).toBeGreaterThan(1);
    },
  );
});
