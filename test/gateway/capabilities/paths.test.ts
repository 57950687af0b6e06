/**
 * The named capability paths over real HTTP through the typed client (`fleetgate/client`; the
 * operations behind them have their own tests): each answers with real emulator data, validates
 * input, and needs the API key. Every answer is also held to the document the gateway serves.
 */
import type { FleetgateClient } from 'fleetgate/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ok, refusal, typedGateway } from '../../client/typed-gateway.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();
let api: FleetgateClient;
let anonymous: FleetgateClient;
beforeAll(async () => {
  ({ api, anonymous } = await typedGateway(e));
});

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
  ] as const)('GET %s lists items with a cursor envelope', async (p) => {
    const page = ok(await api.GET(p));
    expect(Array.isArray(page.items)).toBe(true);
    expect(page.nextCursor === null || typeof page.nextCursor === 'string').toBe(true);
    expect(refusal(await anonymous.GET(p), 401)).toBe('unauthorized');
    const tooMany = await api.GET(p, { params: { query: { limit: 100000 } } });
    expect(refusal(tooMany, 400)).toBe('validation_failed');
  });

  it('answers AI ask and agentic search with sources and how they were found', async () => {
    const ask = ok(
      await api.POST('/api/video/ai/ask', { body: { question: 'What did we decide about freight lanes?' } }),
    );
    expect(ask).toMatchObject({ answer: expect.any(String), via: 'hosted_mcp' });
    expect(ask.sources.length).toBeGreaterThan(0);
    const search = ok(await api.GET('/api/video/ai/search', { params: { query: { q: 'freight' } } }));
    expect(search.via).toBe('hosted_mcp');
    // q is required: left out on purpose, past the types, to see the server refuse it.
    const noQ = await api.GET('/api/video/ai/search', { params: { query: {} as { q: string } } });
    expect(noQ.response.status).toBe(400);
    // Its bounds are dates or instants that exist, refused here rather than by the platform.
    for (const from of ['2026-02-30', '2026-13-01', 'yesterday', '2026-11-22T25:00:00Z']) {
      const bad = await api.GET('/api/video/ai/search', { params: { query: { q: 'freight', from } } });
      expect(refusal(bad, 400), from).toBe('validation_failed');
    }
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
    const r = await api.POST('/api/video/capabilities/{group}/{name}', {
      params: { path: { group, name } },
      body,
    });
    expect(ok(r).result).toMatchObject(result);
  });

  it('lists every capability as available except those without a public API', async () => {
    const { items } = ok(await api.GET('/api/video/capabilities'));
    const unavailable = items.filter((i) => !i.available).map((i) => `${i.group}/${i.name}`);
    expect(unavailable.sort()).toEqual(['ai/knowledge_graph', 'clips/analytics', 'clips/chapters']);
  });

  it('serves one recording, its files and its transcript text', async () => {
    const list = ok(await api.GET('/api/video/recordings')).items;
    expect(list.length).toBeGreaterThan(0);
    const params = { path: { video_id: String(list[0]?.video_id) } };
    const one = ok(await api.GET('/api/video/recordings/{video_id}', { params }));
    expect(one.files.length).toBeGreaterThan(0);
    const files = ok(await api.GET('/api/video/recordings/{video_id}/files', { params }));
    expect(files.items.length).toBe(one.files.length);
    const t = ok(await api.GET('/api/video/recordings/{video_id}/transcript', { params }));
    expect(t.text?.length).toBeGreaterThan(20);
  });
});
