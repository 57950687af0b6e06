/**
 * The set-up every capability test shares: one gateway linked to its own emulator for the file,
 * with the operation context and an emulator user token ready, closed after the file's tests.
 * Call it at module level; the returned object is filled in before the first test runs.
 */
import { afterAll, beforeAll } from 'vitest';
import type { OpContext } from '../../../src/gateway/capabilities/operation.js';
import { startGateway, type GatewayEnv } from '../helpers.js';

export interface LinkedGateway extends GatewayEnv {
  /** The gateway's operation context once linked (what invoke hands an operation). */
  ctx: OpContext;
  /** A user access token from the emulator, to read the platform side directly. */
  token: string;
}

export function linkedGateway(): LinkedGateway {
  // Filled in by beforeAll: the tests and helpers only read it from inside hooks and tests.
  const fx = {} as LinkedGateway;
  beforeAll(async () => {
    const e = await startGateway();
    await e.link();
    Object.assign(fx, e, {
      ctx: await e.gateway.opContext(),
      token: (await e.emu.userToken()).access_token,
    });
  });
  afterAll(() => fx.close());
  return fx;
}
