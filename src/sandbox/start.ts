/**
 * Starts the emulator from the service configuration: one function for `npm run sandbox` and
 * for `npm start` in sandbox mode.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { DEFAULT_SANDBOX, parseDailyLimits } from './options.js';
import { SANDBOX_MODULES } from './routes/index.js';
import { buildSandbox, type Sandbox } from './server.js';

export interface RunningSandbox extends Sandbox {
  baseUrl: string;
}

export async function startSandbox(
  config: Config,
  logger: Logger,
  dataDir: string | undefined,
): Promise<RunningSandbox> {
  const baseUrl = `http://127.0.0.1:${config.sandbox.port}`;
  const sandbox = buildSandbox(
    {
      baseUrl,
      dataDir,
      clientId: config.sandbox.clientId,
      clientSecret: config.sandbox.clientSecret,
      webhookSecret: config.sandbox.webhookSecret,
      redirectUris: config.sandbox.redirectUris,
      webhookUrl: config.sandbox.webhookUrl,
      scopes: config.sandbox.scopes,
      accessTtlSeconds: config.sandbox.accessTtl,
      refreshTtlDays: DEFAULT_SANDBOX.refreshTtlDays,
      rateLimits: config.sandbox.rateLimits,
      dailyLimits: parseDailyLimits(config.sandbox.dailyLimits),
      autoApprove: config.sandbox.autoApprove,
      webhookRetryDelaysMs: [...DEFAULT_SANDBOX.webhookRetryDelaysMs],
      webhookValidationIntervalMs: config.sandbox.webhookValidationHours * 3_600_000,
      seed: DEFAULT_SANDBOX.seed,
      now: () => new Date(),
      logger,
    },
    SANDBOX_MODULES,
  );
  try {
    await sandbox.app.listen({ port: config.sandbox.port, host: '127.0.0.1' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    await sandbox.close();
    throw new SandboxPortError(
      code === 'EADDRINUSE'
        ? `port ${config.sandbox.port} (SANDBOX_PORT) is already in use on 127.0.0.1; stop what listens there or set SANDBOX_PORT to a free port`
        : `port ${config.sandbox.port} (SANDBOX_PORT) may not be opened on 127.0.0.1 (permission denied); set SANDBOX_PORT to another port`,
    );
  }
  return { ...sandbox, baseUrl };
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
