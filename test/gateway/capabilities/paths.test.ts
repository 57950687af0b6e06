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
  ])('GET %s lists items with a cursor envelope', async (p) => {
    const r = await e.api('GET', p);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(Array.isArray(r.json.items)).toBe(true);
    expect('nextCursor' in r.json).toBe(true);
    expect((await e.api('GET', p, { key: null })).status).toBe(401);
    expect((await e.api('GET', `${p}?limit=100000`)).json.error.code).toBe('validation_failed');
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
