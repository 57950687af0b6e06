/**
 * Which client an address counts as, for everything limited per client (the failure lockout,
 * the per-IP request budgets, the per-address connection limit). An IPv6 client is its /64: a
 * single subscriber is usually handed a whole /64 (RFC 6177) and can pick any address in it, so
 * counting per address would give it 2^64 budgets. An IPv4-mapped IPv6 address (what a
 * dual-stack socket shows for an IPv4 peer) is that IPv4 address. Anything unparsable counts
 * as itself.
 */
import ipaddr from 'ipaddr.js';

const PREFIX = 64;

export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const bytes = ip.toByteArray().map((b, i) => (i < PREFIX / 8 ? b : 0));
  return `${ipaddr.fromByteArray(bytes).toString()}/${PREFIX}`;
}
