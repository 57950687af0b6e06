/**
 * SSRF guard for subscriber URLs: http(s) only, no credentials, and every address the host
 * resolves to must be global unicast — loopback, private, link-local, CGNAT, multicast,
 * unspecified, reserved and IPv6 forms that embed an IPv4 address are refused (ipaddr.js names
 * the ranges; IPv4-mapped IPv6 is judged as the IPv4 it carries). Checked when a subscription is
 * made and again on every delivery, whose connection then goes to exactly the addresses checked
 * (DNS may answer differently the second time). FLEETGATE_WEBHOOK_ALLOW_PRIVATE=1 lifts the
 * address rule, for receivers on the same network and for tests.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type RefusalReason = 'invalid_url' | 'scheme' | 'credentials' | 'private_address' | 'unresolvable';

export class TargetRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
    this.name = 'TargetRefused';
  }
}

/** The range an address is in when that range is not global unicast; undefined when it is. */
export function blockedRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so a mapped loopback is judged as loopback.
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** Parses and checks the URL's form (no network). */
export function parseTarget(raw: string): URL {
  if (!URL.canParse(raw)) throw new TargetRefused('invalid_url', 'url is not an absolute URL.');
  const url = new URL(raw);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TargetRefused('scheme', 'url must use http or https.');
  if (url.username || url.password)
    throw new TargetRefused('credentials', 'url must not carry credentials; the signature authenticates us.');
  return url;
}

/** Resolves the URL's host and checks every address; returns them for the connection to use. */
export async function resolveTarget(
  url: URL,
  o: { allowPrivate: boolean; resolve: Resolver },
): Promise<ResolvedAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: ResolvedAddress[];
  try {
    addresses = await o.resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0)
    throw new TargetRefused('unresolvable', `The host ${host.slice(0, 100)} does not resolve.`);
  if (!o.allowPrivate) {
    for (const a of addresses) {
      const range = blockedRange(a.address);
      if (range)
        throw new TargetRefused(
          'private_address',
          `The host resolves to ${a.address} (${range}); only public addresses may receive webhooks.`,
        );
    }
  }
  return addresses;
}
