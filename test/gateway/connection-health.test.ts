/**
 * Connection health end to end on one instance (SQLite) against the emulator: linking, a failed
 * refresh and its recovery, revoked tokens, a relink, the app removed (the platform's signed
 * `app_deauthorized`), and a disconnect each reach a subscriber as exactly one signed
 * `connection.*` webhook; the dashboard's history, /api/video/status and the monitor agree; the
 * emulator re-validates the webhook endpoint and the gateway answers the challenge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/build-test-app.js';
import { dashboardHtml, emulator, ENV, settled, subscribe } from './connection-health-helpers.js';
import { startGateway, type GatewayEnv } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

let e: GatewayEnv;
let rx: Receiver;
const P = '/conn';
beforeAll(async () => {
  rx = await startReceiver();
  e = await startGateway({ env: ENV });
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
  await subscribe(e, rx, P, ['connection.*']);
});
afterAll(async () => {
  await e.close();
  await rx.close();
});

/** The connection events the subscriber accepted, in order. */
const types = () => rx.on(P).map((r) => r.json.type as string);
const last = (type: string) =>
  rx
    .on(P)
    .filter((r) => r.json.type === type)
    .at(-1);

describe('connection health webhooks (one instance)', () => {
  it('linking sends one connection.linked, signed, naming the link and no token', async () => {
    await e.link();
    await settled(rx, P, 1);
    expect(types()).toEqual(['connection.linked']);
    const m = rx.on(P)[0];
    expect(m?.verified).toBe(true);
    expect(m?.json.data).toMatchObject({
      status_before: 'not_linked',
      status_after: 'linked',
      reason: 'oauth_callback',
      mode: 'user',
    });
    const link = await e.store.getLink();
    expect(m?.json.data).toMatchObject({ account_id: link?.accountId, email: link?.email });
    const stats = await emulator(e, 'GET', '/_sandbox/stats');
    expect(m?.body).not.toContain(stats.lastAccessToken);
    expect(m?.body).not.toContain(stats.lastRefreshToken);
  });

  it('a failed refresh sends one connection.refresh_failed with the attempt and next try, then one recovered', async () => {
    await emulator(e, 'POST', '/_sandbox/tokens/expire');
    await emulator(e, 'POST', '/_sandbox/faults', {
      path: '/oauth/token',
      method: 'POST',
      status: 500,
      times: 1,
    });
    await e.api('GET', '/api/video/status?fresh=1');
    await settled(rx, P, 2);
    expect(types()).toEqual(['connection.linked', 'connection.refresh_failed']);
    const failed = last('connection.refresh_failed');
    expect(failed?.json.data).toMatchObject({
      status_before: 'linked',
      status_after: 'refresh_failing',
      attempt: 1,
      error: expect.stringMatching(/^500 /),
    });
    expect(Date.parse(failed?.json.data.next_attempt_at)).toBeGreaterThan(Date.parse(failed?.json.timestamp));
    // While it backs off nobody asks the platform again; once the next try is due, one call recovers it.
    await eventually(async () => {
      await e.api('GET', '/api/video/status?fresh=1');
      expect(types()).toContain('connection.recovered');
    }, 100);
    await settled(rx, P, 3);
    expect(types()).toEqual(['connection.linked', 'connection.refresh_failed', 'connection.recovered']);
    expect(last('connection.recovered')?.json.data).toMatchObject({
      status_before: 'refresh_failing',
      status_after: 'linked',
      reason: 'refreshed',
      failed_attempts: 1,
    });
  });

  it('revoked tokens send one connection.needs_relink; status, monitor and dashboard agree', async () => {
    const revoked = await emulator(e, 'POST', '/_sandbox/tokens/revoke');
    expect(revoked.revoked.refresh).toBeGreaterThan(0);
    await e.api('GET', '/api/video/status?fresh=1');
    await e.api('GET', '/api/video/status?fresh=1');
    await settled(rx, P, 4);
    expect(types().at(-1)).toBe('connection.needs_relink');
    expect(last('connection.needs_relink')?.json.data).toMatchObject({
      status_before: 'linked',
      status_after: 'needs_relink',
      reason: 'refresh_token_rejected',
      platform_error: 'invalid_grant',
    });
    expect((await e.api('GET', '/api/video/status')).json.ok).toBe(false);
    expect((await e.api('GET', '/api/video/monitor')).json.link.status).toBe('needs_relink');
    const page = await dashboardHtml(e);
    expect(page).toContain('Link health');
    expect(page).toMatch(/Now: <span class="badge badge-bad">needs relink<\/span>/);
    expect(page).toContain('refresh token rejected');
  });

  it('restoring access (a relink through the OAuth flow) sends one connection.recovered', async () => {
    await e.link();
    await settled(rx, P, 5);
    expect(types().at(-1)).toBe('connection.recovered');
    expect(last('connection.recovered')?.json.data).toMatchObject({
      status_before: 'needs_relink',
      status_after: 'linked',
      reason: 'relinked',
    });
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(true);
    expect((await e.api('GET', '/api/video/monitor')).json.link.status).toBe('linked');
  });

  it('removing the app in the emulator sends app_deauthorized; the link goes and one connection.deauthorized is sent', async () => {
    const r = await emulator(e, 'POST', '/_sandbox/app/deauthorize');
    expect(r.delivery.event).toBe('app_deauthorized');
    expect(r.delivery.attempts[0].status).toBe(200);
    await settled(rx, P, 6);
    expect(types().at(-1)).toBe('connection.deauthorized');
    const data = last('connection.deauthorized')?.json.data;
    expect(data).toMatchObject({
      status_before: 'linked',
      status_after: 'not_linked',
      reason: 'app_deauthorized',
    });
    expect(data.user_data_retention).toBe(false);
    expect(await e.store.getLink()).toBeUndefined();
    expect((await e.api('GET', '/api/video/status?fresh=1')).json.ok).toBe(false);
    expect((await e.api('GET', '/api/video/monitor')).json.link.status).toBe('not_linked');
    // The platform's retry of the same delivery changes nothing more.
    const log = await emulator(e, 'GET', '/_sandbox/webhooks');
    expect(log.deliveries.filter((d: { event: string }) => d.event === 'app_deauthorized')).toHaveLength(1);
  });

  it('linking again sends connection.linked, and a disconnect one connection.unlinked', async () => {
    await e.link();
    await settled(rx, P, 7);
    expect(last('connection.linked')?.json.data.status_before).toBe('not_linked');
    const d = await e.api('POST', '/api/video/oauth/disconnect');
    expect(d.status, d.text).toBe(200);
    await settled(rx, P, 8);
    expect(types().slice(-2)).toEqual(['connection.linked', 'connection.unlinked']);
    expect(rx.on(P).every((m) => m.verified)).toBe(true);
    const health = await e.store.linkHealth(10);
    expect(health.map((h) => h.type).slice(0, 3)).toEqual([
      'connection.unlinked',
      'connection.linked',
      'connection.deauthorized',
    ]);
  });

  it('app_deauthorized drops a server-to-server link whichever user removed the app, and a user link only for its user', async () => {
    await e.link();
    const link = await e.store.getLink();
    if (!link) throw new Error('no link');
    const drop = (userId: string) => ({ accountId: link.accountId, userId, outbox: () => [] });
    await e.store.recordWebhook('rid:other-user', 'app_deauthorized', new Date().toISOString(), {
      dropLink: drop('someone-else'),
    });
    expect(await e.store.getLink()).toBeDefined();
    await e.store.saveLink({ ...link, mode: 's2s' });
    await e.store.recordWebhook('rid:s2s', 'app_deauthorized', new Date().toISOString(), {
      dropLink: drop('someone-else'),
    });
    expect(await e.store.getLink()).toBeUndefined();
  });

  it('the emulator re-validates the webhook endpoint and the gateway answers the challenge', async () => {
    const v = await emulator(e, 'POST', '/_sandbox/webhooks/validate');
    expect(v).toMatchObject({ ok: true, status: 200, disabled: false });
  });
});
