/**
 * The brand MCP endpoint driven by the official SDK v1 client (2025-11-25 handshake era),
 * which also validates every structuredContent against the tool's outputSchema.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

const TOOLS = [
  'get_brand_manifest',
  'get_brand_tokens',
  'list_brand_themes',
  'get_brand_theme',
  'list_brand_assets',
  'list_fleet_docs',
  'get_fonts',
];
const KEYS = [
  'mog',
  'growthos',
  'contracting',
  'capital',
  'mortgage',
  'housing',
  'freight',
  'fleetworks',
  'earlylearning',
  'learning',
];

let t: TestApp;
let client: Client;
let transport: StreamableHTTPClientTransport;
beforeAll(async () => {
  t = await buildTestApp();
  const base = await listen(t);
  client = new Client({ name: 'fleetgate-test', version: '1.0.0' });
  transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const structured = async (name: string, args: Record<string, unknown> = {}) => {
  const res = await client.callTool({ name, arguments: args });
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  const text = (res.content as { type: string; text: string }[])[0];
  expect(text?.type).toBe('text');
  expect(JSON.parse(text?.text ?? 'null')).toEqual(res.structuredContent);
  return res.structuredContent as any;
};

describe('MCP with the official SDK client (2025-11-25)', () => {
  it('negotiates 2025-11-25 statelessly and gets instructions', () => {
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeUndefined();
    expect(client.getServerVersion()?.name).toBe('fleetgate-brand');
    expect(client.getInstructions()).toContain('Which tool when');
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it('lists exactly the seven tools, each fully described and read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/^\S(.*\S)?$/);
      expect(tool.description?.length ?? 0).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    }
    const theme = tools.find((t) => t.name === 'get_brand_theme');
    expect((theme?.inputSchema.properties as any).key.enum).toEqual(KEYS);
  });

  it('calls every tool, with results equal to the REST API', async () => {
    const rest = async (p: string) => (await t.app.inject(p)).json();
    expect(await structured('get_brand_manifest')).toEqual(await rest('/api/brand'));
    expect((await structured('get_brand_tokens')).tokens).toEqual(await rest('/api/brand/tokens'));
    const themes = await structured('list_brand_themes');
    expect(themes['themes']).toHaveLength(16);
    expect(await structured('get_brand_theme', { key: 'freight' })).toEqual(
      await rest('/api/brand/themes/freight'),
    );
    expect((await structured('list_brand_assets')).items).toEqual((await rest('/api/brand/assets')).items);
    expect((await structured('list_fleet_docs')).groups).toEqual((await rest('/api/brand/docs')).groups);
    const fonts = await structured('get_fonts');
    expect(fonts['stacks']).toEqual((await rest('/api/brand/fonts')).stacks);
  });

  it('honours the optional filters', async () => {
    const css = await structured('get_brand_tokens', { group: 'spacing', format: 'css' });
    expect(css['css']).toContain('--spacing-4: 1rem;');
    expect(css['css']).not.toContain('--colors-');
    const colors = await structured('get_brand_tokens', { group: 'colors' });
    expect(Object.keys(colors['tokens'])).toEqual(['$schema', 'colors', '$extensions']);
    expect((await structured('list_brand_themes', { kind: 'funnel' })).themes.map((x: any) => x.key)).toEqual(
      KEYS,
    );
    const social = await structured('list_brand_assets', { group: 'social', theme: 'freight' });
    expect(social['count']).toBe(1);
    expect(social['items'][0].url).toBe(`${BASE}/static/fleet/assets/social/og-freight.png`);
    expect((await structured('list_fleet_docs', { group: 'sales' })).count).toBe(5);
    expect(Object.keys((await structured('get_fonts', { stack: 'mono' })).stacks)).toEqual(['mono']);
  });

  it('answers a bad theme key with a tool error that names the allowed keys', async () => {
    const res = await client.callTool({ name: 'get_brand_theme', arguments: { key: 'webinar' } });
    expect(res.isError).toBe(true);
    const text = (res.content as { text: string }[])[0]?.text ?? '';
    for (const k of KEYS) expect(text).toContain(k);
  });

  it('rejects unknown tools with -32602 and unknown methods with -32601', async () => {
    await expect(client.callTool({ name: 'get_logo', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(
      client.request({ method: 'prompts/get', params: { name: 'x' } }, z.object({})),
    ).rejects.toMatchObject({ code: -32601 });
  });

  it('serves the brand as resources with the right MIME types', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        `${BASE}/api/brand`,
        `${BASE}/api/brand/tokens`,
        `${BASE}/api/brand/tokens.css`,
        `${BASE}/llms.txt`,
      ]),
    );
    expect(resources.filter((r) => r.uri.startsWith(`${BASE}/api/brand/themes/`))).toHaveLength(10);
    expect(resources.filter((r) => r.mimeType === 'text/markdown')).toHaveLength(27);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      `${BASE}/api/brand/themes/{key}`,
      `${BASE}/static/fleet/docs/{slug}.md`,
    ]);
    const css = await client.readResource({ uri: `${BASE}/api/brand/tokens.css` });
    expect(css.contents[0]).toMatchObject({ mimeType: 'text/css' });
    const theme = await client.readResource({ uri: `${BASE}/api/brand/themes/housing` });
    expect(JSON.parse((theme.contents[0] as { text: string }).text).key).toBe('housing');
    const doc = await client.readResource({ uri: `${BASE}/static/fleet/docs/voice-and-tone.md` });
    expect(doc.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((doc.contents[0] as { text: string }).text).toContain('# Voice and tone');
    const llms = await client.readResource({ uri: `${BASE}/llms.txt` });
    expect((llms.contents[0] as { text: string }).text.startsWith('# ')).toBe(true);
  });
});
