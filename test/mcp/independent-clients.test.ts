/**
 * The brand MCP endpoint driven by clients we did not write: the MCP Inspector CLI (SDK v2,
 * both protocol eras) and the Vercel AI SDK's own MCP client (@ai-sdk/mcp).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createMCPClient } from '@ai-sdk/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

const run = promisify(execFile);
const INSPECTOR = path.join(
  REPO,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const TOOLS = [
  'get_brand_manifest',
  'get_brand_tokens',
  'list_brand_themes',
  'get_brand_theme',
  'list_brand_assets',
  'list_fleet_docs',
  'get_fonts',
];

let t: TestApp;
let url: string;
beforeAll(async () => {
  t = await buildTestApp();
  url = `${await listen(t)}/mcp`;
});
afterAll(() => t.close());

async function inspector(
  era: 'modern' | 'legacy' | 'auto',
  ...args: string[]
): Promise<{ code: number; out: any; err: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [INSPECTOR, '--cli', url, '--transport', 'http', '--protocol-era', era, ...args, '--format', 'json'],
      {
        timeout: 60_000,
      },
    );
    return { code: 0, out: JSON.parse(stdout), err: stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof err.code === 'number' ? err.code : -1,
      out: err.stdout ? JSON.parse(err.stdout || 'null') : null,
      err: err.stderr ?? '',
    };
  }
}

describe('MCP Inspector CLI', () => {
  it('lists the tools over the 2026-07-28 protocol (server/discover, no handshake)', async () => {
    const r = await inspector('modern', '--method', 'tools/list');
    expect(r.code, r.err).toBe(0);
    expect(r.out.result.tools.map((x: { name: string }) => x.name)).toEqual(TOOLS);
  });

  it('calls a tool over the modern protocol and gets structured content', async () => {
    const r = await inspector(
      'modern',
      '--method',
      'tools/call',
      '--tool-name',
      'get_brand_tokens',
      '--tool-args-json',
      '{"group":"radius","format":"json"}',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out.result.structuredContent.tokens.radius.md.$value).toEqual({ value: 8, unit: 'px' });
  });

  it('calls a tool over the 2025-11-25 handshake era', async () => {
    const r = await inspector(
      'legacy',
      '--method',
      'tools/call',
      '--tool-name',
      'get_brand_theme',
      '--tool-arg',
      'key=capital',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out.result.structuredContent).toMatchObject({ key: 'capital', color: '#047857' });
  });

  it('reads a resource and reports a tool error with its exit code', async () => {
    const read = await inspector(
      'auto',
      '--method',
      'resources/read',
      '--uri',
      'http://brand.test:8080/llms.txt',
    );
    expect(read.code, read.err).toBe(0);
    expect(read.out.result.contents[0].mimeType).toBe('text/plain');
    const bad = await inspector(
      'modern',
      '--method',
      'tools/call',
      '--tool-name',
      'get_brand_theme',
      '--tool-arg',
      'key=nope',
    );
    expect(bad.code).toBe(5);
  });
});

describe('Vercel AI SDK MCP client (@ai-sdk/mcp)', () => {
  it.each([
    ['2026-07-28 discovery', true],
    ['2025-11-25 handshake', false],
  ])('lists and calls tools and reads resources (%s)', async (_era, discovery) => {
    const client = await createMCPClient({
      transport: { type: 'http', url },
      protocolVersionDiscovery: discovery,
    });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(TOOLS);
      const res = await client.callTool({ name: 'get_brand_theme', arguments: { key: 'learning' } });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent).toMatchObject({ key: 'learning', tagline: 'Skills that pay this year.' });
      const docs = await client.callTool({ name: 'list_fleet_docs', arguments: { group: 'onboarding' } });
      expect((docs.structuredContent as { count: number }).count).toBe(4);
      const llms = await client.readResource({ uri: 'http://brand.test:8080/llms.txt' });
      expect(JSON.stringify(llms.contents)).toContain('Meridian Fleet Brand API');
    } finally {
      await client.close();
    }
  });
});
