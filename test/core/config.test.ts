import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

describe('parseConfig', () => {
  it('applies the documented defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      brandDir: './brand',
    });
    expect(c.sandbox).toMatchObject({
      enabled: true,
      port: 3001,
      autolink: true,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
      webhookSecret: 'sandbox-webhook-secret',
      redirectUris: ['http://localhost:3000/api/video/oauth/callback'],
      webhookUrl: 'http://localhost:3000/api/video/webhooks',
      scopes: undefined,
      accessTtl: 3599,
      rateLimits: true,
      autoApprove: true,
    });
    expect(c.video.redirectUri).toBe('http://localhost:3000/api/video/oauth/callback');
    // A loopback origin stands for every loopback name on its port.
    expect(c.mcpAllowedOrigins).toEqual([
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
    ]);
    expect(c.databaseUrl).toBeUndefined();
  });

  it('turns the sandbox off by default once real credentials are given', () => {
    expect(parseConfig({ VIDEO_CLIENT_ID: 'abc', VIDEO_CLIENT_SECRET: 'x' }).sandbox.enabled).toBe(false);
    expect(parseConfig({ VIDEO_CLIENT_ID: 'abc', FLEETGATE_SANDBOX: '1' }).sandbox.enabled).toBe(true);
  });

  it('derives from PORT and PUBLIC_URL', () => {
    const c = parseConfig({ PORT: '8080', PUBLIC_URL: 'https://brand.example.com/' });
    expect(c.publicUrl).toBe('https://brand.example.com');
    expect(c.sandbox.port).toBe(8081);
    expect(c.mcpAllowedOrigins).toEqual(['https://brand.example.com']);
    const listed = parseConfig({ MCP_ALLOWED_ORIGINS: 'https://app.example.com, http://127.0.0.1:5173' });
    expect(listed.mcpAllowedOrigins).toEqual([
      'https://app.example.com',
      'http://127.0.0.1:5173',
      'http://localhost:5173',
      'http://[::1]:5173',
    ]);
  });

  it('keeps finished webhook deliveries 7 days unless FLEETGATE_DELIVERY_RETENTION_DAYS says otherwise', () => {
    const day = 86_400_000;
    expect(parseConfig({}).retention.deliveriesMs).toBe(7 * day);
    expect(parseConfig({ FLEETGATE_DELIVERY_RETENTION_DAYS: '30' }).retention.deliveriesMs).toBe(30 * day);
    for (const value of ['0', '1.5', 'a week', '3651'])
      expect(() => parseConfig({ FLEETGATE_DELIVERY_RETENTION_DAYS: value }), value).toThrow(ConfigError);
  });

  it('lists every problem at once', () => {
    let err: unknown;
    try {
      parseConfig({
        PORT: 'abc',
        PUBLIC_URL: 'ftp://x',
        DATABASE_URL: 'mysql://x',
        FLEETGATE_ENCRYPTION_KEY: 'short',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const v of ['PORT', 'PUBLIC_URL', 'DATABASE_URL', 'FLEETGATE_ENCRYPTION_KEY', 'LOG_LEVEL'])
      expect(problems).toContain(v);
  });
});
