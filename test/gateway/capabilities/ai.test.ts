/**
 * ai through the gateway's operations against the emulator: the hosted MCP client on the
 * emulator's /mcp, and the REST fallback when that server is not configured, failing or slow.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { aiOps } from '../../../src/gateway/capabilities/ops/ai.js';
import type { Operation, OpContext } from '../../../src/gateway/capabilities/operation.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { HostedMcpClient } from '../../../src/gateway/platform/hosted-mcp-client.js';
import { AppError } from '../../../src/http/errors.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();
let client: HostedMcpClient;
let up: OpContext;
let down: OpContext;

const mcpClient = (url: string | undefined, timeoutMs = 5000) =>
  new HostedMcpClient({ url, tokens: e.gateway.tokens, fetch, timeoutMs });

beforeAll(() => {
  client = mcpClient(`${e.emu.base}/mcp`);
  up = { ...e.ctx, hostedMcp: client };
  down = { ...e.ctx, hostedMcp: mcpClient(undefined) };
});
afterEach(async () => {
  await e.emu.api('DELETE', '/_sandbox/faults');
});

/** Runs an operation and holds its answer to its declared output. */
const run = async (ctx: OpContext, name: string, input: unknown): Promise<any> => {
  const op = aiOps.find((o) => o.name === name) as unknown as Operation;
  const r = await op.run(ctx, parseInput(op.input, input));
  expectOutput('ai', name, r);
  return r;
};

const failure = async (p: Promise<unknown>): Promise<AppError> => {
  const err: unknown = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

/** A fetch stand-in answering each POST from its parsed init. */
const asFetch = (answer: (init: RequestInit) => Response) =>
  ((_url: unknown, init: RequestInit) => Promise.resolve(answer(init))) as unknown as typeof fetch;

const requests = async (): Promise<Record<string, number>> =>
  (await e.emu.api('GET', '/_sandbox/stats')).json.requests;
const summaryCalls = (r: Record<string, number>) =>
  Object.entries(r)
    .filter(([k]) => /^GET \/v2\/meetings\/[^/]+\/meeting_summary$/.test(k))
    .reduce((n, [, v]) => n + v, 0);

describe('hosted MCP client', () => {
  it('calls the emulator tools with the link token, and keeps the session', async () => {
    const s = await client.callTool('search_meetings', { q: 'Memphis backhaul', page_size: 3 });
    expect((s.structured as any).meetings[0].topic).toBe('Freight lane planning');
    expect(JSON.parse(s.text)).toEqual(s.structured);
    const before = (await requests())['POST /mcp'] ?? 0;
    const a = await client.callTool('ask', { question: 'Who is fixing the DEF sensor fault on truck 214?' });
    expect((a.structured as any).answer).toMatch(/Morgan Kim/);
    // The kept session: no second handshake, one POST for the call.
    expect((await requests())['POST /mcp']).toBe(before + 1);
  });

  it('reports a tool error as hosted_mcp_tool_error (400), not as unavailable', async () => {
    const err = await failure(client.callTool('search_meetings', { next_page_token: 'forged' }));
    expect(err).toMatchObject({ status: 400, code: 'hosted_mcp_tool_error' });
    expect(err.message).toBe('The next page token is invalid or expired.');
  });

  it('is unavailable (503) when not configured, failing or slow', async () => {
    expect(await failure(mcpClient(undefined).callTool('ask', { question: 'x' }))).toMatchObject({
      status: 503,
      code: 'hosted_mcp_unavailable',
      details: { reason: 'not_configured' },
    });
    await e.emu.api('POST', '/_sandbox/faults', { body: { path: '/mcp', status: 503, times: 5 } });
    expect(await failure(mcpClient(`${e.emu.base}/mcp`).callTool('ask', { question: 'x' }))).toMatchObject({
      status: 503,
      code: 'hosted_mcp_unavailable',
      details: { reason: 'http_status', status: 503 },
    });
    await e.emu.api('DELETE', '/_sandbox/faults');
    await e.emu.api('POST', '/_sandbox/faults', { body: { path: '/mcp', delayMs: 1000, times: 1 } });
    expect(
      await failure(mcpClient(`${e.emu.base}/mcp`, 150).callTool('ask', { question: 'x' })),
    ).toMatchObject({ code: 'hosted_mcp_unavailable', details: { reason: 'timeout' } });
    expect(
      await failure(mcpClient('http://127.0.0.1:9/mcp').callTool('ask', { question: 'x' })),
    ).toMatchObject({ code: 'hosted_mcp_unavailable', details: { reason: 'network' } });
  });

  it('reads SSE answers, sends the session id, and starts a new session after a 404', async () => {
    const seen: { method: string; session: string | null; version: string | null; accept: string | null }[] =
      [];
    let sessions = 0;
    let expireNext = false;
    const fake = asFetch((init) => {
      const h = new Headers(init.headers);
      const msg = JSON.parse(init.body as string);
      seen.push({
        method: msg.method,
        session: h.get('mcp-session-id'),
        version: h.get('mcp-protocol-version'),
        accept: h.get('accept'),
      });
      if (msg.method === 'initialize') {
        sessions += 1;
        return Response.json(
          { jsonrpc: '2.0', id: msg.id, result: { protocolVersion: '2025-11-25', capabilities: {} } },
          { headers: { 'mcp-session-id': `s${sessions}` } },
        );
      }
      if (msg.method === 'notifications/initialized') return new Response(null, { status: 202 });
      if (expireNext) {
        expireNext = false;
        return new Response('', { status: 404 });
      }
      const events = [
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} })}\n\n`,
        `event: message\ndata: ${JSON.stringify({
          jsonrpc: '2.0',
          id: msg.id,
          result: { content: [{ type: 'text', text: '{"answer":"42"}' }] },
        })}\n\n`,
      ];
      return new Response(events.join(''), { headers: { 'content-type': 'text/event-stream' } });
    });
    const c = new HostedMcpClient({
      url: 'http://mcp.test/mcp',
      tokens: e.gateway.tokens,
      fetch: fake,
      timeoutMs: 1000,
    });
    expect(await c.callTool('ask', { question: 'x' })).toEqual({
      structured: { answer: '42' },
      text: '{"answer":"42"}',
    });
    expireNext = true;
    await c.callTool('ask', { question: 'y' });
    expect(seen.map((s) => `${s.method}@${s.session ?? '-'}`)).toEqual([
      'initialize@-',
      'notifications/initialized@s1',
      'tools/call@s1',
      'tools/call@s1',
      'initialize@-',
      'notifications/initialized@s2',
      'tools/call@s2',
    ]);
    expect(seen.every((s) => s.accept === 'application/json, text/event-stream')).toBe(true);
    expect(seen.filter((s) => s.method !== 'initialize').every((s) => s.version === '2025-11-25')).toBe(true);
  });

  it('treats a JSON-RPC error as unavailable', async () => {
    const fake = asFetch((init) => {
      const msg = JSON.parse(init.body as string);
      return Response.json({ jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: 'boom' } });
    });
    const c = new HostedMcpClient({
      url: 'http://mcp.test/mcp',
      tokens: e.gateway.tokens,
      fetch: fake,
      timeoutMs: 1000,
    });
    expect(await failure(c.callTool('ask', { question: 'x' }))).toMatchObject({
      code: 'hosted_mcp_unavailable',
      details: { reason: 'rpc_error', rpcCode: -32603, method: 'initialize' },
    });
  });
});

describe('ai_companion_ask', () => {
  it('every operation declares its output', () => {
    for (const o of aiOps) expect(o.output, o.name).toBeDefined();
  });

  it('answers through the hosted ask tool, citing meetings', async () => {
    const r = await run(up, 'ai_companion_ask', {
      question: 'What did we decide about the Memphis backhaul contract?',
    });
    expect(r.via).toBe('hosted_mcp');
    expect(r.note).toBeNull();
    expect(r.answer).toMatch(/backhaul/i);
    expect(r.sources[0]).toEqual({
      video_id: expect.stringMatching(/^\d+$/),
      topic: 'Freight lane planning',
      start_time: expect.any(String),
    });
    expect(new Set(r.sources.map((s: { video_id: string }) => s.video_id)).size).toBe(r.sources.length);
  });

  it('falls back to meeting summaries over REST when the hosted server is not configured', async () => {
    const before = summaryCalls(await requests());
    const r = await run(down, 'ai_companion_ask', {
      question: 'What was decided in the freight lane planning meetings?',
    });
    expect(summaryCalls(await requests()) - before).toBeGreaterThan(0);
    expect(summaryCalls(await requests()) - before).toBeLessThanOrEqual(5);
    expect(r.via).toBe('fallback_retrieval');
    expect(r.note).toMatch(/hosted MCP server was unavailable \(not configured\)/);
    expect(r.sources.length).toBeGreaterThan(0);
    expect(r.sources.every((s: { topic: string }) => s.topic === 'Freight lane planning')).toBe(true);
    expect(r.answer).toContain('[1]');
    expect(r.answer).toMatch(/Freight lane planning/);
    // Each source is a real past meeting of the emulator.
    const m = await e.emu.api('GET', `/v2/meetings/${r.sources[0].video_id}`, {
      token: (await e.gateway.tokens.current()).value,
    });
    expect(m.json.topic).toBe('Freight lane planning');
  });

  it('falls back when the hosted /mcp fails', async () => {
    await e.emu.api('POST', '/_sandbox/faults', { body: { path: '/mcp', status: 503, times: 5 } });
    const r = await run(up, 'ai_companion_ask', {
      question: 'What are the next steps from the freight lane planning?',
    });
    expect(r.via).toBe('fallback_retrieval');
    expect(r.note).toMatch(/\(HTTP 503\)/);
    expect(r.answer).toMatch(/Next step:/);
    await e.emu.api('DELETE', '/_sandbox/faults');
    expect((await run(up, 'ai_companion_ask', { question: 'How is occupancy at Riverside?' })).via).toBe(
      'hosted_mcp',
    );
  });

  it('says so when nothing is found, skips missing summaries, and validates the question', async () => {
    const none = await run(down, 'ai_companion_ask', { question: 'xylophone quantum entanglement' });
    expect(none).toMatchObject({ via: 'fallback_retrieval', sources: [] });
    expect(none.answer).toMatch(/could not find anything/);
    // Without summaries (404), the meetings whose topic matched are still named.
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/meetings/*', status: 404, times: 10 },
    });
    const agendas = await run(down, 'ai_companion_ask', { question: 'Anything on freight lane planning?' });
    expect(agendas.sources[0].topic).toBe('Freight lane planning');
    expect(agendas.answer).toMatch(/On the agenda: /);
    for (const question of ['hi', 'x'.repeat(2001), undefined]) {
      expect(await failure(run(up, 'ai_companion_ask', { question }))).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });
    }
  });
});

describe('ai_companion_search and agentic_search', () => {
  it('search through the hosted search_meetings tool with snippets and paging', async () => {
    const r = await run(up, 'agentic_search', { q: 'FleetWorks truck 214', limit: 3 });
    expect(r.via).toBe('hosted_mcp');
    expect(r.items[0]).toMatchObject({
      topic: 'FleetWorks maintenance review',
      video_id: expect.any(String),
    });
    expect(r.items[0].snippets.some((s: string) => /214/.test(s))).toBe(true);
    expect(r.items[0].snippets.some((s: string) => /^[A-Z][\w .'-]+ \(\d{2}:\d{2}:\d{2}\): /.test(s))).toBe(
      true,
    );

    const first = await run(up, 'ai_companion_search', { q: 'freight', limit: '1' });
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run(up, 'ai_companion_search', { q: 'freight', limit: 1, cursor: first.nextCursor });
    expect(second.via).toBe('hosted_mcp');
    expect(second.items[0].video_id).not.toBe(first.items[0].video_id);
    // A hosted cursor cannot be continued once the hosted server is gone.
    expect(
      await failure(run(down, 'ai_companion_search', { q: 'freight', limit: 1, cursor: first.nextCursor })),
    ).toMatchObject({ status: 503, code: 'hosted_mcp_unavailable' });
    // A forged cursor is the tool's error.
    expect(await failure(run(up, 'agentic_search', { q: 'freight', cursor: 'forged' }))).toMatchObject({
      status: 400,
      code: 'hosted_mcp_tool_error',
    });
  });

  it('falls back to a keyword filter over the meeting list, paged by its own cursor', async () => {
    const first = await run(down, 'ai_companion_search', { q: 'freight lanes', limit: 2 });
    expect(first.via).toBe('fallback_retrieval');
    expect(first.note).toMatch(/not configured.*topics and agendas/);
    expect(first.items).toHaveLength(2);
    for (const i of first.items) {
      expect(i.topic).toBe('Freight lane planning');
      expect(i.snippets).toContain('Freight lane planning');
    }
    expect(first.nextCursor).toMatch(/^fb1\./);
    // The fallback's cursor stays with the fallback, even once the hosted server is back.
    const second = await run(up, 'ai_companion_search', {
      q: 'freight lanes',
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(second.via).toBe('fallback_retrieval');
    const ids = [...first.items, ...second.items].map((i: { video_id: string }) => i.video_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      await failure(run(down, 'ai_companion_search', { q: 'budget', cursor: first.nextCursor })),
    ).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('falls back when the hosted /mcp fails, honouring from/to', async () => {
    await e.emu.api('POST', '/_sandbox/faults', { body: { path: '/mcp', status: 503, times: 5 } });
    const today = new Date().toISOString().slice(0, 10);
    const r = await run(up, 'agentic_search', { q: 'freight', from: today, limit: 50 });
    expect(r.via).toBe('fallback_retrieval');
    expect(r.items.length).toBeGreaterThan(0);
    for (const i of r.items) expect(i.start_time.slice(0, 10) >= today).toBe(true);
  });

  it('falls back when the hosted /mcp is too slow', async () => {
    await e.emu.api('POST', '/_sandbox/faults', { body: { path: '/mcp', delayMs: 1000, times: 1 } });
    const slow = { ...up, hostedMcp: mcpClient(`${e.emu.base}/mcp`, 150) };
    const r = await run(slow, 'agentic_search', { q: 'freight' });
    expect(r.via).toBe('fallback_retrieval');
    expect(r.note).toMatch(/no answer in time/);
  });

  it('maps a platform error of the fallback, and validates input', async () => {
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/users/me/meetings', status: 404, times: 1 },
    });
    expect(await failure(run(down, 'agentic_search', { q: 'freight' }))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    const issues = async (input: unknown) =>
      (await failure(run(up, 'agentic_search', input))).details?.['issues'] as { path: string }[];
    expect((await issues({ q: '', limit: 0 })).map((i) => i.path).sort()).toEqual(['limit', 'q']);
    expect((await issues({ q: 'x'.repeat(201) })).map((i) => i.path)).toEqual(['q']);
    expect((await issues({ q: 'x', from: 'last tuesday' })).map((i) => i.path)).toEqual(['from']);
    expect((await issues({ q: 'x', from: '2026-05-02', to: '2026-05-01' })).map((i) => i.path)).toEqual([
      'to',
    ]);
    expect((await issues({ q: 'x', limit: 51 })).map((i) => i.path)).toEqual(['limit']);
  });
});
