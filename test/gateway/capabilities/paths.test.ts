/**
 * The named capability paths over real HTTP (the operations behind them have their own tests):
 * each answers with real emulator data, validates input, and needs the API key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type GatewayEnv } from '../helpers.js';

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
  await e.link();
});
afterAll(() => e.close());

describe('named paths', () => {
  it.each([
    '/api/video/recordings',
    '/api/video/contacts',
    '/api/video/clips',
    '/api/video/phone/call-logs',
    '/api/video/phone/voicemails',
    '/api/video/phone/recordings',
    '/api/video/calendar/events',
    '/api/video/calendar/calendars',
    '/api/video/ra/deals',
    '/api/video/ra/conversations',
    '/api/video/events-hub',
  ])('GET %s lists items with a cursor envelope', async (p) => {
    const r = await e.api('GET', p);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(Array.isArray(r.json.items)).toBe(true);
    expect('nextCursor' in r.json).toBe(true);
    expect((await e.api('GET', p, { key: null })).status).toBe(401);
    expect((await e.api('GET', `${p}?limit=100000`)).json.error.code).toBe('validation_failed');
  });

  it('answers AI ask and agentic search with sources and how they were found', async () => {
    const ask = await e.api('POST', '/api/video/ai/ask', {
      body: { question: 'What did we decide about freight lanes?' },
    });
    expect(ask.status).toBe(200);
    expect(ask.json).toMatchObject({ answer: expect.any(String), via: 'hosted_mcp' });
    expect(Array.isArray(ask.json.sources)).toBe(true);
    const search = await e.api('GET', '/api/video/ai/search?q=freight');
    expect(search.status).toBe(200);
    expect(search.json.via).toBe('hosted_mcp');
    expect((await e.api('GET', '/api/video/ai/search')).status).toBe(400);
  });

  // The seeded 1:1 chat with Jordan has three messages five days back.
  const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000).toISOString().slice(0, 10);
  const someItems = { items: expect.arrayContaining([expect.any(Object)]), nextCursor: null };
  it.each([
    ['email', 'profile', {}, { email: 'avery.quinn@meridianfleet.example', status: 'active' }],
    ['email', 'list_messages', { limit: 3 }, { items: [{}, {}, {}], nextCursor: expect.any(String) }],
    [
      'chat',
      'read_message',
      { channel_id: undefined, contact: 'jordan.reyes@meridianfleet.example', date: fiveDaysAgo },
      { items: expect.arrayContaining([expect.objectContaining({ message: 'Sent an invite.' })]) },
    ],
    ['hub', 'read_content', {}, someItems],
    ['marketplace', 'app', {}, { app_id: 'sandbox-client', app_type: 'OAuthApp' }],
    ['video_events', 'list_events', {}, someItems],
  ])('invokes %s/%s through the registry', async (group, name, body, result) => {
    const r = await e.api('POST', `/api/video/capabilities/${group}/${name}`, { body });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.result).toMatchObject(result);
  });

  it('lists every capability as available except those without a public API', async () => {
    const items = (await e.api('GET', '/api/video/capabilities')).json.items as {
      name: string;
      group: string;
      available: boolean;
      availability: string;
    }[];
    const unavailable = items.filter((i) => !i.available).map((i) => `${i.group}/${i.name}`);
    expect(unavailable.sort()).toEqual(['ai/knowledge_graph', 'clips/analytics', 'clips/chapters']);
  });

  it('serves one recording, its files and its transcript text', async () => {
    const list = (await e.api('GET', '/api/video/recordings')).json.items;
    expect(list.length).toBeGreaterThan(0);
    const id = list[0].video_id;
    expect((await e.api('GET', `/api/video/recordings/${id}`)).json.files.length).toBeGreaterThan(0);
    expect((await e.api('GET', `/api/video/recordings/${id}/files`)).json.items.length).toBeGreaterThan(0);
    const t = (await e.api('GET', `/api/video/recordings/${id}/transcript`)).json;
    expect(t.text.length).toBeGreaterThan(20);
  });
});
