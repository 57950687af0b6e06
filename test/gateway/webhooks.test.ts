/**
 * Webhook intake: signed deliveries from the emulator move stored events through their
 * lifecycle; forged, tampered, stale and replayed deliveries change nothing.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/build-test-app.js';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
});
afterAll(() => e.close());

const sign = (secret: string, ts: string, body: string) =>
  `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
const now = () => String(Math.floor(Date.now() / 1000));
async function deliver(body: string, headers: Record<string, string>) {
  const res = await fetch(`${e.base}/api/video/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: await res.json() };
}
const signed = (body: string, ts = now(), secret = 'sandbox-webhook-secret') => ({
  'x-zm-request-timestamp': ts,
  'x-zm-signature': sign(secret, ts, body),
});

describe('webhook intake', () => {
  it('moves a stored event through started, ended and cancelled from real platform deliveries', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: { topic: 'Webhook walk', start_time: '2030-09-01T15:00:00.000Z', funnel: 'freight' },
    });
    const id = c.json.video_id;
    const stateOf = async () => (await e.api('GET', `/api/video/events/${id}`)).json.status;
    await e.emu.api('POST', '/_sandbox/webhooks/send', {
      body: { event: 'meeting.started', object: { id, topic: 'Webhook walk' } },
    });
    await eventually(async () => expect(await stateOf()).toBe('started'));
    await e.emu.api('POST', '/_sandbox/webhooks/send', { body: { event: 'meeting.ended', object: { id } } });
    await eventually(async () => expect(await stateOf()).toBe('ended'));
    // Deleting on the platform side emits meeting.deleted: the stored event becomes cancelled.
    const token = (await e.emu.userToken()).access_token;
    await e.emu.api('DELETE', `/v2/meetings/${id}`, { token });
    await eventually(async () => expect(await stateOf()).toBe('cancelled'));
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    expect(monitor.webhooks.lastReceived.event).toEqual(expect.any(String));
  });

  it('answers the url_validation challenge', async () => {
    const body = JSON.stringify({
      event: 'endpoint.url_validation',
      event_ts: Date.now(),
      payload: { plainToken: 'abc123' },
    });
    const r = await deliver(body, signed(body));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      plainToken: 'abc123',
      encryptedToken: createHmac('sha256', 'sandbox-webhook-secret').update('abc123').digest('hex'),
    });
  });

  it('refuses forged, tampered, stale and unsigned deliveries with 401, changing nothing', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: { topic: 'Guarded', start_time: '2030-09-02T15:00:00.000Z' },
    });
    const body = JSON.stringify({
      event: 'meeting.started',
      event_ts: Date.now(),
      payload: { account_id: 'x', object: { id: c.json.video_id } },
    });
    const cases: [string, string, Record<string, string>][] = [
      ['unsigned', body, {}],
      ['wrong secret', body, signed(body, now(), 'not-the-secret')],
      ['tampered body', body.replace('started', 'ended'), signed(body)],
      ['stale', body, signed(body, String(Math.floor(Date.now() / 1000) - 600))],
      ['garbage signature', body, { 'x-zm-request-timestamp': now(), 'x-zm-signature': 'v0=zz' }],
    ];
    for (const [name, b, h] of cases) {
      const r = await deliver(b, h);
      expect(r.status, name).toBe(401);
      expect(['invalid_signature', 'stale_webhook']).toContain(r.json.error.code);
    }
    expect((await e.api('GET', `/api/video/events/${c.json.video_id}`)).json.status).toBe('scheduled');
  });

  it('stores each delivery once: a replay is acknowledged but not processed again', async () => {
    const c = await e.api('POST', '/api/video/events', {
      body: { topic: 'Replay', start_time: '2030-09-03T15:00:00.000Z' },
    });
    const body = JSON.stringify({
      event: 'meeting.started',
      event_ts: Date.now(),
      payload: { account_id: 'x', object: { id: c.json.video_id } },
    });
    const h = { ...signed(body), 'x-zm-request-id': 'req-42' };
    expect((await deliver(body, h)).json).toEqual({ received: true });
    await e.api('PATCH', `/api/video/events/${c.json.video_id}`, { body: { topic: 'Replay (renamed)' } });
    const again = await deliver(body, h);
    expect(again.json).toEqual({ received: true, duplicate: true });
  });
});
