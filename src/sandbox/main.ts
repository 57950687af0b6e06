/**
 * `npm run sandbox`: the platform emulator alone on SANDBOX_PORT (default 3001).
 */
import path from 'node:path';
import { parseConfig, ConfigError } from '../config.js';
import { createLogger } from '../log.js';
import { startSandbox } from './start.js';

try {
  const config = parseConfig(process.env);
  const logger = createLogger(config.logLevel);
  const sandbox = await startSandbox(config, logger, path.resolve(config.dataDir));
  process.stdout.write(
    `platform emulator: ${sandbox.baseUrl} (REST ${sandbox.baseUrl}/v2, OAuth ${sandbox.baseUrl}/oauth, control ${sandbox.baseUrl}/_sandbox)\n`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`sandbox: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
