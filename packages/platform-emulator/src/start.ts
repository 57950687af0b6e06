/**
 * Starts the emulator from its settings (env.ts): one function for `npm run sandbox` and for the
 * child the service forks under `npm start` in sandbox mode.
 */
import type { Logger } from 'pino';
import type { EmulatorConfig } from './env.js';
import { EMULATOR_DEFAULTS, parseDailyLimits } from './options.js';
import { EMULATOR_MODULES } from './routes/index.js';
import { buildEmulator, type Emulator } from './server.js';

export interface RunningSandbox extends Emulator {
  baseUrl: string;
}

export async function startSandbox(
  config: EmulatorConfig,
  logger: Logger,
  dataDir: string | undefined,
): Promise<RunningSandbox> {
  const baseUrl = `http://127.0.0.1:${config.port}`;
  const emulator = buildEmulator(
    {
      baseUrl,
      dataDir,
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      webhookSecret: config.webhookSecret,
      redirectUris: config.redirectUris,
      webhookUrl: config.webhookUrl,
      scopes: config.scopes,
      accessTtlSeconds: config.accessTtl,
      refreshTtlDays: EMULATOR_DEFAULTS.refreshTtlDays,
      rateLimits: config.rateLimits,
      dailyLimits: parseDailyLimits(config.dailyLimits),
      autoApprove: config.autoApprove,
      webhookRetryDelaysMs: [...EMULATOR_DEFAULTS.webhookRetryDelaysMs],
      webhookValidationIntervalMs: config.webhookValidationHours * 3_600_000,
      seed: EMULATOR_DEFAULTS.seed,
      now: () => new Date(),
      logger,
    },
    EMULATOR_MODULES,
  );
  try {
    await emulator.app.listen({ port: config.port, host: '127.0.0.1' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    await emulator.close();
    throw new SandboxPortError(
      code === 'EADDRINUSE'
        ? `port ${config.port} (SANDBOX_PORT) is already in use on 127.0.0.1; stop what listens there or set SANDBOX_PORT to a free port`
        : `port ${config.port} (SANDBOX_PORT) may not be opened on 127.0.0.1 (permission denied); set SANDBOX_PORT to another port`,
    );
  }
  return { ...emulator, baseUrl };
}

/**
 * The emulator's port cannot be had. Never worked around: the gateway is wired to that port, so
 * whatever holds it would be sent the app's credentials and the account's tokens.
 */
export class SandboxPortError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxPortError';
  }
}
