/**
 * POST /api/video/mcp driven by the MCP Inspector CLI (SDK v2, a client we did not write) in
 * both protocol eras, against a gateway linked to the emulator: list, a read, a write that
 * reaches the emulator, a resource, a tool error's exit code, and the key refused.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../../../src/gateway/capabilities/registry.js';
import { REPO } from '../../helpers/build-test-app.js';
import { API_KEY, startGateway, type GatewayEnv } from '../helpers.js';

const run = promisify(execFile);
const INSPECTOR = path.join(
  REPO,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const OFFERED = REGISTRY.filter((r) => r.operation).length;

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
});
afterAll(() => e.close());

async function inspector(
  era: 'modern' | 'legacy' | 'auto',
  key: string | null,
  ...args: string[]
): Promise<{ code: number; out: any; err: string }> {
  const auth = key === null ? [] : ['--header', `Authorization: Bearer ${key}`];
  const argv = [INSPECTOR, '--cli', `${e.base}/api/video/mcp`, '--transport', 'http'];
  argv.push('--protocol-era', era, ...auth, ...args, '--format', 'json');
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { timeout: 60_000 });
    return { code: 0, out: JSON.parse(stdout), err: stderr };
  } catch (err) {
    const x = err as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof x.code === 'number' ? x.code : -1,
      out: x.stdout ? JSON.parse(x.stdout) : null,
      err: x.stderr ?? '',
    };
  }
}

describe('MCP Inspector CLI against the gateway endpoint', () => {
  it('lists the tools over 2026-07-28 (server/discover, no handshake)', async () => {
    const r = await inspector('modern', API_KEY, '--method', 'tools/list');
    expect(r.code, r.err).toBe(0);
    const names = r.out.result.tools.map((t: { name: string }) => t.name);
    expect(names).toHaveLength(OFFERED);
    expect(names).toEqual(expect.arrayContaining(['meetings_create_meeting', 'calendar_quick_add']));
  });

  it('calls a read over the 2025-11-25 handshake era', async () => {
    const r = await inspector(
      'legacy',
      API_KEY,
      '--method',
      'tools/call',
      '--tool-name',
      'calendar_list_calendars',
      '--tool-args-json',
      '{"limit":5}',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out.result.structuredContent.items[0]).toMatchObject({ primary: true });
  });

  it('calls a write over 2026-07-28 that reaches the emulator', async () => {
    const before = (await e.emu.api('GET', '/_sandbox/stats')).json.requests[
      'POST /v2/calendars/primary/events/quickAdd'
    ] as number | undefined;
    const r = await inspector(
      'modern',
      API_KEY,
      '--method',
      'tools/call',
      '--tool-name',
      'calendar_quick_add',
      '--tool-args-json',
      '{"text":"Inspector review tomorrow at 3pm"}',
    );
    expect(r.code, r.err).toBe(0);
    const id = r.out.result.structuredContent.id as string;
    const token = (await e.emu.userToken()).access_token;
    const event = await e.emu.api('GET', `/v2/calendars/primary/events/${id}`, { token });
    expect(event.status).toBe(200);
    expect(event.json.summary).toContain('Inspector review');
    const after = (await e.emu.api('GET', '/_sandbox/stats')).json.requests[
      'POST /v2/calendars/primary/events/quickAdd'
    ] as number;
    expect(after - (before ?? 0)).toBe(1);
  });

  it('reads the monitor resource and exits 5 on a tool error', async () => {
    const read = await inspector(
      'auto',
      API_KEY,
      '--method',
      'resources/read',
      '--uri',
      `${e.base}/api/video/monitor`,
    );
    expect(read.code, read.err).toBe(0);
    expect(JSON.parse(read.out.result.contents[0].text).link.status).toBe('linked');
    const bad = await inspector(
      'modern',
      API_KEY,
      '--method',
      'tools/call',
      '--tool-name',
      'meetings_get_meeting',
      '--tool-args-json',
      '{"video_id":"1"}',
    );
    expect(bad.code).toBe(5);
  });

  it('is refused without the key or with a wrong one', async () => {
    for (const key of [null, 'wrong-key']) {
      const r = await inspector('modern', key, '--method', 'tools/list');
      // 3: the CLI's "auth required", from the 401 and its Bearer challenge.
      expect(r.code, `${String(key)}: ${r.err}`).toBe(3);
      expect(r.err).toContain('auth_required');
    }
  });
});
