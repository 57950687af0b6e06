/**
 * The emulator the service's tests run in-process (packages/platform-emulator/test/helpers/
 * emulator.ts), with the suite's whole contract check wired in: every request held to the
 * platform's published documents and, when the gateway sent it, to docs/emulator-fidelity.md's
 * table of what it sends (test/helpers/contract.ts). Root tests start the emulator here, never
 * from the package's helper directly, so the check cannot be left out.
 */
import type { EmulatorModule } from '../../packages/platform-emulator/src/context.js';
import type { EmulatorOptions } from '../../packages/platform-emulator/src/options.js';
import { EMULATOR_MODULES } from '../../packages/platform-emulator/src/routes/index.js';
import {
  startTestEmulator as startPackageEmulator,
  type TestEmulator,
} from '../../packages/platform-emulator/test/helpers/emulator.js';
import { checkAgainstDocuments, checkListed } from './contract.js';

export {
  REDIRECT,
  basic,
  type ApiResult,
  type TestEmulator,
} from '../../packages/platform-emulator/test/helpers/emulator.js';

/** The emulator on a free loopback port, every request it gets under the suite's contract check. */
export function startTestEmulator(
  overrides: Partial<EmulatorOptions> = {},
  modules: EmulatorModule[] = EMULATOR_MODULES,
): Promise<TestEmulator> {
  return startPackageEmulator(overrides, modules, [checkAgainstDocuments, checkListed]);
}
