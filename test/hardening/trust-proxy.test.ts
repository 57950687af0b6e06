/**
 * FLEETGATE_TRUST_PROXY over real sockets: behind a believed proxy each client is its own
 * X-Forwarded-For address for the failure lockout, the keyless budgets and the request log, so
 * one client's wrong keys no longer lock out everyone behind the proxy (the operator included).
 * A hop count believes that many proxies in front of us (the entries a client wrote itself,
 * further left, are not believed); an address list believes only those peers. IPv6 clients are
 * counted per /64 and an IPv4-mapped IPv6 address as its IPv4 address, so a client with a /64
 * gets no more guesses than one with an IPv4 address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { addressKey } from '../../src/http/address-key.js';
import { API_KEY, startGateway, type GatewayEnv } from '../gateway/helpers.js';
import { sendFrom } from '../helpers/send-from.js';

const FAILURES = 3;
const BUDGET = 5;
const LIMITS = {
  FLEETGATE_RATE_LIMIT_LOGIN: String(FAILURES),
  FLEETGATE_RATE_LIMIT_API: String(BUDGET),
};
const RIGHT = `Bearer ${API_KEY}`;
const wrong = (i: number) => `Bearer guess-${i}-0123456789abcdef`;

/** A request to a door that checks the key (no budget of its own), as `xff` forwarded it from `peer`. */
const metrics = (g: GatewayEnv, peer: string, xff: string | undefined, auth: string) =>
  sendFrom(g.base, peer, '/metrics', {
    headers: { authorization: auth, ...(xff === undefined ? {} : { 'x-forwarded-for': xff }) },
  }).then((a) => a.status);

/** Locks out whoever `xff` stands for: FAILURES wrong keys, each answered 401. */
async function lockOut(g: GatewayEnv, peer: string, xff: (i: number) => string | undefined) {
  for (let i = 0; i < FAILURES; i++) expect(await metrics(g, peer, xff(i), wrong(i))).toBe(401);
}

describe('configuration', () => {
  it('reads a hop count or an address list, and believes nobody when unset', () => {
    expect(parseConfig({}).trustProxy).toBeUndefined();
    expect(parseConfig({ FLEETGATE_TRUST_PROXY: '0' }).trustProxy).toBeUndefined();
    expect(parseConfig({ FLEETGATE_TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(
      parseConfig({ FLEETGATE_TRUST_PROXY: '10.0.0.0/8, 192.0.2.7 ,fd00::/8,loopback' }).trustProxy,
    ).toEqual({ addresses: ['10.0.0.0/8', '192.0.2.7', 'fd00::/8', 'loopback'] });
  });

  it('lists every bad value at start, beside the other problems', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as ConfigError).problems;
      }
      return [];
    };
    const listed = problems({ FLEETGATE_TRUST_PROXY: 'nginx, 10.0.0.0/33,192.0.2.1', PORT: 'x' });
    expect(listed.some((p) => p.startsWith('PORT'))).toBe(true);
    const trust = listed.filter((p) => p.startsWith('FLEETGATE_TRUST_PROXY'));
    expect(trust.join('\n')).toContain('nginx');
    expect(trust.join('\n')).toContain('10.0.0.0/33');
    expect(trust.join('\n')).not.toContain('192.0.2.1');
    for (const bad of ['-1', '1.5', '999', ',']) {
      expect(problems({ FLEETGATE_TRUST_PROXY: bad }).join('\n'), bad).toMatch(/^FLEETGATE_TRUST_PROXY/);
    }
  });
});

describe('a hop count (FLEETGATE_TRUST_PROXY=1)', () => {
  let g: GatewayEnv;
  beforeAll(async () => {
    g = await startGateway({ env: { ...LIMITS, FLEETGATE_TRUST_PROXY: '1' } });
  }, 60_000);
  afterAll(() => g.close());
  const PROXY = '127.0.0.1';

  it('locks out the client the proxy names, not the proxy: others behind it still get in', async () => {
    // The client wrote the first entry itself; the proxy appended the address it saw.
    await lockOut(g, PROXY, (i) => `198.51.100.${i}, 203.0.113.10`);
    expect(await metrics(g, PROXY, '203.0.113.10', RIGHT)).toBe(429);
    expect(await metrics(g, PROXY, '198.51.100.99, 203.0.113.10', RIGHT)).toBe(429);
    // Another client through the same proxy, and the operator coming in directly.
    expect(await metrics(g, PROXY, '203.0.113.10, 203.0.113.11', RIGHT)).toBe(200);
    expect(await metrics(g, PROXY, undefined, RIGHT)).toBe(200);
  });

  it('gives each client behind the proxy its own keyless budget', async () => {
    const status = (xff: string) =>
      sendFrom(g.base, PROXY, '/api/video/status', { headers: { 'x-forwarded-for': xff } }).then(
        (a) => a.status,
      );
    for (let i = 0; i < BUDGET; i++) expect(await status('203.0.113.20')).toBe(401);
    expect(await status('203.0.113.20')).toBe(429);
    expect(await status('203.0.113.21')).toBe(401);
    // An IPv6 client's budget is its /64's, whichever of its addresses it uses.
    for (let i = 0; i < BUDGET; i++) expect(await status(`2001:db8:9:9::${i + 1}`)).toBe(401);
    expect(await status('2001:db8:9:9::99')).toBe(429);
    expect(await status('2001:db8:9:a::1')).toBe(401);
  });

  it('logs the client the proxy names as the remote address', async () => {
    const from = g.logs().length;
    expect(await metrics(g, PROXY, '198.51.100.200, 203.0.113.30', RIGHT)).toBe(200);
    const incoming = g
      .logs()
      .slice(from)
      .map((l) => JSON.parse(l) as { msg?: string; req?: { remoteAddress?: string } })
      .filter((l) => l.msg === 'incoming request');
    expect(incoming.map((l) => l.req?.remoteAddress)).toEqual(['203.0.113.30']);
  });

  it('counts an IPv6 client per /64, and an IPv4-mapped address as its IPv4 address', async () => {
    await lockOut(g, PROXY, (i) => `2001:db8:5:6::${i + 1}`);
    expect(await metrics(g, PROXY, '2001:db8:5:6:ffff:1:2:3', RIGHT)).toBe(429);
    expect(await metrics(g, PROXY, '2001:db8:5:7::1', RIGHT)).toBe(200);
    await lockOut(g, PROXY, () => '::ffff:198.51.100.77');
    expect(await metrics(g, PROXY, '198.51.100.77', RIGHT)).toBe(429);
    expect(await metrics(g, PROXY, '198.51.100.78', RIGHT)).toBe(200);
  });
});

describe('an address list (FLEETGATE_TRUST_PROXY=127.0.0.1)', () => {
  let g: GatewayEnv;
  beforeAll(async () => {
    g = await startGateway({ env: { ...LIMITS, FLEETGATE_TRUST_PROXY: '127.0.0.1' } });
  }, 60_000);
  afterAll(() => g.close());

  it('believes the listed proxy', async () => {
    await lockOut(g, '127.0.0.1', () => '203.0.113.40');
    expect(await metrics(g, '127.0.0.1', '203.0.113.40', RIGHT)).toBe(429);
    expect(await metrics(g, '127.0.0.1', '203.0.113.41', RIGHT)).toBe(200);
  });

  it('does not believe a peer outside the list: a forged X-Forwarded-For buys no fresh guesses', async () => {
    await lockOut(g, '127.0.0.2', (i) => `203.0.113.${50 + i}`);
    expect(await metrics(g, '127.0.0.2', '203.0.113.99', RIGHT)).toBe(429);
    expect(await metrics(g, '127.0.0.2', undefined, RIGHT)).toBe(429);
  });
});

describe('unset', () => {
  let g: GatewayEnv;
  beforeAll(async () => {
    g = await startGateway({ env: LIMITS });
  }, 60_000);
  afterAll(() => g.close());

  it('believes nobody: the socket is the client, whatever X-Forwarded-For says', async () => {
    await lockOut(g, '127.0.0.3', (i) => `203.0.113.${60 + i}`);
    expect(await metrics(g, '127.0.0.3', '203.0.113.98', RIGHT)).toBe(429);
    expect(await metrics(g, '127.0.0.4', '203.0.113.60', RIGHT)).toBe(200);
  });
});

describe('addressKey', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::9', '2001:db8:1:2::/64'],
    ['::1', '::/64'],
    ['not-an-address', 'not-an-address'],
  ])('%s counts as %s', (ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });
});
