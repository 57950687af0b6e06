/**
 * The brand MCP endpoint against the official conformance runner (@modelcontextprotocol/conformance),
 * on a localhost URL as a developer's instance is reached: the scenarios that apply to a server
 * with its own tools (the rest assume the reference server's fixture tools). The runner needs
 * Node 22 or later: this Node when it is, else the binary named by MCP_CONFORMANCE_NODE.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, buildTestApp, type TestApp } from '../helpers/build-test-app.js';

const run = promisify(execFile);
const RUNNER = path.join(REPO, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['server-initialize', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const major = Number(process.versions.node.split('.')[0]);
const node = major >= 22 ? process.execPath : process.env['MCP_CONFORMANCE_NODE'];
if (!node && process.env['CI'] === 'true')
  throw new Error(
    'CI=true: the MCP conformance runner needs Node 22+; set MCP_CONFORMANCE_NODE to its binary',
  );

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

let t: TestApp;
let port: number;
let out: string;
beforeAll(async () => {
  if (!node) return;
  port = await freePort();
  // As a developer runs it: the public URL on one loopback name, the client on another.
  t = await buildTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, PORT: String(port) } });
  await t.app.listen({ port, host: '127.0.0.1' });
  out = await mkdtemp(path.join(tmpdir(), 'fleetgate-conformance-'));
});
afterAll(async () => {
  await t?.close();
  if (out) await rm(out, { recursive: true, force: true });
});

interface Check {
  id: string;
  name: string;
  status: string;
  errorMessage?: string;
}

async function checksOf(dir: string): Promise<Check[]> {
  const found: Check[] = [];
  for (const entry of await readdir(dir, { recursive: true })) {
    if (!String(entry).endsWith('checks.json')) continue;
    found.push(...(JSON.parse(await readFile(path.join(dir, String(entry)), 'utf8')) as Check[]));
  }
  return found;
}

describe.skipIf(!node)(
  `MCP conformance runner${node ? '' : ' (skipped: needs Node 22+, or MCP_CONFORMANCE_NODE)'}`,
  () => {
    it.each(SCENARIOS)('%s passes against http://localhost:PORT/mcp', async (scenario) => {
      const dir = path.join(out, scenario);
      const r = await run(
        node!,
        [RUNNER, 'server', '--url', `http://localhost:${port}/mcp`, '--scenario', scenario, '-o', dir],
        { timeout: 60_000 },
      ).catch((e: { stdout?: string; stderr?: string; code?: number }) => e);
      const checks = await checksOf(dir);
      expect(checks.length, `${r.stdout ?? ''}${r.stderr ?? ''}`).toBeGreaterThan(0);
      const failed = checks.filter((c) => c.status !== 'SUCCESS' && c.status !== 'INFO');
      expect(failed, JSON.stringify(failed, null, 1)).toEqual([]);
    });
  },
);
