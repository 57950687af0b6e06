/**
 * The SSRF guard on its own and inside the delivery worker: which addresses are refused, that
 * every address a host resolves to is checked, and that a delivery checks again when it runs
 * (DNS may have changed since the subscription was made) and then connects to exactly the
 * addresses it checked.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyring, seal, type KeySource } from '../../src/gateway/oauth/vault.js';
import { WebhookDispatcher } from '../../src/gateway/webhooks-out/dispatcher.js';
import { outboxMessage } from '../../src/store/outbox-messages.js';
import { newSecret } from '../../src/core/webhook-signature.js';
import { subscriptionSecretAad } from '../../src/gateway/webhooks-out/subscriptions.js';
import {
  blockedRange,
  parseTarget,
  resolveTarget,
  type Resolver,
} from '../../src/gateway/webhooks-out/target-guard.js';
import { createLogger } from '../../src/log.js';
import { sqliteStore, type SqlStore } from '../store/open-store.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

describe('blockedRange', () => {
  it.each([
    ['8.8.8.8', undefined],
    ['93.184.215.14', undefined],
    ['2606:4700:4700::1111', undefined],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.1.1', 'private'],
    ['not-an-ip', 'invalid'],
    // Forms that embed an IPv4 address are judged by the address they carry.
    ['::7f00:1', 'loopback'],
    ['::a9fe:a9fe', 'linkLocal'],
    ['::a00:1', 'private'],
    ['::808:808', undefined],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:808:808', undefined],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', undefined],
    ['64:ff9b:1::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b:1::808:808', undefined],
    // A local-use NAT64 prefix longer than /96 hides where its IPv4 address sits.
    ['64:ff9b:1:808:8:800::', 'rfc6052'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['2002:808:808::1', undefined],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', 'private'],
    ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', undefined],
  ])('%s → %s', (address, range) => {
    expect(blockedRange(address)).toBe(range);
  });
});

describe('resolveTarget', () => {
  const resolver =
    (...addresses: string[]): Resolver =>
    () =>
      Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

  it('refuses a host when any of its addresses is private, unless private targets are allowed', async () => {
    const url = parseTarget('https://mixed.example.com/hook');
    await expect(
      resolveTarget(url, { allowPrivate: false, resolve: resolver('93.184.215.14', '10.0.0.7') }),
    ).rejects.toMatchObject({ reason: 'private_address' });
    await expect(
      resolveTarget(url, { allowPrivate: true, resolve: resolver('93.184.215.14', '10.0.0.7') }),
    ).resolves.toHaveLength(2);
    await expect(
      resolveTarget(url, { allowPrivate: false, resolve: resolver('93.184.215.14') }),
    ).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(resolveTarget(url, { allowPrivate: false, resolve: resolver() })).rejects.toMatchObject({
      reason: 'unresolvable',
    });
  });

  it('accepts only http(s) URLs without credentials', () => {
    expect(() => parseTarget('gopher://example.com/')).toThrow(/http or https/);
    expect(() => parseTarget('https://a:b@example.com/')).toThrow(/credentials/);
    expect(() => parseTarget('/relative')).toThrow(/absolute/);
    expect(parseTarget('HTTPS://Example.COM/x').toString()).toBe('https://example.com/x');
  });
});

describe('delivery-time check', () => {
  let dir: string;
  let store: SqlStore;
  let rx: Receiver;
  const keys: KeySource = (() => {
    const ring = keyring([randomBytes(32)]);
    return { current: () => ring, reload: () => {} };
  })();
  // The host name is not in any DNS: only the pinned addresses can reach the receiver.
  const HOST = 'hooks.fleetgate.test';
  const loopback: Resolver = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  const dispatcher = (allowPrivate: boolean) =>
    new WebhookDispatcher({
      store,
      keys,
      logger: createLogger('silent'),
      now: Date.now,
      allowPrivate,
      resolve: loopback,
      retry: { baseMs: 10, maxMs: 10, forMs: 60_000 },
      timeoutMs: 5000,
    });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'fleetgate-guard-'));
    store = sqliteStore(path.join(dir, 'fleetgate.db'));
    await store.migrate();
    rx = await startReceiver();
    const port = new URL(rx.url('/')).port;
    const secret = newSecret();
    await store.webhooks.putSubscription({
      id: 'sub_dns',
      url: `http://${HOST}:${port}/dns`,
      events: ['*'],
      secret: seal(keys.current(), secret, subscriptionSecretAad('sub_dns')),
      source: 'api',
      createdAt: new Date().toISOString(),
    });
    rx.secret('/dns', secret);
  });
  afterAll(async () => {
    await rx.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to deliver when the host now resolves to a private address', async () => {
    await store.webhooks.enqueue([outboxMessage('event.created', { video_id: '1' }, Date.now())]);
    expect(await dispatcher(false).runOnce()).toBe(1);
    const [d] = await store.webhooks.recentDeliveries({ limit: 1 });
    expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatus: null });
    expect(d?.lastError).toMatch(/127\.0\.0\.1 \(loopback\)/);
    expect(rx.on('/dns')).toEqual([]);
  });

  it.each([
    ['::7f00:1', '127.0.0.1', 'loopback'],
    ['::a9fe:a9fe', '169.254.169.254', 'linkLocal'],
    ['::ffff:0:a00:1', '10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', '127.0.0.1', 'loopback'],
    ['64:ff9b:1::a00:1', '10.0.0.1', 'private'],
    ['2002:7f00:1::1', '127.0.0.1', 'loopback'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', '127.0.0.1', 'loopback'],
  ])(
    'refuses to deliver when the host now resolves to %s, which carries %s',
    async (address, ipv4, range) => {
      const embedded = new WebhookDispatcher({
        store,
        keys,
        logger: createLogger('silent'),
        now: Date.now,
        allowPrivate: false,
        resolve: () => Promise.resolve([{ address, family: 6 }]),
        retry: { baseMs: 10, maxMs: 10, forMs: 60_000 },
        timeoutMs: 5000,
      });
      await store.webhooks.enqueue([outboxMessage('event.created', { video_id: address }, Date.now())]);
      expect(await embedded.runOnce()).toBe(1);
      const [d] = await store.webhooks.recentDeliveries({ limit: 1 });
      expect(d).toMatchObject({ status: 'failed', attempts: 1, lastStatus: null });
      expect(d?.lastError).toContain(`${address} (${range}`);
      expect(d?.lastError).toContain(ipv4);
      expect(rx.on('/dns')).toEqual([]);
    },
  );

  it('connects to exactly the addresses it checked', async () => {
    const m = outboxMessage('event.created', { video_id: '2' }, Date.now());
    await store.webhooks.enqueue([m]);
    expect(await dispatcher(true).runOnce()).toBe(1);
    expect(rx.on('/dns')).toHaveLength(1);
    expect(rx.on('/dns')[0]).toMatchObject({ id: m.id, verified: true, body: m.payload });
    const [d] = await store.webhooks.recentDeliveries({ limit: 1 });
    expect(d).toMatchObject({ status: 'delivered', lastStatus: 204 });
  });
});
