/**
 * Shared by the connection-health tests: the emulator's control API, a subscriber, the
 * dashboard as an operator sees it, and waiting until exactly n deliveries have arrived and no
 * more follow.
 */
import { expect } from 'vitest';
import { eventually } from '../helpers/build-test-app.js';
import { API_KEY, type GatewayEnv } from './helpers.js';
import type { Receiver } from './webhook-receiver.js';

export const ENV = {
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: '20',
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: '200',
};

/** The connection.* types, listed (a subscription names types, or `*`). */
export const CONNECTION_TYPES = [
  'connection.linked',
  'connection.refresh_failed',
  'connection.needs_relink',
  'connection.recovered',
  'connection.unlinked',
  'connection.deauthorized',
];

export async function emulator(e: GatewayEnv, method: string, path: string, body?: unknown): Promise<any> {
  // Control writes say JSON even without a body; the emulator refuses them otherwise.
  const res = await fetch(`${e.emu.base}${path}`, {
    method,
    ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' } }),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.status === 204 ? undefined : res.json();
}

export async function subscribe(e: GatewayEnv, rx: Receiver, p: string, events: string[]): Promise<void> {
  const list = events.flatMap((t) => (t === 'connection.*' ? CONNECTION_TYPES : [t]));
  const r = await e.api('POST', '/api/video/subscriptions', { body: { url: rx.url(p), events: list } });
  expect(r.status, r.text).toBe(201);
  rx.secret(p, r.json.secret);
}

/** Waits for `n` accepted deliveries to `p`, then a little longer to see that no more come. */
export async function settled(rx: Receiver, p: string, n: number): Promise<void> {
  await eventually(() => expect(rx.on(p).length).toBeGreaterThanOrEqual(n));
  await new Promise((r) => setTimeout(r, 400));
  expect(
    rx.on(p).map((m) => m.json.type),
    'no more deliveries',
  ).toHaveLength(n);
}

export async function dashboardHtml(g: GatewayEnv): Promise<string> {
  const login = await fetch(`${g.base}/dashboard/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ key: API_KEY }).toString(),
    redirect: 'manual',
  });
  const cookie =
    login.headers
      .getSetCookie()
      .find((c) => c.startsWith('fg_session='))
      ?.split(';')[0] ?? '';
  return (await fetch(`${g.base}/dashboard`, { headers: { cookie } })).text();
}
