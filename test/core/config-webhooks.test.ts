/**
 * The outgoing-webhook settings: defaults, the env subscription needing its fixed secret, and
 * the secret's form.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';
import { newSecret } from '../../src/core/webhook-signature.js';

describe('outgoing webhook configuration', () => {
  it('defaults: no env subscription, public receivers only, retries for a day', () => {
    expect(parseConfig({}).webhooksOut).toEqual({
      env: undefined,
      allowPrivate: false,
      retry: { baseMs: 5000, maxMs: 3_600_000, forMs: 86_400_000 },
    });
  });

  it('takes the env subscription with its secret, and the retry schedule', () => {
    const secret = newSecret();
    const c = parseConfig({
      FLEETGATE_WEBHOOK_URL: 'https://app.example.com/hooks',
      FLEETGATE_WEBHOOK_SECRET: secret,
      FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1',
      FLEETGATE_WEBHOOK_RETRY_BASE_MS: '100',
      FLEETGATE_WEBHOOK_RETRY_MAX_MS: '1000',
      FLEETGATE_WEBHOOK_RETRY_FOR: '60',
    }).webhooksOut;
    expect(c).toEqual({
      env: { url: 'https://app.example.com/hooks', secret },
      allowPrivate: true,
      retry: { baseMs: 100, maxMs: 1000, forMs: 60_000 },
    });
  });

  it('refuses a URL without a secret, a malformed secret and a non-http URL, naming each', () => {
    expect(() => parseConfig({ FLEETGATE_WEBHOOK_URL: 'https://app.example.com/hooks' })).toThrow(
      /FLEETGATE_WEBHOOK_SECRET: required/,
    );
    for (const bad of ['secret', 'whsec_short', `whsec_${'A'.repeat(200)}`, 'whsec_!!!!']) {
      expect(() => parseConfig({ FLEETGATE_WEBHOOK_SECRET: bad }), bad).toThrow(ConfigError);
    }
    expect(() =>
      parseConfig({ FLEETGATE_WEBHOOK_URL: 'ftp://x', FLEETGATE_WEBHOOK_SECRET: newSecret() }),
    ).toThrow(/FLEETGATE_WEBHOOK_URL must be an http\(s\) URL/);
  });
});
