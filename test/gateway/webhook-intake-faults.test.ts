/**
 * Webhook intake under faults and odd input: a delivery whose processing fails leaves no
 * receipt, so the platform's retry (re-signed, or the same signed bytes) is processed rather
 * than answered as a duplicate; signed deliveries with prototype-named events, non-object
 * bodies or an empty Content-Type get a clean answer, never a 500, and a signed body is refused
 * exactly when the body schema /openapi.json declares refuses it. The fault is real: a
 * trigger in the gateway's own SQLite file that fails every update of a stored event.
 */
import { createHmac } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../src/store/create-store.js';
import { Database } from '../../src/store/dialects/sqlite-driver.js';
import { eventually } from '../helpers/build-test-app.js';
import { startGateway, type GatewayEnv } from './helpers.js';

const SECRET = 'sandbox-webhook-secret';

let e: GatewayEnv;
beforeAll(async () => {
  // The platform's retries, compressed; the first comes late enough for the fault to be lifted.
  // deliver: false keeps announcements in the outbox, where the test counts them.
  e = await startGateway({ emulator: { webhookRetryDelaysMs: [500, 3000, 10_000] }, deliver: false });
  await e.link();
  await e.store.webhooks.putSubscription({
    id: 'sub_all',
    url: 'https://hooks.example.com/all',
    events: ['*'],
    secret: 'never-used',
    source: 'api',
    createdAt: new Date().toISOString(),
  });
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
}, 60_000);
afterAll(() => e.close());

const now = () => String(Math.floor(Date.now() / 1000));
const signed = (body: string, ts = now()) => ({
  'x-zm-request-timestamp': ts,
  'x-zm-signature': `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`,
});

async function deliver(body: string, headers: Record<string, string>) {
  const res = await fetch(`${e.base}/api/video/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, json: await res.json() };
}

async function storedEvent(topic: string, start: string): Promise<string> {
  const c = await e.api('POST', '/api/video/events', { body: { topic, start_time: start } });
  expect(c.status).toBe(201);
  return String(c.json.video_id);
}

const statusOf = async (id: string) => (await e.api('GET', `/api/video/events/${id}`)).json.status;

/** Every update of a stored event fails until the returned function lifts the fault. */
function failEventUpdates(): () => void {
  const db = new Database(sqliteFile(e.dataDir));
  db.pragma('busy_timeout = 5000');
  db.exec(`create trigger injected_fault before update on stored_events
           begin select raise(abort, 'injected fault'); end`);
  return () => {
    db.exec('drop trigger injected_fault');
    db.close();
  };
}

describe('a delivery whose processing fails', () => {
  it('is processed when the platform retries it (the same signed bytes, then re-signed)', async () => {
    const id = await storedEvent('Retry me', '2031-03-01T10:00:00.000Z');
    const body = JSON.stringify({ event: 'meeting.started', payload: { object: { id } } });
    const headers = { ...signed(body), 'x-zm-request-id': 'retry-1' };
    const lift = failEventUpdates();
    let failed;
    try {
      failed = await deliver(body, headers);
    } finally {
      lift();
    }
    expect(failed.status).toBe(500);
    expect(failed.json.error.code).toBe('internal_error');
    expect(await statusOf(id)).toBe('scheduled');
    // The same signed delivery again: neither its receipt nor its signature was spent.
    expect(await deliver(body, headers)).toEqual({ status: 200, json: { received: true } });
    expect(await statusOf(id)).toBe('started');
    // Processed once: now it is a duplicate, whatever its signature.
    const resigned = { ...signed(body, String(Number(now()) + 1)), 'x-zm-request-id': 'retry-1' };
    expect((await deliver(body, resigned)).json).toEqual({ received: true, duplicate: true });
  });

  it('is processed on the emulator’s own retry, and announced once', async () => {
    const id = await storedEvent('Platform retry', '2031-03-02T10:00:00.000Z');
    const announced = async () =>
      (await e.store.webhooks.recentDeliveries({ limit: 1000 })).filter((d) => d.type !== 'event.created');
    const before = (await announced()).length;
    const deliveries = async () =>
      ((await e.emu.api('GET', '/_sandbox/webhooks')).json.deliveries as any[]).filter(
        (d) => d.event === 'meeting.ended',
      );
    const lift = failEventUpdates();
    try {
      await e.emu.api('POST', '/_sandbox/webhooks/send', {
        body: { event: 'meeting.ended', object: { id } },
      });
      await eventually(async () => expect((await deliveries())[0]?.attempts[0]?.status).toBe(500));
    } finally {
      lift();
    }
    await eventually(async () => expect(await statusOf(id)).toBe('ended'));
    const [d] = await deliveries();
    expect(d.delivered).toBe(true);
    // 500 until the fault was lifted (normally just the first attempt), then one 200.
    const statuses = d.attempts.map((a: { status: number }) => a.status);
    expect(statuses[0]).toBe(500);
    expect(statuses.filter((s: number) => s !== 500)).toEqual([200]);
    expect((await announced()).length).toBe(before + 1);
  });
});

describe('signed deliveries with odd content', () => {
  it('ignores events named after Object.prototype members (2xx), changing nothing', async () => {
    const id = await storedEvent('Prototype names', '2031-03-03T10:00:00.000Z');
    for (const event of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', 'no.such']) {
      const body = JSON.stringify({ event, payload: { object: { id, start_time: '2031-04-01T10:00:00Z' } } });
      const r = await deliver(body, signed(body));
      expect(r, event).toEqual({ status: 200, json: { received: true, ignored: true } });
    }
    expect(await statusOf(id)).toBe('scheduled');
  });

  it('refuses a body that is JSON but not an object with 400 in the one error shape', async () => {
    for (const body of ['null', '[]', '[{"event":"meeting.started"}]', '"meeting.started"', '42', 'true']) {
      const r = await deliver(body, signed(body));
      expect(r.status, body).toBe(400);
      expect(r.json, body).toEqual({ error: { code: 'validation_failed', message: expect.any(String) } });
    }
  });

  it("takes odd objects inside a known event's payload without a 500", async () => {
    for (const payload of [{}, { object: null }, { object: 'x' }, { object: [1] }, { object: {} }]) {
      const body = JSON.stringify({ event: 'meeting.started', payload });
      const r = await deliver(body, signed(body));
      expect(r.status, JSON.stringify(payload)).toBe(200);
    }
  });

  it('refuses a signed body exactly when the declared schema does: 400 naming the field, nothing recorded', async () => {
    // What /openapi.json declares for the intake's body, held by Ajv: the two must agree.
    const doc = (await e.api('GET', '/openapi.json', { key: null })).json;
    const schema = doc.paths['/api/video/webhooks'].post.requestBody.content['application/json'].schema;
    const declared = new Ajv2020({ strict: false }).compile(schema);
    const bodies: Record<string, unknown>[] = [
      { payload: { object: { id: 1 } } },
      { event_ts: 1, payload: { plainToken: 'abc' } },
      { event: '', payload: {} },
      { event: 7, payload: {} },
      { event: null },
      { event: ['meeting.started'] },
      { event: 'meeting.started', payload: null },
      { event: 'meeting.started', payload: 'x' },
      { event: 'meeting.started', payload: 7 },
      { event: 'meeting.started', payload: [] },
      { event: 'meeting.started' },
      { event: 'no.such', payload: {} },
      { event: 'endpoint.url_validation', payload: { plainToken: 'abc' } },
    ];
    for (const value of bodies) {
      const body = JSON.stringify(value);
      const before = (await e.store.recentWebhooks(1000)).length;
      const r = await deliver(body, signed(body));
      const valid = declared(value);
      expect({ body, status: r.status }).toEqual({ body, status: valid ? 200 : 400 });
      if (valid) continue;
      expect(r.json.error.code, body).toBe('validation_failed');
      expect(r.json.error.details.issues[0].path, body).toMatch(/^(event|payload)$/);
      expect((await e.store.recentWebhooks(1000)).length, `${body} left no receipt`).toBe(before);
    }
  });

  it('answers an empty Content-Type with 415 in the one error shape', async () => {
    const body = JSON.stringify({ event: 'meeting.started', payload: {} });
    const res = await fetch(`${e.base}/api/video/webhooks`, {
      method: 'POST',
      headers: { 'content-type': '', ...signed(body) },
      body,
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: { code: 'unsupported_media_type', message: expect.any(String) },
    });
  });
});
