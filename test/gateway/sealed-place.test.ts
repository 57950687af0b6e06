/**
 * A sealed value is bound to its place: the additional authenticated data names its table, row
 * and column, so a value copied into another row or column does not open there (it fails
 * authentication) instead of handing one secret out as another. Checked on every sealed value a
 * real gateway writes (the link's two tokens, OAuth states' verifiers, subscription secrets),
 * opened with every other place's data, and through a real call after the link's two tokens are
 * swapped in the store.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aadFor } from '../../src/cli/reseal.js';
import { keyring, open, VaultError } from '../../src/gateway/oauth/vault.js';
import { readKeyFile } from '../../src/gateway/secrets.js';
import type { SealedValue } from '../../src/store/store.js';
import { startGateway, type GatewayEnv } from './helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway({ env: { FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1' } });
  await e.link();
  for (const n of [1, 2]) {
    const sub = await e.api('POST', '/api/video/subscriptions', {
      body: { url: `http://127.0.0.1:9/hook-${n}`, events: ['*'] },
    });
    expect(sub.status).toBe(201);
    // Each start keeps an OAuth state with its sealed PKCE verifier.
    expect((await e.api('GET', '/api/video/oauth/start')).status).toBe(200);
  }
}, 60_000);
afterAll(() => e.close());

const place = (v: SealedValue) => `${v.table}:${v.id}:${v.column}`;
const failure = (f: () => unknown): string => {
  try {
    f();
    return 'opened';
  } catch (err) {
    return err instanceof VaultError ? err.reason : String(err);
  }
};

describe('a sealed value', () => {
  it('opens in its own row and column, and in no other', async () => {
    const ring = keyring(
      readKeyFile(path.join(e.dataDir, 'encryption-keys.json')).map((k) => Buffer.from(k.key, 'base64')),
    );
    const values = await e.store.sealedValues();
    const places = values.map(place);
    // Two places in one row (the link's columns), rows of one table (states, subscriptions).
    expect(places.filter((p) => p.startsWith('link:'))).toHaveLength(2);
    expect(places.filter((p) => p.startsWith('oauth_states:'))).toHaveLength(2);
    expect(places.filter((p) => p.startsWith('webhook_subscriptions:'))).toHaveLength(2);
    for (const v of values) {
      expect(
        failure(() => open(ring, v.value, aadFor(v))),
        place(v),
      ).toBe('opened');
      for (const w of values) {
        if (w === v) continue;
        expect(
          failure(() => open(ring, v.value, aadFor(w))),
          `${place(v)} in ${place(w)}`,
        ).toBe('failed_authentication');
      }
    }
  });

  it("copied into the link's other column makes the link need relinking, not swap the tokens", async () => {
    const link = await e.store.getLink();
    if (!link?.refreshToken) throw new Error('no link with a refresh token');
    await e.store.saveLink({ ...link, accessToken: link.refreshToken, refreshToken: link.accessToken });
    e.gateway.tokens.reset();
    const call = await e.api('GET', '/api/video/recordings');
    expect(call.status).toBe(409);
    expect(call.json.error).toMatchObject({
      code: 'needs_relink',
      details: { reason: 'failed_authentication', column: 'access_token' },
    });
  });
});
