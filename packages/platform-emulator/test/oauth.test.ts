/**
 * The emulator's OAuth server: code flow with PKCE, single-use codes, refresh rotation and
 * reuse, account and client credentials, revocation, and the token endpoint's error shape.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, REDIRECT, startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(() => t.close());

async function authorize(params: Record<string, string>) {
  const qs = new URLSearchParams({
    response_type: 'code',
    client_id: 'sandbox-client',
    redirect_uri: REDIRECT,
    state: 's1',
    ...params,
  });
  return fetch(`${t.base}/oauth/authorize?${qs.toString()}`, { redirect: 'manual' });
}
const codeOf = (res: Response) =>
  new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('code') ?? '';
async function token(params: Record<string, string>, opts: { auth?: string; inQuery?: boolean } = {}) {
  const form = new URLSearchParams(params);
  const res = await fetch(`${t.base}/oauth/token${opts.inQuery ? `?${form.toString()}` : ''}`, {
    method: 'POST',
    headers: { authorization: opts.auth ?? basic(), 'content-type': 'application/x-www-form-urlencoded' },
    body: opts.inQuery ? '' : form,
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('authorize', () => {
  it('redirects back with code and state', async () => {
    const res = await authorize({});
    expect(res.status).toBe(302);
    const loc = new URL(res.headers.get('location') ?? '');
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
    expect(loc.searchParams.get('state')).toBe('s1');
    // An opaque single-use code: 16 random bytes, base64url.
    expect(loc.searchParams.get('code')).toMatch(/^[\w-]{22}$/);
  });

  it('never redirects to an unregistered URI', async () => {
    const res = await authorize({ redirect_uri: 'https://evil.example/cb' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect((await res.json()) as object).toMatchObject({ error: 'invalid_request' });
  });

  it('answers access_denied when configured to refuse', async () => {
    const refusing = await startTestEmulator({ autoApprove: false });
    try {
      const res = await fetch(
        `${refusing.base}/oauth/authorize?response_type=code&client_id=sandbox-client&redirect_uri=${encodeURIComponent(REDIRECT)}&state=q`,
        { redirect: 'manual' },
      );
      const loc = new URL(res.headers.get('location') ?? '');
      expect(loc.searchParams.get('error')).toBe('access_denied');
      expect(loc.searchParams.get('state')).toBe('q');
      expect(loc.searchParams.get('code')).toBeNull();
    } finally {
      await refusing.close();
    }
  });
});

describe('authorization_code grant', () => {
  it('issues the platform token response, with params in the form or the query', async () => {
    const { verifier, challenge } = pkce();
    const code = codeOf(await authorize({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const r = await token(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
      { inQuery: true },
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ token_type: 'bearer', expires_in: 3599, api_url: t.base });
    expect(r.json['access_token'].split('.')).toHaveLength(3);
    expect(typeof r.json['refresh_token']).toBe('string');
    expect(r.json['scope']).toContain('meeting:read:meeting');
    expect(r.json['scope']).not.toContain('webinar:');
  });

  it('checks the PKCE verifier (S256 and plain)', async () => {
    const { challenge } = pkce();
    const code = codeOf(await authorize({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const wrong = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: 'not-it',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json['error']).toBe('invalid_grant');
    const plainCode = codeOf(await authorize({ code_challenge: 'plain-secret-value' }));
    const missing = await token({
      grant_type: 'authorization_code',
      code: plainCode,
      redirect_uri: REDIRECT,
    });
    expect(missing.json['error']).toBe('invalid_grant');
    const plainCode2 = codeOf(
      await authorize({ code_challenge: 'plain-secret-value', code_challenge_method: 'plain' }),
    );
    const ok = await token({
      grant_type: 'authorization_code',
      code: plainCode2,
      redirect_uri: REDIRECT,
      code_verifier: 'plain-secret-value',
    });
    expect(ok.status).toBe(200);
  });

  it('uses a code once, and not after 5 minutes', async () => {
    const code = codeOf(await authorize({}));
    expect((await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).status).toBe(
      200,
    );
    const again = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(again.json).toEqual({ reason: `Invalid authorization code ${code}`, error: 'invalid_request' });
    const late = codeOf(await authorize({}));
    t.advance(5 * 60_000 + 1000);
    expect(
      (await token({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT })).json['error'],
    ).toBe('invalid_grant');
  });

  it('refuses a bad client with the token-endpoint error shape', async () => {
    const r = await token({ grant_type: 'client_credentials' }, { auth: basic('sandbox-client', 'wrong') });
    expect(r.json).toEqual({ reason: 'Invalid client_id or client_secret', error: 'invalid_client' });
    const u = await expectViolation({ name: 'grant_type' }, () => token({ grant_type: 'password' }));
    expect(u.json).toEqual({ reason: 'unsupported grant type', error: 'unsupported_grant_type' });
  });
});

describe('refresh_token grant', () => {
  it('rotates: the new refresh token works, the old one is dead and counted', async () => {
    const first = await t.userToken();
    const r1 = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(r1.status).toBe(200);
    expect(r1.json['refresh_token']).not.toBe(first.refresh_token);
    const before = (await t.api('GET', '/_sandbox/stats')).json.rejectedRefreshTokens;
    const reuse = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(reuse.status).toBe(400);
    expect(reuse.json).toEqual({ reason: 'Invalid Token!', error: 'invalid_grant' });
    expect((await t.api('GET', '/_sandbox/stats')).json.rejectedRefreshTokens).toBe(before + 1);
    const r2 = await token({ grant_type: 'refresh_token', refresh_token: r1.json['refresh_token'] });
    expect(r2.status).toBe(200);
    expect((await t.api('GET', '/v2/users/me', { token: r2.json['access_token'] })).status).toBe(200);
  });
});

describe('server-to-server grants', () => {
  it('account_credentials gives no refresh token and no `me`', async () => {
    const user = await t.api('GET', '/v2/users/me', { token: (await t.userToken()).access_token });
    const r = await token({ grant_type: 'account_credentials', account_id: user.json.account_id });
    expect(r.status).toBe(200);
    expect(r.json['refresh_token']).toBeUndefined();
    const me = await expectViolation({ name: 'me', rule: 'no me with an account token' }, () =>
      t.api('GET', '/v2/users/me', { token: r.json['access_token'] }),
    );
    expect(me.json).toEqual({ code: 1001, message: 'User does not exist: me.' });
    expect((await t.api('GET', `/v2/users/${user.json.id}`, { token: r.json['access_token'] })).status).toBe(
      200,
    );
    const c = await token({ grant_type: 'client_credentials' });
    expect(c.status).toBe(200);
    const stats = (await t.api('GET', '/_sandbox/stats')).json;
    expect(stats.tokenGrants.account_credentials).toBeGreaterThanOrEqual(1);
    expect(stats.tokenGrants.client_credentials).toBeGreaterThanOrEqual(1);
  });
});

describe('revoke', () => {
  it('kills the access token and its refresh token', async () => {
    const pair = await t.userToken();
    const res = await fetch(`${t.base}/oauth/revoke`, {
      method: 'POST',
      headers: { authorization: basic(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: pair.access_token }),
    });
    expect(await res.json()).toEqual({ status: 'success' });
    expect((await t.api('GET', '/v2/users/me', { token: pair.access_token })).json).toEqual({
      code: 124,
      message: 'Invalid access token.',
    });
    expect(
      (await token({ grant_type: 'refresh_token', refresh_token: pair.refresh_token })).json['error'],
    ).toBe('invalid_grant');
  });
});
