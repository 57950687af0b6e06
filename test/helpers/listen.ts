/**
 * Starts a test app on a real loopback port and returns its base URL.
 */
import type { AddressInfo } from 'node:net';
import type { TestApp } from './build-test-app.js';

export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}
