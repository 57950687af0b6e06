/**
 * The emulator reads its settings from the environment itself (packages/platform-emulator/src/env.ts), apart from
 * the service's config: both must read the SANDBOX_* variables, and the shared ones they derive
 * defaults from, the same way, or `npm start` would wire the gateway to another port or URL than
 * the emulator's.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { emulatorConfigFromEnv, EmulatorEnvError } from '../../packages/platform-emulator/src/env.js';

const ENVS: Record<string, string>[] = [
  {},
  { PORT: '4000' },
  { PORT: '4000', SANDBOX_PORT: '4100', PUBLIC_URL: 'https://gw.example.com/' },
  { VIDEO_REDIRECT_URI: 'https://gw.example.com/cb', LOG_LEVEL: 'warn', FLEETGATE_DATA_DIR: '/tmp/x' },
  {
    SANDBOX_CLIENT_ID: 'id',
    SANDBOX_CLIENT_SECRET: 'secret',
    SANDBOX_WEBHOOK_SECRET: 'whs',
    SANDBOX_REDIRECT_URIS: 'http://a.test/cb, http://b.test/cb',
    SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9/hook',
    SANDBOX_SCOPES: 'meeting:read user:read',
    SANDBOX_ACCESS_TTL: '60',
    SANDBOX_RATE_LIMITS: '0',
    SANDBOX_AUTO_APPROVE: 'false',
    SANDBOX_DAILY_LIMITS: 'meeting_writes_per_user=3,HEAVY=5',
    SANDBOX_WEBHOOK_VALIDATION_HOURS: '0',
  },
  { SANDBOX_REDIRECT_URIS: ' ', SANDBOX_SCOPES: '' },
];

describe('the emulator settings from the environment', () => {
  it.each(ENVS.map((env) => [JSON.stringify(env), env] as const))(
    'read as the service reads them: %s',
    (_, env) => {
      const service = parseConfig(env);
      const { sandbox } = service;
      expect(emulatorConfigFromEnv(env)).toEqual({
        port: sandbox.port,
        dataDir: service.dataDir,
        logLevel: service.logLevel,
        clientId: sandbox.clientId,
        clientSecret: sandbox.clientSecret,
        webhookSecret: sandbox.webhookSecret,
        redirectUris: sandbox.redirectUris,
        webhookUrl: sandbox.webhookUrl,
        scopes: sandbox.scopes,
        accessTtl: sandbox.accessTtl,
        rateLimits: sandbox.rateLimits,
        autoApprove: sandbox.autoApprove,
        dailyLimits: sandbox.dailyLimits,
        webhookValidationHours: sandbox.webhookValidationHours,
      });
    },
  );

  it('lists every bad setting, and ignores the service-only ones', () => {
    const bad = () =>
      emulatorConfigFromEnv({
        SANDBOX_PORT: 'x',
        SANDBOX_DAILY_LIMITS: 'lots',
        SANDBOX_WEBHOOK_URL: 'ftp://x',
        REDIS_URL: 'nope',
      });
    expect(bad).toThrow(EmulatorEnvError);
    try {
      bad();
    } catch (err) {
      const issues = (err as EmulatorEnvError).issues;
      expect(issues.map((i) => i.split(':')[0])).toEqual([
        'SANDBOX_PORT',
        'SANDBOX_WEBHOOK_URL',
        'SANDBOX_DAILY_LIMITS',
      ]);
    }
  });
});
