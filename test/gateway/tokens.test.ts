/**
 * Token freshness under pressure, against the emulator's counters: concurrent calls at expiry
 * cost exactly one refresh grant (in one instance and across two sharing the database), a
 * refresh the platform refuses marks the link needs_relink and is never retried, and key
 * rotation re-encrypts online.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/build-test-app.js';
import { basic } from '../helpers/emulator.js';
import { cliCommand, startService } from '../helpers/spawn-service.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

const envs: GatewayEnv[] = [];
afterEach(async () => {
  for (const e of envs.splice(0).reverse()) await e.close();
});
const start = async (o?: Parameters<typeof startGateway>[0]) => {
  const e = await startGateway(o);
  envs.push(e);
  return e;
};
const grants = async (e: GatewayEnv) => (await e.emu.api('GET', '/_sandbox/stats')).json;
const me = (e: GatewayEnv) =>
  e.gateway.platform.call({ method: 'GET', path: '/users/me', label: 'LIGHT', group: 'meetings' });

describe('refresh', () => {
  it('60 concurrent calls at expiry cost exactly one refresh grant', async () => {
    const e = await start();
    await e.link();
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    const before = (await grants(e)).tokenGrants.refresh_token;
    const results = await Promise.all(Array.from({ length: 60 }, () => me(e)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const after = await grants(e);
    expect(after.tokenGrants.refresh_token - before).toBe(1);
    expect(after.rejectedRefreshTokens).toBe(0);
  });

  it('refreshes ahead of expiry by the margin, not after', async () => {
    const e = await start({ env: { FLEETGATE_REFRESH_MARGIN: '3600' } });
    await e.link();
    const before = (await grants(e)).tokenGrants.refresh_token;
    await me(e);
    expect((await grants(e)).tokenGrants.refresh_token - before).toBe(1);
  });

  it('two processes sharing one database refresh once between them', async () => {
    const a = await start();
    await a.link();
    // A second gateway process on the same SQLite file (SQLite locks are per process).
    const b = await startService({
      FLEETGATE_DATA_DIR: a.dataDir,
      FLEETGATE_SANDBOX: '0',
      FLEETGATE_API_KEY: API_KEY,
      VIDEO_CLIENT_ID: 'sandbox-client',
      VIDEO_CLIENT_SECRET: 'sandbox-secret',
      VIDEO_API_BASE: `${a.emu.base}/v2`,
      VIDEO_OAUTH_BASE: a.emu.base,
      BRAND_WATCH: '0',
    });
    try {
      expect(b.output()).toContain('(linked as ');
      await a.emu.api('POST', '/_sandbox/tokens/expire');
      const before = (await grants(a)).tokenGrants.refresh_token;
      const remote = Array.from({ length: 20 }, (_, i) =>
        fetch(`${b.base}/api/video/status${i === 0 ? '?fresh=1' : ''}`, {
          headers: { authorization: `Bearer ${API_KEY}` },
        }).then((r) => r.status),
      );
      const local = Array.from({ length: 30 }, () => me(a).then((r) => r.status));
      const statuses = await Promise.all([...remote, ...local]);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const after = await grants(a);
      expect(after.tokenGrants.refresh_token - before).toBe(1);
      expect(after.rejectedRefreshTokens).toBe(0);
    } finally {
      await b.stop();
    }
  });

  it('refreshes once after a 401 from the platform and replays the call', async () => {
    const e = await start();
    await e.link();
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/users/me', method: 'GET', status: 401, times: 1 },
    });
    const before = (await grants(e)).tokenGrants.refresh_token;
    expect((await me(e)).status).toBe(200);
    expect((await grants(e)).tokenGrants.refresh_token - before).toBe(1);
  });

  it('on invalid_grant marks the link needs_relink and never tries that token again', async () => {
    const e = await start();
    await e.link();
    // Kill the refresh token behind the gateway's back, then force a refresh.
    const stats = await grants(e);
    await fetch(`${e.emu.base}/oauth/revoke`, {
      method: 'POST',
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: stats.lastRefreshToken }),
    });
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    await expect(me(e)).rejects.toMatchObject({ code: 'needs_relink', status: 409 });
    await expect(me(e)).rejects.toMatchObject({ code: 'needs_relink' });
    expect((await grants(e)).rejectedRefreshTokens).toBe(1);
    expect((await e.store.getLink())?.status).toBe('needs_relink');
    const status = await e.api('GET', '/api/video/status');
    expect(status.json.ok).toBe(false);
    expect(status.json.note).toMatch(/Link the account again/);
    // Linking again heals it.
    await e.link();
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
  });
});

describe('key rotation', () => {
  it('re-encrypts every sealed value under a new key while the running instance keeps working', async () => {
    const e = await start({ env: { FLEETGATE_API_KEY: API_KEY } });
    await e.link();
    const before = await e.store.getLink();
    const [node, ...args] = cliCommand('rotate-key');
    await promisify(execFile)(node, args, {
      cwd: REPO,
      env: { ...process.env, FLEETGATE_DATA_DIR: e.dataDir, LOG_LEVEL: 'silent' },
    });
    const after = await e.store.getLink();
    expect(after?.accessToken.split('.')[1]).not.toBe(before?.accessToken.split('.')[1]);
    expect(after?.refreshToken?.split('.')[1]).toBe(after?.accessToken.split('.')[1]);
    // The running gateway has never seen the new key; it picks it up on first use.
    e.gateway.tokens.reset();
    expect((await me(e)).status).toBe(200);
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    expect((await me(e)).status).toBe(200);
  });
});

describe('server-to-server mode', () => {
  it('links with account credentials, reports status, and gets new tokens without a refresh token', async () => {
    const probe = await start();
    const me = await probe.emu.api('GET', '/v2/users/me', {
      token: (await probe.emu.userToken()).access_token,
    });
    const e = await start({
      env: { VIDEO_ACCOUNT_ID: me.json.account_id, FLEETGATE_RATE_BUDGETS: 'light=100,medium=50' },
    });
    expect(e.gateway.budgets.headroom().LIGHT.limit).toBe(100);
    const link = await e.gateway.link.linkServerToServer();
    expect(link).toMatchObject({ mode: 's2s', refreshToken: null, accountId: me.json.account_id });
    const status = (await e.api('GET', '/api/video/status?fresh=1')).json;
    expect(status.ok).toBe(true);
    expect(status.phoneOk).toBe(true);
    expect((await e.api('GET', '/api/video/oauth/start')).json.error.code).toBe('not_applicable');
    const before = (await grants(e)).tokenGrants.account_credentials;
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    expect(
      (
        await e.gateway.platform.call({
          method: 'GET',
          path: `/users/${link.userId}`,
          label: 'LIGHT',
          group: 'meetings',
        })
      ).status,
    ).toBe(200);
    expect((await grants(e)).tokenGrants.account_credentials - before).toBe(1);
  });
});
