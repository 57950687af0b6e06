import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorModule } from '../src/context.js';
import { marketplaceModule } from '../src/routes/marketplace.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { checkResponse, documentedScopes } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, marketplaceModule] as EmulatorModule[];
let t: TestEmulator;
let token: string;
let granted: string[];
let appId: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
  const tok = await t.userToken();
  token = tok.access_token;
  granted = tok.scope.split(' ');
  appId = t.options.clientId;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown, ignore?: RegExp) =>
  expect(
    checkResponse('marketplace.json', method, template, status, body).filter((e) => !ignore?.test(e)),
    `${method} ${template}`,
  ).toEqual([]);

describe('marketplace', () => {
  it("describes the emulator's own app with the scopes it grants; unknown apps are 404 code 1401", async () => {
    const app = await t.api('GET', `/v2/marketplace/apps/${appId}`, { token });
    expect(app.status).toBe(200);
    fidelity('GET', '/marketplace/apps/{appId}', 200, app.json);
    expect(app.json.app_id).toBe(appId);
    expect(app.json.app_type).toBe('OAuthApp');
    expect([...app.json.app_scopes].sort()).toEqual([...granted].sort());
    expect(
      app.json.app_permissions
        .flatMap((g: { permissions: { name: string }[] }) => g.permissions.map((x) => x.name))
        .sort(),
    ).toEqual([...granted].sort());

    const missing = await t.api('GET', '/v2/marketplace/apps/nope', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 1401, message: 'APP ID does not exist: nope' });
  });

  it('reports app_scopes equal to a restricted grant', async () => {
    const scopes = ['marketplace:read:app', 'meeting:read:meeting'];
    const only = await startTestEmulator({ scopes }, MODULES);
    try {
      const tok = await only.userToken();
      expect(tok.scope.split(' ').sort()).toEqual(scopes);
      const app = await only.api('GET', `/v2/marketplace/apps/${only.options.clientId}`, {
        token: tok.access_token,
      });
      expect(app.json.app_scopes).toEqual(scopes);
      const denied = await only.api('GET', '/v2/marketplace/users/me/entitlements', {
        token: tok.access_token,
      });
      expect(denied.json.code).toBe(4711);
    } finally {
      await only.close();
    }
  });

  it("returns the user's entitlements in both documented shapes", async () => {
    const top = await t.api('GET', '/v2/marketplace/monetization/entitlements', { token });
    expect(top.status).toBe(200);
    fidelity('GET', '/marketplace/monetization/entitlements', 200, top.json);
    expect(Array.isArray(top.json)).toBe(true);
    expect(top.json[0].plan_name).toBe('Meridian Fleet Gateway Business');
    const me = (await t.api('GET', '/v2/users/me', { token })).json;
    const byId = await t.api('GET', '/v2/marketplace/monetization/entitlements', {
      token,
      query: { user_id: me.id },
    });
    expect(byId.json).toEqual(top.json);
    const nobody = await t.api('GET', '/v2/marketplace/monetization/entitlements', {
      token,
      query: { user_id: 'someone-else' },
    });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toEqual({ code: 1002, message: 'No entitlements assigned to the user for the app.' });

    const user = await t.api('GET', '/v2/marketplace/users/me/entitlements', { token });
    expect(user.status).toBe(200);
    fidelity('GET', '/marketplace/users/{userId}/entitlements', 200, user.json);
    expect(String(user.json.entitlements[0].entitlement_id)).toBe(top.json[0].id);
    expect((await t.api('GET', '/v2/marketplace/users/nobody/entitlements', { token })).json.code).toBe(1001);
  });

  it("lists colleagues' requests for the app by status, with paging", async () => {
    // The spec gives request_user_department the "email" format, which a department never has.
    const dept = /request_user_department must match format "email"/;
    const pending = await t.api('GET', `/v2/marketplace/apps/${appId}/requests`, { token });
    expect(pending.status).toBe(200);
    fidelity('GET', '/marketplace/apps/{appId}/requests', 200, pending.json, dept);
    expect(pending.json.requests).toHaveLength(3);
    expect(pending.json.requests.every((r: { status: string }) => r.status === 'pending')).toBe(true);
    const users = (await t.api('GET', '/v2/users', { token })).json.users.map((u: { id: string }) => u.id);
    expect(users).toContain(pending.json.requests[0].request_user_id);

    const first = await t.api('GET', `/v2/marketplace/apps/${appId}/requests`, {
      token,
      query: { page_size: 2 },
    });
    expect(first.json.requests).toHaveLength(2);
    expect(first.json.page_size).toBe(2);
    const second = await t.api('GET', `/v2/marketplace/apps/${appId}/requests`, {
      token,
      query: { page_size: 2, next_page_token: first.json.next_page_token },
    });
    expect(second.json.requests).toHaveLength(1);
    expect(second.json.next_page_token).toBe('');
    const forged = await t.api('GET', `/v2/marketplace/apps/${appId}/requests`, {
      token,
      query: { next_page_token: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });

    const rejected = await t.api('GET', `/v2/marketplace/apps/${appId}/requests`, {
      token,
      query: { status: 'rejected' },
    });
    expect(rejected.json.requests.map((r: { request_user_name: string }) => r.request_user_name)).toEqual([
      'Sam Okafor',
    ]);
    const badStatus = await expectViolation({ where: 'query', name: 'status' }, () =>
      t.api('GET', `/v2/marketplace/apps/${appId}/requests`, { token, query: { status: 'open' } }),
    );
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.code).toBe(300);
    const other = await t.api('GET', '/v2/marketplace/apps/nope/requests', { token });
    expect(other.json).toEqual({ code: 1401, message: 'App ID does not exist: nope' });
  });

  it("lists the user's own app requests, active and past", async () => {
    const active = await t.api('GET', '/v2/marketplace/users/me/apps', { token });
    expect(active.status).toBe(200);
    fidelity('GET', '/marketplace/users/{userId}/apps', 200, active.json);
    expect(active.json.apps.map((a: { app_name: string }) => a.app_name)).toEqual([
      'LoadBoard Sync',
      'Lakeshore Logistics Portal',
    ]);
    expect(active.json.apps[0].request_date_time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Date.parse(active.json.apps[0].request_date_time)).toBeLessThan(Date.now());
    const past = await t.api('GET', '/v2/marketplace/users/me/apps', {
      token,
      query: { type: 'past_requests' },
    });
    fidelity('GET', '/marketplace/users/{userId}/apps', 200, past.json);
    expect(past.json.apps.map((a: { request_status: string }) => a.request_status)).toEqual([
      'approved',
      'rejected',
    ]);
    expect(past.json.apps[0]).not.toHaveProperty('request_date_time');
    const app = await t.api('GET', `/v2/marketplace/apps/${active.json.apps[0].app_id}`, { token });
    fidelity('GET', '/marketplace/apps/{appId}', 200, app.json);
    expect(app.json.app_name).toBe('LoadBoard Sync');
    const nobody = await t.api('GET', '/v2/marketplace/users/nobody/apps', { token });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toEqual({
      code: 1001,
      message: 'User does not exist or does not belong to this account.',
    });
  });

  it('accepts every documented scope for each call', async () => {
    const ops: [string, string][] = [
      ['GET', '/marketplace/apps/{appId}'],
      ['GET', '/marketplace/monetization/entitlements'],
      ['GET', '/marketplace/users/{userId}/entitlements'],
      ['GET', '/marketplace/apps/{appId}/requests'],
      ['GET', '/marketplace/users/{userId}/apps'],
    ];
    for (const [m, path] of ops)
      for (const s of documentedScopes('marketplace.json', m, path))
        expect(granted, `${m} ${path}`).toContain(s);
    const only = await startTestEmulator({ scopes: ['marketplace:read:app_request:admin'] }, MODULES);
    try {
      const tok = (await only.userToken()).access_token;
      expect(
        (await only.api('GET', `/v2/marketplace/apps/${only.options.clientId}/requests`, { token: tok }))
          .status,
      ).toBe(200);
      expect((await only.api('GET', '/v2/marketplace/users/me/apps', { token: tok })).json.code).toBe(4711);
    } finally {
      await only.close();
    }
  });
});
