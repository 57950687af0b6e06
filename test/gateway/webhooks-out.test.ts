/**
 * Outgoing webhooks end to end over real HTTP: subscriptions through the API (validation, the
 * secret shown once and sealed at rest, the SSRF guard), every event type delivered signed to a
 * receiver that verifies with an independent Standard Webhooks implementation, retries after
 * 500s under one stable id, the delivery log in the subscription, monitor and dashboard, an
 * outbox that survives a restart before delivery, and two instances on one SQLite file
 * delivering each event once per subscription.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, REPO } from '../helpers/build-test-app.js';
import { cliCommand } from '../helpers/spawn-service.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

const ENV = {
  FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
  // A compressed schedule, so retries come in milliseconds.
  FLEETGATE_WEBHOOK_RETRY_BASE_MS: '20',
  FLEETGATE_WEBHOOK_RETRY_MAX_MS: '200',
};

let e: GatewayEnv;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  e = await startGateway({ env: ENV });
  await e.link();
  e.emu.options.webhookUrl = `${e.base}/api/video/webhooks`;
});
afterAll(async () => {
  await e.close();
  await rx.close();
});

async function subscribe(g: GatewayEnv, p: string, events: string[]) {
  const r = await g.api('POST', '/api/video/subscriptions', { body: { url: rx.url(p), events } });
  expect(r.status, r.text).toBe(201);
  rx.secret(p, r.json.secret);
  return r.json as { id: string; url: string; events: string[]; secret: string };
}

async function newEvent(g: GatewayEnv, topic: string, over: Record<string, unknown> = {}) {
  const r = await g.api('POST', '/api/video/events', {
    body: { topic, start_time: '2031-05-01T10:00:00.000Z', funnel: 'freight', ...over },
  });
  expect(r.status, r.text).toBe(201);
  return r.json.video_id as string;
}

/** The dashboard as a signed-in operator sees it. */
async function dashboardHtml(g: GatewayEnv): Promise<string> {
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

/** The deliveries to `p` that the receiver accepted, by type. */
const accepted = (p: string) => rx.on(p).filter((r) => r.answered === 204);

describe('subscriptions', () => {
  it('answers 201 with {id, url, events, secret}; the secret is never shown again, logged or stored in clear', async () => {
    const r = await e.api('POST', '/api/video/subscriptions', {
      body: { url: rx.url('/once'), events: ['event.created', 'link.changed', 'event.created'] },
    });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(r.json).toMatchObject({ url: rx.url('/once'), events: ['event.created', 'link.changed'] });
    expect(r.json.id).toMatch(/^sub_/);
    expect(r.json.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const secret: string = r.json.secret;
    const list = await e.api('GET', '/api/video/subscriptions');
    const one = await e.api('GET', `/api/video/subscriptions/${r.json.id}`);
    expect(list.json.items.find((s: { id: string }) => s.id === r.json.id)).toMatchObject({
      url: rx.url('/once'),
      source: 'api',
      deliveries: { pending: 0, delivered: 0, failed: 0 },
    });
    expect(one.status).toBe(200);
    for (const text of [list.text, one.text, ...e.logs()]) expect(text).not.toContain(secret.slice(6));
    const stored = await e.store.webhooks.getSubscription(r.json.id);
    expect(stored?.secret.startsWith('v1.')).toBe(true);
    expect(stored?.secret).not.toContain(secret.slice(6));
    const rotate = (await e.store.sealedValues()).find((v) => v.id === r.json.id);
    expect(rotate).toMatchObject({ table: 'webhook_subscriptions', column: 'secret' });
  });

  it('refuses invalid input with validation_failed, and callers without the key', async () => {
    const bad: unknown[] = [
      {},
      [],
      { url: rx.url('/x') },
      { url: rx.url('/x'), events: [] },
      { url: rx.url('/x'), events: 'event.created' },
      { url: rx.url('/x'), events: ['meeting.started'] },
      { url: 'not a url', events: ['*'] },
      { url: 'ftp://127.0.0.1/x', events: ['*'] },
      { url: 'http://user:pass@127.0.0.1/x', events: ['*'] },
      { url: `${rx.url('/x')}${'a'.repeat(2100)}`, events: ['*'] },
    ];
    for (const body of bad) {
      const r = await e.api('POST', '/api/video/subscriptions', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code, JSON.stringify(body)).toBe('validation_failed');
    }
    expect((await e.api('POST', '/api/video/subscriptions', { body: bad[3], key: null })).status).toBe(401);
    expect((await e.api('GET', '/api/video/subscriptions', { key: null })).status).toBe(401);
    expect((await e.api('GET', '/api/video/subscriptions/sub_nope')).json.error.code).toBe(
      'subscription_not_found',
    );
    expect((await e.api('GET', '/api/video/subscriptions/nope')).status).toBe(400);
  });

  it('deletes a subscription, and nothing is delivered to it afterwards', async () => {
    const s = await subscribe(e, '/deleted', ['event.created']);
    const del = await e.api('DELETE', `/api/video/subscriptions/${s.id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true, id: s.id });
    expect((await e.api('DELETE', `/api/video/subscriptions/${s.id}`)).status).toBe(404);
    expect((await e.api('GET', `/api/video/subscriptions/${s.id}`)).status).toBe(404);
    const watch = await subscribe(e, '/deleted-watch', ['event.created']);
    const id = await newEvent(e, 'After delete');
    await eventually(() => expect(accepted('/deleted-watch').map((r) => r.json.data.video_id)).toContain(id));
    expect(rx.on('/deleted')).toEqual([]);
    await e.api('DELETE', `/api/video/subscriptions/${watch.id}`);
  });
});

describe('SSRF guard', () => {
  let strict: GatewayEnv;
  beforeAll(async () => {
    strict = await startGateway({ emu: e.emu });
  });
  afterAll(() => strict.close());

  it('refuses loopback, private, link-local, CGNAT, multicast, unspecified and mapped addresses', async () => {
    const urls = [
      'http://127.0.0.1:9/hook',
      'http://localhost/hook',
      'http://[::1]/hook',
      'http://10.1.2.3/hook',
      'http://172.16.0.1/hook',
      'http://192.168.1.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://100.64.0.1/hook',
      'http://224.0.0.1/hook',
      'http://0.0.0.0/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::ffff:a9fe:a9fe]/hook',
      'http://[fd00::1]/hook',
      'http://[fe80::1]/hook',
      'http://2130706433/hook',
    ];
    for (const url of urls) {
      const r = await strict.api('POST', '/api/video/subscriptions', { body: { url, events: ['*'] } });
      expect(r.status, url).toBe(400);
      expect(r.json.error, url).toMatchObject({
        code: 'url_not_allowed',
        details: { reason: 'private_address' },
      });
    }
    expect((await strict.api('GET', '/api/video/subscriptions')).json.items).toEqual([]);
  });

  it('judges IPv6 forms that embed an IPv4 address by the address they carry', async () => {
    // IPv4-compatible (::/96), mapped, translated, NAT64 (well-known and local-use), 6to4 and
    // Teredo (whose client address is stored inverted): each carries a loopback, link-local
    // or private IPv4 address here.
    const urls = [
      'http://[::127.0.0.1]/hook',
      'http://[::a9fe:a9fe]/hook',
      'http://[::a00:1]/hook',
      'http://[::ffff:0:7f00:1]/hook',
      'http://[64:ff9b::a9fe:a9fe]/hook',
      'http://[64:ff9b:1::a00:1]/hook',
      'http://[2002:7f00:1::1]/hook',
      'http://[2002:c0a8:101::1]/hook',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
    ];
    for (const url of urls) {
      const r = await strict.api('POST', '/api/video/subscriptions', { body: { url, events: ['*'] } });
      expect(r.status, url).toBe(400);
      expect(r.json, url).toEqual({
        error: {
          code: 'url_not_allowed',
          message: expect.stringMatching(/only public addresses/),
          details: { reason: 'private_address' },
        },
      });
    }
    expect((await strict.api('GET', '/api/video/subscriptions')).json.items).toEqual([]);
    // The same forms carrying a public address pass (nothing is sent to them here).
    for (const url of ['http://[64:ff9b::5db8:d70e]/hook', 'http://[2002:5db8:d70e::1]/hook']) {
      const ok = await strict.api('POST', '/api/video/subscriptions', { body: { url, events: ['*'] } });
      expect(ok.status, `${url} ${ok.text}`).toBe(201);
      await strict.api('DELETE', `/api/video/subscriptions/${ok.json.id}`);
    }
  });

  it('refuses a host that does not resolve, and accepts a public address', async () => {
    const r = await strict.api('POST', '/api/video/subscriptions', {
      body: { url: 'https://no-such-host.invalid/hook', events: ['*'] },
    });
    expect(r.json.error).toMatchObject({ code: 'url_not_allowed', details: { reason: 'unresolvable' } });
    // An address literal is checked without DNS; a public one passes (nothing is sent to it here).
    const ok = await strict.api('POST', '/api/video/subscriptions', {
      body: { url: 'https://93.184.215.14/hook', events: ['recording.completed'] },
    });
    expect(ok.status, ok.text).toBe(201);
    await strict.api('DELETE', `/api/video/subscriptions/${ok.json.id}`);
  });
});

describe('delivery', () => {
  it('delivers every event type to ["*"], each signed and verified, with its own stable id', async () => {
    const s = await subscribe(e, '/all', ['*']);
    const only = await subscribe(e, '/registrations', ['registration.created']);
    const id = await newEvent(e, 'Everything', { registration: true });
    expect((await e.api('PATCH', `/api/video/events/${id}`, { body: { funnel: 'capital' } })).status).toBe(
      200,
    );
    const reg = await e.api('POST', `/api/video/events/${id}/registrations`, {
      body: { email: 'Ada@Example.com', first_name: 'Ada' },
    });
    expect(reg.status, reg.text).toBe(201);
    await e.emu.api('POST', '/_sandbox/webhooks/send', {
      body: { event: 'meeting.started', object: { id } },
    });
    await eventually(async () =>
      expect((await e.api('GET', `/api/video/events/${id}`)).json.status).toBe('started'),
    );
    await e.emu.api('POST', '/_sandbox/webhooks/send', { body: { event: 'meeting.ended', object: { id } } });
    await e.emu.api('POST', '/_sandbox/webhooks/send', {
      body: { event: 'recording.completed', object: { id } },
    });
    await eventually(() => expect(accepted('/all').map((r) => r.json.type)).toContain('recording.completed'));
    expect((await e.api('DELETE', `/api/video/events/${id}`)).status).toBe(200);
    expect((await e.api('POST', '/api/video/oauth/disconnect')).status).toBe(200);
    await e.link();

    const want = [
      'event.created',
      'event.updated',
      'registration.created',
      'event.started',
      'event.ended',
      'recording.completed',
      'event.cancelled',
      'link.changed',
    ];
    await eventually(() => {
      const types = accepted('/all').map((r) => r.json.type);
      for (const t of want) expect(types).toContain(t);
      expect(accepted('/all').filter((r) => r.json.type === 'link.changed')).toHaveLength(2);
    });
    const all = accepted('/all');
    expect(all.every((r) => r.verified)).toBe(true);
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    for (const r of all) {
      expect(r.id).toMatch(/^msg_/);
      expect(r.json).toMatchObject({ type: expect.any(String), timestamp: expect.any(String), data: {} });
    }
    const of = (t: string) => all.find((r) => r.json.type === t)?.json.data;
    expect(of('event.created')).toMatchObject({ video_id: id, topic: 'Everything', funnel: 'freight' });
    expect(of('event.updated')).toMatchObject({ video_id: id, funnel: 'capital' });
    expect(of('event.started')).toMatchObject({ video_id: id, status: 'started' });
    expect(of('event.ended')).toMatchObject({ video_id: id, status: 'ended' });
    expect(of('event.cancelled')).toMatchObject({ video_id: id, status: 'cancelled' });
    expect(of('registration.created')).toMatchObject({ video_id: id, email: 'ada@example.com' });
    expect(of('recording.completed')).toMatchObject({ video_id: id, stored_event: true, funnel: 'capital' });
    expect(of('recording.completed')).not.toHaveProperty('download_token');
    expect(all.filter((r) => r.json.type === 'link.changed').map((r) => r.json.data.status)).toEqual([
      'unlinked',
      'linked',
    ]);
    expect(JSON.stringify(of('link.changed'))).not.toMatch(/token/i);
    // The narrower subscription got its one type only.
    await eventually(() => expect(accepted('/registrations')).toHaveLength(1));
    expect(accepted('/registrations')[0]?.json.type).toBe('registration.created');
    expect(accepted('/registrations')[0]?.verified).toBe(true);
    for (const sub of [s, only]) await e.api('DELETE', `/api/video/subscriptions/${sub.id}`);
  });

  it('retries after 500s under the same webhook-id, then logs the delivery in the subscription, monitor and dashboard', async () => {
    const s = await subscribe(e, '/flaky', ['event.created']);
    rx.fail('/flaky', 2, 500);
    const id = await newEvent(e, 'Flaky receiver');
    await eventually(() => expect(accepted('/flaky')).toHaveLength(1));
    const attempts = rx.on('/flaky');
    expect(attempts.map((r) => r.answered)).toEqual([500, 500, 204]);
    expect(new Set(attempts.map((r) => r.id)).size).toBe(1);
    expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
    expect(attempts.every((r) => r.verified)).toBe(true);
    expect(attempts[2]?.json.data.video_id).toBe(id);

    const one = await e.api('GET', `/api/video/subscriptions/${s.id}`);
    expect(one.json.deliveries).toEqual({ pending: 0, delivered: 1, failed: 0 });
    expect(one.json.recent_deliveries[0]).toMatchObject({
      message_id: attempts[0]?.id,
      type: 'event.created',
      status: 'delivered',
      attempts: 3,
      last_status: 204,
      delivered_at: expect.any(String),
    });
    const monitor = (await e.api('GET', '/api/video/monitor')).json;
    expect(monitor.webhooks.outgoing.recent).toContainEqual(
      expect.objectContaining({ message_id: attempts[0]?.id, status: 'delivered', attempts: 3 }),
    );
    expect(monitor.webhooks.outgoing.subscriptions).toBeGreaterThanOrEqual(1);
    const page = await dashboardHtml(e);
    expect(page).toContain('Outgoing webhooks');
    expect(page).toMatch(new RegExp(`<code>event.created</code> <span class="muted">${s.id}</span>`));
    expect(page).toContain('badge-ok">delivered</span>');
    await e.api('DELETE', `/api/video/subscriptions/${s.id}`);
  });

  it('does not retry a 4xx answer: the delivery fails at once', async () => {
    const s = await subscribe(e, '/gone', ['event.created']);
    rx.fail('/gone', 5, 410);
    await newEvent(e, 'Gone receiver');
    await eventually(async () =>
      expect((await e.api('GET', `/api/video/subscriptions/${s.id}`)).json.deliveries.failed).toBe(1),
    );
    expect(rx.on('/gone')).toHaveLength(1);
    expect((await e.api('GET', `/api/video/subscriptions/${s.id}`)).json.recent_deliveries[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_status: 410,
    });
    await e.api('DELETE', `/api/video/subscriptions/${s.id}`);
  });
});

describe('durability and scale', () => {
  it('rotate-key re-encrypts subscription secrets, and deliveries stay signed with the same secret', async () => {
    const s = await subscribe(e, '/rotated', ['event.created']);
    const before = await e.store.webhooks.getSubscription(s.id);
    const [node, ...args] = cliCommand('rotate-key');
    await promisify(execFile)(node, args, {
      cwd: REPO,
      env: { ...process.env, FLEETGATE_DATA_DIR: e.dataDir, LOG_LEVEL: 'silent' },
    });
    const after = await e.store.webhooks.getSubscription(s.id);
    expect(after?.secret.split('.')[1]).not.toBe(before?.secret.split('.')[1]);
    const id = await newEvent(e, 'After rotation');
    await eventually(() => expect(accepted('/rotated').map((r) => r.json.data.video_id)).toContain(id));
    expect(accepted('/rotated').every((r) => r.verified)).toBe(true);
    await e.api('DELETE', `/api/video/subscriptions/${s.id}`);
  });

  it('keeps the outbox across a restart between the write and the delivery', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'fleetgate-outbox-'));
    const writer = await startGateway({ emu: e.emu, dataDir, env: ENV, deliver: false });
    await writer.link();
    const s = await subscribe(writer, '/restart', ['event.created']);
    const id = await newEvent(writer, 'Written before a restart');
    const [pending] = await writer.store.webhooks.recentDeliveries({ limit: 1, subscriptionId: s.id });
    expect(pending).toMatchObject({ status: 'pending', attempts: 0 });
    await writer.close();
    expect(rx.on('/restart')).toEqual([]);

    const next = await startGateway({ emu: e.emu, dataDir, env: ENV });
    try {
      await eventually(() => expect(accepted('/restart')).toHaveLength(1));
      const got = accepted('/restart')[0];
      expect(got?.id).toBe(pending?.messageId);
      expect(got?.json.data.video_id).toBe(id);
      expect(got?.verified).toBe(true);
    } finally {
      await next.close();
    }
  });

  it('two instances on one SQLite file deliver each event once per subscription', async () => {
    const twin = await e.twin();
    try {
      const subs = [
        await subscribe(e, '/multi-a', ['event.created']),
        await subscribe(twin, '/multi-b', ['*']),
      ];
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await newEvent(i % 2 ? twin : e, `Multi ${i}`));
      await eventually(async () => {
        for (const s of subs)
          expect((await e.store.webhooks.deliveryCounts(s.id)).delivered).toBe(ids.length);
      });
      // A late duplicate has time to come: both workers stop, which waits for any attempt under
      // way, each runs three more rounds by hand (none finds anything due), and ten polling
      // intervals pass; nothing more arrives.
      const seen = rx.received.length;
      await Promise.all([e.gateway.outgoing.dispatcher.stop(), twin.gateway.outgoing.dispatcher.stop()]);
      try {
        for (let round = 0; round < 3; round++) {
          expect(await e.gateway.outgoing.dispatcher.runOnce()).toBe(0);
          expect(await twin.gateway.outgoing.dispatcher.runOnce()).toBe(0);
        }
        await new Promise((resolve) => setTimeout(resolve, 10 * Number(ENV.FLEETGATE_WEBHOOK_RETRY_BASE_MS)));
      } finally {
        e.gateway.outgoing.dispatcher.start();
      }
      expect(rx.received.length).toBe(seen);
      for (const s of subs)
        expect(await e.store.webhooks.deliveryCounts(s.id)).toEqual({
          pending: 0,
          delivered: ids.length,
          failed: 0,
        });
      for (const p of ['/multi-a', '/multi-b']) {
        const got = rx.on(p);
        expect(got.map((r) => r.json.data.video_id).sort()).toEqual([...ids].sort());
        expect(new Set(got.map((r) => r.id)).size).toBe(ids.length);
        expect(got.every((r) => r.verified && r.answered === 204)).toBe(true);
      }
      // Same message, same id, to both subscribers.
      expect(
        rx
          .on('/multi-a')
          .map((r) => r.id)
          .sort(),
      ).toEqual(
        rx
          .on('/multi-b')
          .map((r) => r.id)
          .sort(),
      );
    } finally {
      await twin.close();
    }
  });
});
