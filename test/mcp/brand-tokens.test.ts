/**
 * get_brand_tokens with format and theme over the MCP endpoint (the official SDK client on a
 * real socket): each answer is the REST route's output (json structured, the rest as text), the
 * endpoint keeps its seven tools, cached answers stay per argument, and bad arguments are tool
 * errors that name what is allowed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THEME_KEYS } from '../../src/brand/schema.js';
import { TOKEN_FORMATS } from '../../src/brand/token-formats.js';
import { BASE, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { listen } from '../helpers/listen.js';

let t: TestApp;
let base: string;
let client: Client;
beforeAll(async () => {
  t = await buildTestApp();
  base = await listen(t);
  client = new Client({ name: 'fleetgate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
});
afterAll(async () => {
  await client.close();
  await t.close();
});

type Result = {
  format: string;
  group: string | null;
  theme: string | null;
  tokens?: Record<string, any>;
  css?: string;
  text?: string;
  url: string;
};
const call = async (args: Record<string, unknown>): Promise<Result> => {
  const res = await client.callTool({ name: 'get_brand_tokens', arguments: args });
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  const text = (res.content as { type: string; text: string }[])[0]?.text ?? 'null';
  expect(JSON.parse(text)).toEqual(res.structuredContent);
  return res.structuredContent as Result;
};
const toolError = async (args: Record<string, unknown>): Promise<string> => {
  const res = await client.callTool({ name: 'get_brand_tokens', arguments: args });
  expect(res.isError, JSON.stringify(args)).toBe(true);
  return (res.content as { text: string }[])[0]?.text ?? '';
};
const rest = async (p: string) => {
  const res = await fetch(`${base}${p}`);
  expect(res.status, p).toBe(200);
  return res.text();
};

describe('get_brand_tokens with format and theme', () => {
  it('keeps the seven tools and lists every format and theme in its input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(7);
    const tool = tools.find((x) => x.name === 'get_brand_tokens');
    const props = tool?.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(props['format']?.enum).toEqual([...TOKEN_FORMATS]);
    expect(props['theme']?.enum).toEqual([...THEME_KEYS]);
    expect(tool?.inputSchema.required ?? []).toEqual([]);
  });

  it('answers every format, with and without a theme, with the REST output', async () => {
    for (const theme of [undefined, 'freight'] as const) {
      for (const format of TOKEN_FORMATS) {
        const q = `?format=${format}${theme ? `&theme=${theme}` : ''}`;
        const r = await call({ format, ...(theme ? { theme } : {}) });
        const where = `${format} ${theme ?? ''}`;
        expect(r.format, where).toBe(format);
        expect(r.theme, where).toBe(theme ?? null);
        expect(r.url, where).toBe(`${BASE}/api/brand/tokens${q}`);
        const body = await rest(`/api/brand/tokens${q}`);
        if (format === 'json') expect(r.tokens, where).toEqual(JSON.parse(body));
        else if (format === 'css') expect(r.css, where).toBe(body);
        else expect(r.text, where).toBe(body);
      }
    }
  });

  it("applies the theme's colours, also to one group of json and css", async () => {
    const th = JSON.parse(await rest('/api/brand/themes/capital')) as { color: string; color2: string };
    const colors = await call({ theme: 'capital', group: 'colors' });
    expect(Object.keys(colors.tokens ?? {})).toEqual(['$schema', 'colors', '$extensions']);
    expect(colors.tokens?.['colors'].brand.primary.$value.hex).toBe(th.color);
    expect(colors.tokens?.['colors'].brand.accent.$value.hex).toBe(th.color2);
    expect(colors.tokens?.['$extensions']['org.fleetgate.theme'].key).toBe('capital');
    expect(colors.tokens?.['$extensions']['org.fleetgate.modes'].dark.colors.brand).toBeUndefined();
    const css = await call({ theme: 'capital', format: 'css', group: 'colors' });
    expect(css.css).toContain(`--colors-brand-primary: ${th.color};`);
    expect(css.css).not.toContain('--spacing-');
    const scss = await call({ theme: 'capital', format: 'scss' });
    expect(scss.text).toContain(`$colors-brand-accent: ${th.color2};`);
  });

  it('keeps cached answers per argument', async () => {
    const a = await call({ format: 'tailwind', theme: 'mog' });
    const b = await call({ format: 'tailwind', theme: 'growthos' });
    const a2 = await call({ format: 'tailwind', theme: 'mog' });
    expect(a2).toEqual(a);
    expect(b.text).not.toBe(a.text);
    expect((await call({ format: 'tailwind' })).text).toBe(await rest('/api/brand/tokens?format=tailwind'));
  });

  it('answers bad arguments with tool errors that say what is allowed', async () => {
    const theme = await toolError({ theme: 'webinar' });
    for (const k of THEME_KEYS) expect(theme).toContain(k);
    const format = await toolError({ format: 'yaml' });
    for (const f of TOKEN_FORMATS) expect(format).toContain(f);
    expect(await toolError({ format: 'scss', group: 'colors' })).toContain(
      'group applies to the json and css formats only',
    );
    await toolError({ format: 'css', extra: true });
  });
});
