/**
 * One address cannot take the whole connection cap: past FLEETGATE_MAX_CONNECTIONS_PER_IP
 * connections open at once from one address (per /64 for IPv6), its new ones are closed at
 * once, unanswered, while other addresses are still served; once some of its connections close
 * it is served again. A proxy whose X-Forwarded-For is believed (FLEETGATE_TRUST_PROXY) carries
 * many clients on its connections, so its own address is not capped as one client (the global
 * cap still holds). Real sockets from 127.0.0.1 and 127.0.0.2 (both loopback on Linux).
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

const PER_IP = 3;

interface Held {
  s: Socket;
  answer: () => string;
  closed: () => boolean;
}

/** A kept-alive connection from `from` that asked for /healthz once: served, or closed unanswered. */
async function hold(base: string, from: string): Promise<Held> {
  const s = await new Promise<Socket>((resolve, reject) => {
    const c = connect({ port: Number(new URL(base).port), host: '127.0.0.1', localAddress: from }, () =>
      resolve(c),
    );
    c.once('error', reject);
  });
  let answer = '';
  let closed = false;
  s.on('data', (c: Buffer) => (answer += c.toString('latin1')));
  s.on('error', () => undefined);
  s.on('close', () => (closed = true));
  s.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(base).host}\r\n\r\n`);
  for (let i = 0; i < 200 && answer === '' && !closed; i++) await sleep(10);
  return { s, answer: () => answer, closed: () => closed };
}

const served = (h: Held) => /^HTTP\/1\.1 200 /.test(h.answer()) && !h.closed();

describe('the per-address connection limit', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { FLEETGATE_MAX_CONNECTIONS_PER_IP: String(PER_IP), FLEETGATE_MAX_CONNECTIONS: '50' },
    });
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('closes one address past its limit at once while another address is still served', async () => {
    const mine: Held[] = [];
    for (let i = 0; i < PER_IP; i++) mine.push(await hold(base, '127.0.0.1'));
    expect(mine.map(served)).toEqual(mine.map(() => true));
    const extra = await Promise.all([hold(base, '127.0.0.1'), hold(base, '127.0.0.1')]);
    for (const h of extra) {
      expect(h.answer()).toBe('');
      expect(h.closed()).toBe(true);
    }
    const other = await hold(base, '127.0.0.2');
    expect(served(other)).toBe(true);
    // Served again once one of its connections has gone.
    mine[0]?.s.destroy();
    let again: Held | undefined;
    for (let i = 0; i < 50 && !(again && served(again)); i++) {
      again?.s.destroy();
      again = await hold(base, '127.0.0.1');
    }
    expect(again && served(again)).toBe(true);
    for (const h of [...mine, ...extra, other, again]) h?.s.destroy();
  });
});

describe('a trusted proxy', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await buildTestApp({
      env: { FLEETGATE_MAX_CONNECTIONS_PER_IP: String(PER_IP), FLEETGATE_TRUST_PROXY: '127.0.0.1' },
    });
    base = await listen(t);
  });
  afterAll(() => t.close());

  it('is not capped as one client; an address outside the list still is', async () => {
    const proxy: Held[] = [];
    for (let i = 0; i < PER_IP * 3; i++) proxy.push(await hold(base, '127.0.0.1'));
    expect(proxy.map(served)).toEqual(proxy.map(() => true));
    const direct: Held[] = [];
    for (let i = 0; i <= PER_IP; i++) direct.push(await hold(base, '127.0.0.2'));
    expect(direct.map(served)).toEqual([...Array<boolean>(PER_IP).fill(true), false]);
    for (const h of [...proxy, ...direct]) h.s.destroy();
  });
});

describe('configuration', () => {
  it('is on by default, well below the global cap, and 0 turns it off', () => {
    const c = parseConfig({});
    expect(c.http.maxConnectionsPerIp).toBe(64);
    expect(c.http.maxConnectionsPerIp).toBeLessThan(c.http.maxConnections / 10);
    expect(parseConfig({ FLEETGATE_MAX_CONNECTIONS_PER_IP: '0' }).http.maxConnectionsPerIp).toBe(0);
    expect(() => parseConfig({ FLEETGATE_MAX_CONNECTIONS_PER_IP: '-1' })).toThrow(ConfigError);
    expect(() => parseConfig({ FLEETGATE_MAX_CONNECTIONS_PER_IP: 'lots' })).toThrow(
      /FLEETGATE_MAX_CONNECTIONS_PER_IP/,
    );
  });
});
