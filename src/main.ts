/**
 * Composition root: parse the environment, build the adapters, build the app, listen, and
 * close gracefully on SIGTERM/SIGINT. The only file besides config.ts that sees process.env.
 */
import path from 'node:path';
import { BrandService } from './brand/brand-service.js';
import { BrandInvalidError } from './brand/problems.js';
import { buildApp } from './app.js';
import { ConfigError, parseConfig, type Config } from './config.js';
import { createLogger } from './log.js';
import { startSandbox, type RunningSandbox } from './sandbox/start.js';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = parseConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`fleetgate: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  let brand: BrandService;
  try {
    brand = await BrandService.start({
      dir: config.brandDir,
      baseUrl: config.publicUrl,
      cacheDir: path.join(config.dataDir, 'cache'),
      logger,
    });
  } catch (err) {
    if (err instanceof BrandInvalidError) {
      process.stderr.write(`fleetgate: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  if (config.brandWatch) await brand.watch();

  // Sandbox mode: the platform emulator runs beside the service, keeping its state in the data dir.
  let sandbox: RunningSandbox | undefined;
  if (config.sandbox.enabled)
    sandbox = await startSandbox(config, logger, path.join(config.dataDir, 'sandbox'));

  const app = buildApp({ config, logger, brand });
  await app.listen({ port: config.port, host: config.host });
  process.stdout.write(
    [
      '',
      `fleetgate is up: ${config.publicUrl}`,
      `  brand API     ${config.publicUrl}/api/brand`,
      `  agent guide   ${config.publicUrl}/llms.txt`,
      `  documents     ${config.publicUrl}/static/fleet/docs/`,
      `  MCP           ${config.publicUrl}/mcp`,
      ...(sandbox
        ? [`  emulator      ${sandbox.baseUrl} (platform REST /v2, OAuth /oauth, control /_sandbox)`]
        : []),
      '',
    ].join('\n'),
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void Promise.allSettled([app.close(), brand.close(), sandbox?.close()]).then(() => process.exit(0));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
