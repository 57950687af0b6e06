/**
 * Signing out ends the session, over real HTTP: after POST /dashboard/logout the old cookie is
 * signed out on the dashboard, refused (401) by the API, and its CSRF token moves nothing,
 * while another session of the same operator lives on. A change of API key ends every session
 * made with the old key, and changing back does not bring them back.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueSession } from '../../src/http/auth/session.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { dashboardClient, type DashboardClient } from './dashboard-client.js';
import { storedEvents } from '../helpers/stored-events.js';

let e: GatewayEnv;
let d: DashboardClient;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  d = dashboardClient(e.base);
}, 60_000);
afterAll(() => e.close());

describe('signing out', () => {
  it('ends the session: its cookie and CSRF token are refused everywhere afterwards', async () => {
    const cookie = await d.signIn();
    const other = await d.signIn();
    const csrf = await d.csrfOf(cookie);
    expect((await d.http('GET', '/api/video/status', { cookie })).status).toBe(200);

    const out = await d.http('POST', '/dashboard/logout', { cookie, form: { csrf } });
    expect(out.status).toBe(303);

    // A browser that kept the cookie (or a thief who copied it) is signed out.
    expect(await d.signedIn(cookie)).toBe(false);
    const read = await d.http('GET', '/api/video/status', { cookie });
    expect(read.status).toBe(401);
    expect(JSON.parse(read.text)).toMatchObject({ error: { code: 'unauthorized' } });

    // Its CSRF token moves nothing: not through the API, not through a form.
    const events = (await storedEvents(e.store, {})).length;
    const write = await d.http('POST', '/api/video/events', {
      cookie,
      headers: { 'x-csrf-token': csrf },
      json: { topic: 'After sign-out', start_time: '2031-03-01T10:00:00Z' },
    });
    expect(write.status).toBe(401);
    const form = await d.http('POST', '/dashboard/events', {
      cookie,
      form: { csrf, topic: 'After sign-out', start: '2031-03-01T10:00', timezone: 'UTC', duration: '30' },
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/dashboard');
    expect(form.cookies.some((c) => c.startsWith('fg_flash='))).toBe(false);
    const disconnect = await d.http('POST', '/dashboard/disconnect', { cookie, form: { csrf } });
    expect(disconnect.status).toBe(303);
    expect(await storedEvents(e.store, {})).toHaveLength(events);
    expect(await e.store.getLink()).toBeDefined();

    // Only that session ended: the operator's other one carries on.
    expect(await d.signedIn(other)).toBe(true);
    expect((await d.http('GET', '/api/video/status', { cookie: other })).status).toBe(200);
  });

  it('refuses a cookie signed with the key that was never a signed-in session', async () => {
    // The signature alone no longer makes a session: only a sign-in does.
    const minted = issueSession(createHash('sha256').update(API_KEY).digest(), Date.now()).token;
    const cookie = `fg_session=${minted}`;
    expect((await d.http('GET', '/api/video/status', { cookie })).status).toBe(401);
    expect(await d.signedIn(cookie)).toBe(false);
  });
});

describe('changing the API key', () => {
  it('ends every session made with the old key, and changing back does not revive them', async () => {
    const cookie = await d.signIn();
    expect(await d.signedIn(cookie)).toBe(true);

    // The same data dir and store, restarted with another key (e holds the old one meanwhile).
    const changed = await startGateway({
      emu: e.emu,
      dataDir: e.dataDir,
      env: { FLEETGATE_API_KEY: 'another-api-key-0123456789abcdef' },
    });
    try {
      const c = dashboardClient(changed.base);
      expect((await c.http('GET', '/api/video/status', { cookie })).status).toBe(401);
      expect(await c.signedIn(cookie)).toBe(false);
    } finally {
      await changed.close();
    }

    // Back on the old key: the session stays ended, here and on the instance that kept the old key.
    const back = await startGateway({ emu: e.emu, dataDir: e.dataDir });
    try {
      const b = dashboardClient(back.base);
      expect((await b.http('GET', '/api/video/status', { cookie })).status).toBe(401);
      expect(await b.signedIn(cookie)).toBe(false);
      expect((await d.http('GET', '/api/video/status', { cookie })).status).toBe(401);
      // Signing in with the key works as ever.
      expect(await b.signedIn(await b.signIn())).toBe(true);
    } finally {
      await back.close();
    }
  });
});
