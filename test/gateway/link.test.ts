/**
 * Linking through real HTTP against the emulator: the full flow, forged and foreign state,
 * denied consent, a restart keeping the link, disconnect, and the auth wall.
 */
import { afterEach, describe, expect, it } from 'vitest';
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

/** Runs start → authorize → callback by hand, returning the pieces so tests can tamper. */
async function beginFlow(e: GatewayEnv) {
  const s = await fetch(`${e.base}/api/video/oauth/start`, {
    headers: { authorization: `Bearer ${API_KEY}` },
    redirect: 'manual',
  });
  const cookie = (s.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const authorize = new URL(s.headers.get('location') ?? '');
  const consent = await fetch(authorize, { redirect: 'manual' });
  const callback = new URL(consent.headers.get('location') ?? '');
  return { start: s, cookie, authorize, callback };
}

describe('linking', () => {
  it('runs the authorization-code flow with PKCE S256 and a browser-bound state', async () => {
    const e = await start();
    const flow = await beginFlow(e);
    expect(flow.start.status).toBe(302);
    expect(flow.cookie).toMatch(/^fg_link=/);
    expect(flow.start.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(flow.authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(flow.authorize.searchParams.get('state')?.length).toBeGreaterThan(30);
    const done = await fetch(flow.callback, { headers: { cookie: flow.cookie }, redirect: 'manual' });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/dashboard?linked=1');
    const status = await e.api('GET', '/api/video/status');
    expect(status.json.ok).toBe(true);
    const me = await e.emu.api('GET', '/v2/users/me', { token: (await e.emu.userToken()).access_token });
    expect(status.json.account).toEqual({
      id: me.json.account_id,
      email: me.json.email,
      name: me.json.display_name,
      type: me.json.type,
      pmi: me.json.pmi,
    });
  });

  it('stores nothing for a forged state, a state from another browser, or a replayed callback', async () => {
    const e = await start();
    const flow = await beginFlow(e);
    const forged = new URL(flow.callback);
    forged.searchParams.set('state', 'forged');
    const a = await fetch(forged, { headers: { cookie: flow.cookie, accept: 'application/json' } });
    expect(a.status).toBe(400);
    expect((await a.json()).error.code).toBe('invalid_state');
    const other = await beginFlow(e);
    const b = await fetch(other.callback, {
      headers: { cookie: 'fg_link=someone-else', accept: 'application/json' },
    });
    expect((await b.json()).error.code).toBe('invalid_state');
    // The state was consumed by the failed attempt: it cannot be replayed with the right cookie.
    const c = await fetch(other.callback, { headers: { cookie: other.cookie, accept: 'application/json' } });
    expect((await c.json()).error.code).toBe('invalid_state');
    expect(await e.store.getLink()).toBeUndefined();
    const page = await fetch(forged, { headers: { cookie: flow.cookie, accept: 'text/html' } });
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.text()).toContain('The account was not linked');
  });

  it('reports denied consent clearly and stores nothing', async () => {
    const e = await start({ emulator: { autoApprove: false } });
    const flow = await beginFlow(e);
    expect(flow.callback.searchParams.get('error')).toBe('access_denied');
    const r = await fetch(flow.callback, { headers: { cookie: flow.cookie, accept: 'application/json' } });
    expect(r.status).toBe(400);
    expect((await r.json()).error.code).toBe('link_denied');
    expect(await e.store.getLink()).toBeUndefined();
    expect((await e.api('GET', '/api/video/status')).json).toMatchObject({ ok: false, account: null });
  });

  it('keeps the link across a restart (same data dir), with tokens sealed at rest', async () => {
    const e = await start();
    await e.link();
    const twin = await e.twin();
    envs.push(twin);
    expect((await twin.api('GET', '/api/video/status')).json.ok).toBe(true);
    const link = await e.store.getLink();
    const stats = (await e.emu.api('GET', '/_sandbox/stats')).json;
    expect(link?.accessToken.startsWith('v1.')).toBe(true);
    expect(link?.accessToken).not.toContain(stats.lastAccessToken);
    expect(link?.refreshToken).not.toContain(stats.lastRefreshToken);
  });

  it('disconnects: revokes upstream and forgets the tokens', async () => {
    const e = await start();
    await e.link();
    const r = await e.api('POST', '/api/video/oauth/disconnect');
    expect(r.json).toEqual({ linked: false, revoked: true });
    expect(await e.store.getLink()).toBeUndefined();
    const stats = (await e.emu.api('GET', '/_sandbox/stats')).json;
    expect((await e.emu.api('GET', '/v2/users/me', { token: stats.lastAccessToken })).status).toBe(401);
    expect((await e.api('POST', '/api/video/oauth/disconnect')).json.error.code).toBe('not_linked');
  });

  it('never writes a token, the client secret or the API key to the log', async () => {
    const e = await start();
    await e.link();
    await e.emu.api('POST', '/_sandbox/tokens/expire');
    await e.api('GET', '/api/video/status?fresh=1');
    await e.api('GET', '/api/video/status', { key: 'wrong' });
    const stats = (await e.emu.api('GET', '/_sandbox/stats')).json;
    const log = e.logs().join('\n');
    expect(log.length).toBeGreaterThan(0);
    for (const secret of [stats.lastAccessToken, stats.lastRefreshToken, API_KEY, 'sandbox-secret'])
      expect(log).not.toContain(secret);
  });

  it('guards every private path with the API key', async () => {
    const e = await start();
    for (const [method, p] of [
      ['GET', '/api/video/status'],
      ['GET', '/api/video/monitor'],
      ['GET', '/api/video/oauth/start'],
      ['POST', '/api/video/oauth/disconnect'],
    ] as const) {
      for (const key of [null, 'wrong-key', `${API_KEY}x`]) {
        const r = await e.api(method, p, { key });
        expect(r.status, `${method} ${p} ${key}`).toBe(401);
        expect(r.json.error.code).toBe('unauthorized');
      }
      const inQuery = await fetch(`${e.base}${p}?api_key=${API_KEY}`, { method });
      expect(inQuery.status).toBe(401);
    }
  });
});
