/**
 * SSRF guard for subscriber URLs: http(s) only, no credentials, and every address the host
 * resolves to must be global unicast — loopback, private, link-local, CGNAT, multicast,
 * unspecified and reserved ranges are refused (ipaddr.js names them), and an IPv6 address that
 * carries an IPv4 address (IPv4-compatible, mapped, translated, NAT64, 6to4, Teredo) is judged by
 * the IPv4 address it carries, since that is where its packets end up. Checked when a subscription is
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

/** Why an address is refused: its range, and the IPv4 address it carries when that decided. */
export interface Blocked {
  range: string;
  carries?: string;
}

const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/**
 * The IPv4 address an IPv6 address carries, by the form that embeds it; `opaque` for a form whose
 * IPv4 position cannot be told (a local-use NAT64 prefix laid out longer than /96).
 */
export function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | 'opaque' | undefined {
  const w = (i: number) => v6.parts[i] ?? 0;
  const zero = (from: number, to: number) => v6.parts.slice(from, to).every((x) => x === 0);
  const last32 = () => ipv4Of(w(6), w(7));
  // ::a.b.c.d (IPv4-compatible, RFC 4291), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (RFC 6145).
  if (zero(0, 4) && ((w(4) === 0 && (w(5) === 0 || w(5) === 0xffff)) || (w(4) === 0xffff && w(5) === 0)))
    return last32();
  if (w(0) === 0x64 && w(1) === 0xff9b) {
    // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052).
    if (zero(2, 6)) return last32();
    // The local-use 64:ff9b:1::/48 (RFC 8215): a /96 layout is read; any other hides the address.
    if (w(2) === 1) return zero(3, 6) ? last32() : 'opaque';
    return undefined;
  }
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48.
  if (w(0) === 0x2002) return ipv4Of(w(1), w(2));
  // Teredo (RFC 4380): 2001:0::/32, the client's address in the last 32 bits, inverted.
  if (w(0) === 0x2001 && w(1) === 0) return ipv4Of(~w(6) & 0xffff, ~w(7) & 0xffff);
  return undefined;
}

/** Why an address may not receive webhooks; undefined when it is global unicast. */
export function blockedAddress(address: string): Blocked | undefined {
  if (!ipaddr.isValid(address)) return { range: 'invalid' };
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') {
    const range = parsed.range();
    return range === 'unicast' ? undefined : { range };
  }
  const v6 = parsed as ipaddr.IPv6;
  const own = v6.range();
  // :: and ::1 are in ::/96 too, but are IPv6's own unspecified and loopback addresses.
  if (own === 'unspecified' || own === 'loopback') return { range: own };
  const v4 = embeddedIPv4(v6);
  if (v4 === 'opaque') return { range: own };
  if (v4) {
    const range = v4.range();
    return range === 'unicast' ? undefined : { range, carries: v4.toString() };
  }
  return own === 'unicast' ? undefined : { range: own };
}

/** The range an address is in when that range is not global unicast; undefined when it is. */
export const blockedRange = (address: string): string | undefined => blockedAddress(address)?.range;

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
      const blocked = blockedAddress(a.address);
      if (blocked)
        throw new TargetRefused(
          'private_address',
          `The host resolves to ${a.address} (${blocked.range}${blocked.carries ? `: it carries the IPv4 address ${blocked.carries}` : ''}); only public addresses may receive webhooks.`,
        );
    }
  }
  return addresses;
}
