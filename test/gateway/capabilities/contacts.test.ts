/**
 * contacts through the gateway against the emulator: the named path and the generic invoke.
 */
import { describe, expect, it } from 'vitest';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

describe('contacts', () => {
  it('GET /api/video/contacts lists contacts with paging', async () => {
    const first = await e.api('GET', '/api/video/contacts?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.items).toHaveLength(2);
    expect(first.json.items[0]).toEqual(
      expect.objectContaining({ email: expect.stringContaining('@'), display_name: expect.any(String) }),
    );
    expect(first.json.nextCursor).toEqual(expect.any(String));
    expectOutput('contacts', 'list_contacts', first.json);
    const second = await e.api(
      'GET',
      `/api/video/contacts?limit=2&cursor=${encodeURIComponent(first.json.nextCursor)}`,
    );
    expect(second.json.items[0].email).not.toBe(first.json.items[0].email);
    const external = await e.api('GET', '/api/video/contacts?type=external');
    expect(external.json.items.length).toBeGreaterThan(0);
    expectOutput('contacts', 'list_contacts', external.json);
  });

  it('searches the directory with q', async () => {
    const r = await e.api('GET', '/api/video/contacts?q=Priya');
    expect(r.status).toBe(200);
    expect(r.json.items.some((c: { first_name: string }) => c.first_name === 'Priya')).toBe(true);
    expectOutput('contacts', 'list_contacts', r.json);
    const none = await e.api('GET', '/api/video/contacts?q=Xylophone');
    expect(none.json).toEqual({ items: [], nextCursor: null });
    expectOutput('contacts', 'list_contacts', none.json);
  });

  it('validates input in the one error shape', async () => {
    const r = await e.api('GET', '/api/video/contacts?limit=0&type=bogus');
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation_failed');
    expect(r.json.error.details.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'limit',
      'type',
    ]);
  });

  it('the same operation runs through the generic invoke endpoint', async () => {
    const r = await e.api('POST', '/api/video/capabilities/contacts/list_contacts', { body: { limit: 1 } });
    expect(r.status).toBe(200);
    expect(r.json.result.items).toHaveLength(1);
    expectOutput('contacts', 'list_contacts', r.json.result);
  });

  it('lists the registry with availability, and refuses what the platform lacks', async () => {
    const list = (await e.api('GET', '/api/video/capabilities')).json.items;
    expect(list).toHaveLength(55);
    const kg = list.find((c: { name: string }) => c.name === 'knowledge_graph');
    expect(kg).toMatchObject({ availability: 'no_public_api', available: false, invoke: null });
    const c = list.find((x: { name: string }) => x.name === 'list_contacts');
    expect(c).toMatchObject({
      available: true,
      state: 'ok',
      inputSchema: expect.objectContaining({ type: 'object' }),
    });
    const r = await e.api('POST', '/api/video/capabilities/ai/knowledge_graph', { body: {} });
    expect(r.status).toBe(501);
    expect(r.json.error.code).toBe('no_public_api');
    expect((await e.api('POST', '/api/video/capabilities/nope/nothing', { body: {} })).json.error.code).toBe(
      'capability_not_found',
    );
  });
});
