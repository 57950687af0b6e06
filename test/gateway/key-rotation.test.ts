/**
 * Key rotation beside a running gateway, on SQLite and PostgreSQL: a refresh that lands between
 * rotate-key's read and its write survives (the write is a compare-and-swap that re-reads and
 * re-seals on conflict), ends sealed under the new key, and the next refresh is accepted.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { rotateKeys } from '../../src/cli/rotate-key.js';
import { keyId, keyring, open, seal, sealedKeyId } from '../../src/gateway/oauth/vault.js';
import { readKeyFile } from '../../src/gateway/secrets.js';
import { createStore } from '../../src/store/create-store.js';
import { REPO } from '../helpers/build-test-app.js';
import { cliCommand } from '../helpers/spawn-service.js';
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

/** One CLI run to its end, on the gateway's data dir. */
function cli(e: GatewayEnv, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const [node, ...argv] = cliCommand(...args);
  return new Promise((resolve) => {
    execFile(
      node,
      argv,
      {
        cwd: REPO,
        env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', FLEETGATE_DATA_DIR: e.dataDir, ...env },
        timeout: 60_000,
      },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const fileKeyIds = (e: GatewayEnv) =>
  readKeyFile(path.join(e.dataDir, 'encryption-keys.json')).map((k) => keyId(Buffer.from(k.key, 'base64')));

describe('rotate-key --retire', () => {
  it('a running instance seals new values under a rotated-in key at once, before it meets one', async () => {
    const e = await startGateway();
    envs.push(e);
    await e.link();
    expect((await cli(e, ['rotate-key'])).code).toBe(0);
    const newest = fileKeyIds(e).at(-1);
    // Nothing sealed with the new key has been read by this instance yet; a new OAuth state is sealed now.
    const started = await e.api('GET', '/api/video/oauth/start');
    expect(started.status).toBe(200);
    const states = (await e.store.sealedValues()).filter((v) => v.table === 'oauth_states');
    expect(states.map((v) => sealedKeyId(v.value))).toEqual([newest]);
  });

  it('retires an older key once nothing is sealed with it, and never the current one', async () => {
    const e = await startGateway();
    envs.push(e);
    await e.link();
    const [first] = fileKeyIds(e);
    if (!first) throw new Error('no key file');

    const current = await cli(e, ['rotate-key', '--retire', first]);
    expect(current.code).toBe(1);
    expect(current.stderr).toMatch(new RegExp(`key ${first} is the current key`));
    const unknown = await cli(e, ['rotate-key', '--retire', 'feedbeef0000']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no key feedbeef0000 in .*encryption-keys\.json/);
    expect(unknown.stderr).toContain(first);

    expect((await cli(e, ['rotate-key'])).code).toBe(0);
    const second = fileKeyIds(e).at(-1);
    if (!second) throw new Error('no second key');
    expect((await cli(e, ['rotate-key', '--retire', second])).stderr).toMatch(/is the current key/);

    // A value still sealed with the first key (an instance that sealed with it late) blocks it.
    const ring = keyring(
      readKeyFile(path.join(e.dataDir, 'encryption-keys.json')).map((k) => Buffer.from(k.key, 'base64')),
    );
    const link = await e.store.getLink();
    if (!link) throw new Error('no link');
    const plain = open(ring, link.accessToken, 'link:default:access_token');
    const oldOnly = keyring([ring.all.get(first) as Buffer]);
    await e.store.saveLink({ ...link, accessToken: seal(oldOnly, plain, 'link:default:access_token') });
    const blocked = await cli(e, ['rotate-key', '--retire', first]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(
      new RegExp(`1 sealed value\\(s\\) still use key ${first}: link\\.access_token`),
    );
    expect(fileKeyIds(e)).toContain(first);

    // Re-sealed by another rotation, it goes; the other keys stay and the link keeps working.
    expect((await cli(e, ['rotate-key'])).code).toBe(0);
    const retired = await cli(e, ['rotate-key', '--retire', first]);
    expect(retired.code, retired.stderr).toBe(0);
    expect(retired.stdout).toMatch(new RegExp(`retired key ${first}`));
    expect(fileKeyIds(e)).not.toContain(first);
    expect(fileKeyIds(e)).toContain(second);
    e.gateway.tokens.reset();
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    expect((await me(e)).status).toBe(200);
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });

  it('never retires the key FLEETGATE_ENCRYPTION_KEY names', async () => {
    const configured = randomBytes(32).toString('base64');
    const e = await startGateway({ env: { FLEETGATE_ENCRYPTION_KEY: configured } });
    envs.push(e);
    await e.link();
    const env = { FLEETGATE_ENCRYPTION_KEY: configured };
    // rotate-key keeps the configured key in the file; it stays current while it is configured.
    expect((await cli(e, ['rotate-key'], env)).code).toBe(0);
    const id = keyId(Buffer.from(configured, 'base64'));
    const r = await cli(e, ['rotate-key', '--retire', id], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`key ${id} is the current key`));
  });
});
