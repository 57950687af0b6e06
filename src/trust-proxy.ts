/**
 * FLEETGATE_TRUST_PROXY: whose X-Forwarded-For is believed, so that behind a reverse proxy each
 * client is its own address (for the lockout, the per-IP budgets and the logs) instead of all
 * being the proxy's. A hop count N believes the last N hops in front of us whoever they are; an
 * address list (addresses, CIDRs, or proxy-addr's names loopback, linklocal, uniquelocal)
 * believes only peers in it. The walk itself is @fastify/proxy-addr's, from the socket's peer
 * back along X-Forwarded-For to the first hop not believed.
 */
import proxyAddr from '@fastify/proxy-addr';
import ipaddr from 'ipaddr.js';

export type TrustProxy = { hops: number } | { addresses: string[] };

/** Whether the `hop`-th address back from us (0: the socket's peer) is a proxy we believe. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** More proxies than this in front of one service is a typo. */
const MAX_HOPS = 32;

/**
 * Reads the setting; undefined believes nobody. Throws an Error naming every bad entry.
 * Fastify's own numeric trustProxy believes nobody (it cannot vouch for the peer), so the
 * hop count is a function of ours.
 */
export function parseTrustProxy(raw: string): TrustProxy | undefined {
  const value = raw.trim();
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) throw new Error(`a hop count is at most ${MAX_HOPS}, not ${hops}`);
    return hops === 0 ? undefined : { hops };
  }
  const addresses = value
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const bad = addresses.filter((a) => !validEntry(a));
  if (addresses.length === 0 || bad.length > 0) {
    throw new Error(
      `a hop count or a comma list of addresses and CIDRs (e.g. 1, or 10.0.0.0/8,fd00::/8); not ${
        bad.length > 0 ? bad.map((b) => JSON.stringify(b)).join(', ') : JSON.stringify(raw)
      }`,
    );
  }
  return { addresses };
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * An address in its usual spelling, with an optional prefix length or netmask. proxy-addr
 * alone would also take IPv4's old short forms ("10.1" is 10.0.0.1), which are more likely
 * typos than meant.
 */
function validEntry(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const address = entry.split('/')[0] ?? '';
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return false;
  try {
    proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

export function trustFunction(trust: TrustProxy): TrustFunction {
  if ('hops' in trust) {
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(trust.addresses);
}
