/**
 * `npm run sandbox`: the platform emulator alone on SANDBOX_PORT (default 3001). Also the entry
 * of the emulator's child process under `npm start` (child-process.ts): with an IPC channel it
 * reports readiness there and exits when the parent goes away.
 */
// First, before any other module runs a tick or a GC.
import './pin-tick-shapes.js';
import path from 'node:path';
import { emulatorConfigFromEnv, EmulatorEnvError } from './env.js';
import { createEmulatorLogger } from './logger.js';
import type { EmulatorFailed, EmulatorReady } from './child-process.js';
import { SandboxPortError, startSandbox } from './start.js';

try {
  const config = emulatorConfigFromEnv(process.env);
  const logger = createEmulatorLogger(config.logLevel);
  const emulator = await startSandbox(config, logger, path.resolve(config.dataDir));
  const stop = () => void emulator.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (process.send) {
    // The parent may have gone while this process started (it stops at once on a bad brand
    // folder, say); sending then would crash with ERR_IPC_CHANNEL_CLOSED.
    if (!process.connected) process.exit(0);
    const ready: EmulatorReady = { sandboxReady: emulator.baseUrl };
    process.send(ready);
    // The parent is gone: save what a pending (or retrying) save has not yet, then leave at once.
    process.on('disconnect', () => {
      emulator.save();
      process.exit(0);
    });
  } else {
    process.stdout.write(
      `platform emulator: ${emulator.baseUrl} (REST ${emulator.baseUrl}/v2, OAuth ${emulator.baseUrl}/oauth, control ${emulator.baseUrl}/_sandbox)\n`,
    );
  }
} catch (err) {
  if (err instanceof SandboxPortError && process.send && process.connected) {
    // The service reports it (and stops); the reason travels with the exit.
    const failed: EmulatorFailed = { sandboxFailed: err.message };
    process.send(failed, () => process.exit(1));
  } else if (err instanceof EmulatorEnvError || err instanceof SandboxPortError) {
    process.stderr.write(`sandbox: ${err.message}\n`);
    process.exit(1);
  } else throw err;
}
