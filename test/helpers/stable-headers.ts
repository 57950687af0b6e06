/**
 * A response's headers without those that legitimately differ between two answers to the same
 * request (per connection, per request, per rate-limit budget): what the tests compare between an
 * answer over a real socket and app.inject()'s.
 */
const VOLATILE = new Set([
  'date',
  'connection',
  'keep-alive',
  'x-request-id',
  'transfer-encoding',
  'ratelimit-remaining',
  'ratelimit-reset',
]);

export const stableHeaders = (h: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(h)
      .filter(([k]) => !VOLATILE.has(k.toLowerCase()))
      .map(([k, v]) => [k.toLowerCase(), String(v)]),
  );
