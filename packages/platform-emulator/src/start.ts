/**
 * Starts the emulator from its settings (env.ts): one function for `npm run sandbox` and for the
 * child the service forks under `npm start` in sandbox mode.
 */
import type { Logger } from 'pino';
import type { EmulatorConfig } from './env.js';
import { DEFAULT_SANDBOX, parseDailyLimits } from './options.js';
import { SANDBOX_MODULES } from './routes/index.js';
import { buildSandbox, type Sandbox } from './server.js';

export interface RunningSandbox extends Sandbox {
  baseUrl: string;
}

export async function startSandbox(
  config: EmulatorConfig,
  logger: Logger,
  dataDir: string | undefined,
): Promise<RunningSandbox> {
  const baseUrl = `http://127.0.0.1:${config.port}`;
  const sandbox = buildSandbox(
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
      refreshTtlDays: DEFAULT_SANDBOX.refreshTtlDays,
      rateLimits: config.rateLimits,
      dailyLimits: parseDailyLimits(config.dailyLimits),
      autoApprove: config.autoApprove,
      webhookRetryDelaysMs: [...DEFAULT_SANDBOX.webhookRetryDelaysMs],
      webhookValidationIntervalMs: config.webhookValidationHours * 3_600_000,
      seed: DEFAULT_SANDBOX.seed,
      now: () => new Date(),
      logger,
    },
    SANDBOX_MODULES,
  );
  try {
    await sandbox.app.listen({ port: config.port, host: '127.0.0.1' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    await sandbox.close();
    throw new SandboxPortError(
      code === 'EADDRINUSE'
        ? `port ${config.port} (SANDBOX_PORT) is already in use on 127.0.0.1; stop what listens there or set SANDBOX_PORT to a free port`
        : `port ${config.port} (SANDBOX_PORT) may not be opened on 127.0.0.1 (permission denied); set SANDBOX_PORT to another port`,
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
