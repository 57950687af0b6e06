/**
 * A gate before every request to the platform's hosts (REST transport and fetch: OAuth, the
 * user lookup, the hosted MCP server). Sandbox mode shuts it while the emulator child is down,
 * so whatever holds the emulator's port meanwhile is never sent the app's credentials or the
 * account's tokens: the request fails as a refused connection would, without leaving.
 */
import type { Transport } from './http-transport.js';

/** An error when a request to `url` must not go out now; undefined lets it through. */
export type PlatformGate = (url: string) => Error | undefined;

const urlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

export function gatedFetch(f: typeof fetch, gate: PlatformGate): typeof fetch {
  return (input, init) => {
    const refused = gate(urlOf(input));
    return refused ? Promise.reject(refused) : f(input, init);
  };
}

export function gatedTransport(t: Transport, gate: PlatformGate): Transport {
  return (url, init) => {
    const refused = gate(url);
    return refused ? Promise.reject(refused) : t(url, init);
  };
}
