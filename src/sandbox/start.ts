/**
 * Starts the emulator from the service configuration: one function for `npm run sandbox` and
 * for `npm start` in sandbox mode.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { DEFAULT_SANDBOX } from './options.js';
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
      autoApprove: config.sandbox.autoApprove,
      webhookRetryDelaysMs: [...DEFAULT_SANDBOX.webhookRetryDelaysMs],
      seed: DEFAULT_SANDBOX.seed,
      now: () => new Date(),
      logger,
    },
    SANDBOX_MODULES,
  );
  await sandbox.app.listen({ port: config.sandbox.port, host: '127.0.0.1' });
  return { ...sandbox, baseUrl };
}
