/**
 * The hosted-MCP stand-in: the pure search/ask logic over the seeded slices, then the HTTP edge
 * (bearer token required) driven by the official SDK client.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorModule } from '../src/context.js';
import { EMULATOR_DEFAULTS } from '../src/options.js';
import {
  askMeetings,
  McpToolError,
  meetingDocs,
  searchMeetings,
  terms,
  type MeetingDoc,
} from '../src/routes/hosted-mcp.js';
import { meetingsModule, type MeetingsSlice } from '../src/routes/meetings.js';
import { recordingsModule, recordingFiles, type RecordingsSlice } from '../src/routes/recordings.js';
import { usersModule } from '../src/routes/users.js';
import { seedAll, type Emulator } from '../src/server.js';
import { startTestEmulator } from './helpers/emulator.js';

const MODULES = [usersModule, meetingsModule, recordingsModule] as EmulatorModule[];
const now = new Date();
const today = now.toISOString().slice(0, 10);
const slices = seedAll(MODULES, EMULATOR_DEFAULTS.seed, today);
const meetings = (slices['meetings'] as MeetingsSlice).meetings;
const recordings = slices['recordings'] as RecordingsSlice;
const docs: MeetingDoc[] = meetingDocs(meetings, recordings, now);
const opts = { now, secret: 'test-secret' };

describe('search_meetings (pure)', () => {
  it('finds meetings by what was said, best match first, with snippets', () => {
    const r = searchMeetings(docs, { q: 'Memphis backhaul' }, opts);
    expect(r.total_records).toBeGreaterThan(0);
    const [top] = r.meetings;
    expect(top?.topic).toBe('Freight lane planning');
    expect(top?.has_transcript).toBe(true);
    expect(
      top?.matches.some(
        (m) =>
          m.source === 'transcript' &&
          /Memphis/.test(m.snippet) &&
          m.speaker &&
          /^\d{2}:\d{2}:\d{2}$/.test(m.time ?? ''),
      ),
    ).toBe(true);
    expect(top?.matches.some((m) => m.source === 'summary' && /Memphis/.test(m.snippet))).toBe(true);
    // Upcoming meetings match on topic and agenda only.
    const upcoming = searchMeetings(docs, { q: 'freight', from: today }, opts);
    expect(upcoming.meetings.length).toBeGreaterThan(0);
    for (const m of upcoming.meetings) {
      expect(m.has_transcript).toBe(false);
      expect(m.matches.every((x) => x.source === 'topic' || x.source === 'agenda')).toBe(true);
    }
  });

  it('lists every meeting newest first without q, 50 per page by default, clamped to 300', () => {
    const all = searchMeetings(docs, {}, opts);
    expect(all.total_records).toBe(meetings.length);
    expect(all.page_size).toBe(50);
    expect(all.next_page_token).toBe('');
    const starts = all.meetings.map((m) => m.start_time);
    expect([...starts].sort().reverse()).toEqual(starts);
    expect(searchMeetings(docs, { page_size: 5000 }, opts).page_size).toBe(300);
  });

  it('pages with tokens bound to the query that expire after 15 minutes', () => {
    const first = searchMeetings(docs, { page_size: 10 }, opts);
    expect(first.next_page_token).not.toBe('');
    const second = searchMeetings(docs, { page_size: 10, next_page_token: first.next_page_token }, opts);
    expect(second.meetings[0]?.id).not.toBe(first.meetings[0]?.id);
    expect((second.meetings[0]?.start_time ?? '') <= (first.meetings[9]?.start_time ?? '')).toBe(true);
    const bad =
      (args: object, o = opts) =>
      () =>
        searchMeetings(docs, { page_size: 10, ...args }, o);
    expect(bad({ next_page_token: 'forged' })).toThrow(
      new McpToolError('The next page token is invalid or expired.'),
    );
    // Tamper with the signature's last character (to one it is not: it may already be an x).
    const last = first.next_page_token.slice(-1);
    const tampered = `${first.next_page_token.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`;
    expect(bad({ next_page_token: tampered })).toThrow(McpToolError);
    expect(bad({ q: 'freight', next_page_token: first.next_page_token })).toThrow(McpToolError);
    expect(
      bad(
        { next_page_token: first.next_page_token },
        { ...opts, now: new Date(now.getTime() + 16 * 60_000) },
      ),
    ).toThrow(McpToolError);
  });

  it('filters by from/to and rejects bad dates', () => {
    const from = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
    const r = searchMeetings(docs, { from, to: today }, opts);
    expect(r.total_records).toBeGreaterThan(0);
    for (const m of r.meetings) expect(m.start_time >= from && m.start_time.slice(0, 10) <= today).toBe(true);
    expect(() => searchMeetings(docs, { from: 'last tuesday' }, opts)).toThrow(
      new McpToolError('Invalid parameter: from.'),
    );
  });

  it('stops finding a transcript once it is deleted', () => {
    const freight = meetings.find((m) => m.topic === 'Freight lane planning' && m.status === 'ended')!;
    const transcriptId = recordingFiles(freight, recordings, now).find((f) => f.kind === 'transcript')!.id;
    const without = meetingDocs(meetings, { ...recordings, deletedFiles: [transcriptId] }, now);
    expect(without.find((d) => d.id === freight.id)?.transcript).toBeUndefined();
    expect(docs.find((d) => d.id === freight.id)?.transcript?.length).toBeGreaterThan(3);
  });

  it('normalizes words', () => {
    expect(terms('What did the Loads and Deliveries look like?')).toEqual([
      'load',
      'delivery',
      'look',
      'like',
    ]);
  });
});

describe('ask (pure)', () => {
  it('answers from summaries and transcripts with citations to meeting ids, deterministically', () => {
    const a = askMeetings(docs, 'What did we decide about the Memphis backhaul contract?', opts);
    expect(a.citations.length).toBeGreaterThan(0);
    const freight = a.citations[0]!;
    expect(freight.topic).toBe('Freight lane planning');
    expect(meetings.some((m) => m.id === freight.meeting_id && m.uuid === freight.meeting_uuid)).toBe(true);
    expect(a.answer).toContain('[1]');
    expect(a.answer).toContain(`meeting ${freight.meeting_id}`);
    expect(a.answer).toMatch(/backhaul/i);
    expect(askMeetings(docs, 'What did we decide about the Memphis backhaul contract?', opts)).toEqual(a);
  });

  it('finds action items for a person, within a time window', () => {
    const a = askMeetings(docs, 'What are the action items for Marcus from last week?', opts);
    expect(a.citations.length).toBeGreaterThan(0);
    const weekAgo = now.getTime() - 7 * 86_400_000;
    for (const c of a.citations) {
      expect(Date.parse(c.start_time)).toBeGreaterThanOrEqual(weekAgo);
      expect(c.excerpt).toContain('Marcus');
    }
    expect(a.citations.some((c) => c.source === 'next_steps')).toBe(true);
  });

  it('reads "my" as the caller, and lists a time window when that is all that is asked', () => {
    const mine = askMeetings(docs, 'What are my action items?', { ...opts, me: 'Avery Quinn' });
    expect(mine.citations.length).toBeGreaterThan(0);
    for (const c of mine.citations) expect(c.excerpt).toMatch(/^Avery Quinn to /);
    const soon = askMeetings(docs, 'What is coming up next week?', opts);
    expect(soon.citations.length).toBeGreaterThan(0);
    for (const c of soon.citations) {
      expect(Date.parse(c.start_time)).toBeGreaterThan(now.getTime());
      expect(c.source).toBe('agenda');
    }
  });

  it('says so when nothing matches', () => {
    const a = askMeetings(docs, 'xylophone quantum entanglement', opts);
    expect(a).toEqual({
      answer: 'I could not find anything about that in your meeting summaries, transcripts or agendas.',
      citations: [],
    });
  });
});

describe('POST /mcp (HTTP)', () => {
  let emulator: Emulator;
  let base: string;
  let client: Client;
  let token: string;
  beforeAll(async () => {
    const t = await startTestEmulator({}, MODULES);
    emulator = t.emulator;
    base = t.base;
    // A real emulator access token, through the OAuth flow; the server wires the MCP endpoint itself.
    token = (await t.userToken()).access_token;
    client = new Client({ name: 'hosted-mcp-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  it('lists the two read-only tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_meetings', 'ask']);
    for (const t of tools) expect(t.annotations).toMatchObject({ readOnlyHint: true });
    const search = tools.find((t) => t.name === 'search_meetings')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual([
      'q',
      'from',
      'to',
      'page_size',
      'next_page_token',
    ]);
  });

  it('calls search_meetings and ask over the live slices', async () => {
    const s = await client.callTool({
      name: 'search_meetings',
      arguments: { q: 'FleetWorks truck 214', page_size: 3 },
    });
    expect(s.isError).toBeFalsy();
    const found = s.structuredContent as any;
    expect(found.meetings[0].topic).toBe('FleetWorks maintenance review');
    expect(JSON.parse((s.content as any)[0].text)).toEqual(found);
    const a = await client.callTool({
      name: 'ask',
      arguments: { question: 'Who is fixing the DEF sensor fault on truck 214?' },
    });
    expect((a.structuredContent as any).answer).toMatch(/Morgan Kim/);
    const bad = await client.callTool({ name: 'search_meetings', arguments: { next_page_token: 'forged' } });
    expect(bad.isError).toBe(true);
    expect((bad.content as any)[0].text).toBe('The next page token is invalid or expired.');
  });

  it('answers the 2026-07-28 era without a handshake', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    };
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'ask',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'ask', arguments: { question: 'How is occupancy at Riverside?' }, _meta: meta },
      }),
    });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.result.structuredContent.citations[0].topic).toBe('Housing leasing sync');
  });

  it('requires a bearer token, and only answers POST', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(init),
      });
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await none.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Requires an access token.' },
      id: null,
    });
    const wrong = await post({ authorization: 'Bearer nope' });
    expect(((await wrong.json()) as any).error.message).toBe('Invalid access token.');
    expect((await post({ authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await fetch(`${base}/mcp`)).status).toBe(405);
    // The REST API next to it is untouched.
    expect((await fetch(`${base}/v2/users/me`)).status).toBe(401);
  });
});
