/**
 * The status report, field by field against the seed's contract, and the monitor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEvent } from '../store/store-contract.js';
import { startGateway, type GatewayEnv } from './helpers.js';

const FIELDS = [
  'ok',
  'configured',
  'brand',
  'account',
  'webinarLicense',
  'note',
  'upcomingLive',
  'storedEvents',
  'registrationsTotal',
  'recentRecordings',
  'contactsOk',
  'phoneOk',
  'clipsOk',
  'capabilityMap',
  'capabilities',
  'apis',
  'checkedAt',
];
const GROUPS: Record<string, string[]> = {
  meetings: [
    'create_meeting',
    'list_meetings',
    'get_meeting',
    'search_meetings',
    'delete_meeting',
    'create_appointment',
  ],
  calendar: ['list_calendars', 'list_events', 'create_event', 'update_event', 'delete_event', 'quick_add'],
  recordings: ['list_user_recordings', 'get_recording', 'list_recording_files', 'meeting_transcript'],
  contacts: ['list_contacts'],
  conversation: ['metadata', 'summary', 'transcript'],
  ai: ['ai_companion_ask', 'ai_companion_search', 'agentic_search', 'knowledge_graph'],
  chat: ['read_message', 'send_message'],
  clips: ['list_clips', 'get_clip', 'chapters', 'analytics'],
  phone: ['call_logs', 'voicemails', 'call_recordings', 'ai_call_summary'],
  ra: ['list_conversations', 'list_deals', 'deal_activities', 'conversation_analysis', 'comments'],
  hub: ['read_content', 'write_content'],
  video_events: ['list_events', 'get_event', 'registrations', 'sessions', 'create_event'],
  marketplace: ['app', 'entitlements', 'app_requests'],
  email: ['profile', 'list_messages', 'send_message', 'drafts', 'threads'],
};
const APIS = {
  oauthStart: '/api/video/oauth/start',
  status: '/api/video/status',
  monitor: '/api/video/monitor',
  meetings: '/api/video/events',
  appointments: '/api/video/appointments',
  calendar: '/api/video/calendar/events',
  recordings: '/api/video/recordings',
  contacts: '/api/video/contacts',
  search: '/api/video/search?q=<query>',
  aiAsk: '/api/video/ai/ask',
  agenticSearch: '/api/video/ai/search?q=<query>',
  phoneLogs: '/api/video/phone/call-logs',
  voicemails: '/api/video/phone/voicemails',
  clips: '/api/video/clips',
  raDeals: '/api/video/ra/deals',
  raConversations: '/api/video/ra/conversations',
  videoEvents: '/api/video/events-hub',
};

let e: GatewayEnv;
beforeAll(async () => {
  e = await startGateway();
});
afterAll(() => e.close());

describe('status report', () => {
  it('says how to link when nothing is linked', async () => {
    const r = await e.api('GET', '/api/video/status');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(FIELDS);
    expect(r.json).toMatchObject({
      ok: false,
      configured: true,
      account: null,
      upcomingLive: [],
      recentRecordings: [],
      storedEvents: [],
      registrationsTotal: 0,
    });
    expect(r.json.note).toMatch(/oauth\/start/);
  });

  it('carries exactly the seed fields, groups, capabilities and apis once linked', async () => {
    await e.link();
    const r = (await e.api('GET', '/api/video/status?fresh=1')).json;
    expect(Object.keys(r)).toEqual(FIELDS);
    expect(r.ok).toBe(true);
    expect(r.brand).toBe('Meridian Fleet');
    expect(Object.keys(r.account)).toEqual(['id', 'email', 'name', 'type', 'pmi']);
    expect(typeof r.account.type).toBe('number');
    expect(typeof r.account.pmi).toBe('number');
    expect(r.webinarLicense).toBe(false);
    expect(r.note).toBe(
      'The webinar product scopes are absent from the marketplace app, so meetings plus calendar are used in place of webinars.',
    );
    expect(r.capabilityMap).toEqual(GROUPS);
    expect(Object.keys(r.capabilityMap)).toEqual(Object.keys(GROUPS));
    expect(r.capabilities).toEqual(Object.values(GROUPS).flat());
    expect(r.capabilities).toHaveLength(54);
    expect(r.capabilities.filter((c: string) => c === 'list_events')).toHaveLength(2);
    expect(r.apis).toEqual(APIS);
    expect(r.checkedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(r.upcomingLive.length).toBeGreaterThan(0);
    expect(r.upcomingLive[0]).toMatchObject({
      video_id: expect.stringMatching(/^\d+$/),
      topic: expect.any(String),
    });
    expect(Array.isArray(r.recentRecordings)).toBe(true);
    expect(r.contactsOk).toBe(true);
    expect(r.phoneOk).toBe(true);
    expect(r.clipsOk).toBe(true);
  });

  it('is cached between probes unless fresh=1 is asked', async () => {
    const count = async () =>
      (await e.emu.api('GET', '/_sandbox/stats')).json.requests[
        'GET /v2/users/me/upcoming_meetings'
      ] as number;
    await e.api('GET', '/api/video/status?fresh=1');
    const a = await count();
    await e.api('GET', '/api/video/status');
    await e.api('GET', '/api/video/status');
    expect(await count()).toBe(a);
    await e.api('GET', '/api/video/status?fresh=1');
    expect(await count()).toBe(a + 1);
  });
});

describe('warm status report', () => {
  const topics = async (path = '/api/video/status') =>
    ((await e.api('GET', path)).json.storedEvents as { topic: string }[]).map((x) => x.topic);

  it('shows a write at once, whether this instance or another made it', async () => {
    await e.api('GET', '/api/video/status');
    await e.store.insertEvent(sampleEvent('warm-1', '2030-01-01T10:00:00Z', { topic: 'Written here' }));
    expect(await topics()).toContain('Written here');
    const twin = await e.twin();
    try {
      // The twin's own connection to the file: this instance did not make the write.
      await twin.store.insertEvent(sampleEvent('warm-2', '2030-01-02T10:00:00Z', { topic: 'Written there' }));
      expect(await topics()).toContain('Written there');
      await twin.store.deleteEvent('warm-2');
      expect(await topics()).not.toContain('Written there');
    } finally {
      await twin.close();
    }
    await e.store.deleteEvent('warm-1');
    expect(await topics()).not.toContain('Written here');
  });

  it('answers the same report each time, stamped with the time of the answer', async () => {
    const a = await e.api('GET', '/api/video/status');
    await new Promise((r) => setTimeout(r, 5));
    const b = await e.api('GET', '/api/video/status');
    expect(b.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Date.parse(b.json.checkedAt)).toBeGreaterThan(Date.parse(a.json.checkedAt));
    expect({ ...b.json, checkedAt: 0 }).toEqual({ ...a.json, checkedAt: 0 });
    expect(Object.keys(b.json)).toEqual(FIELDS);
    const object = await e.gateway.status.report();
    expect({ ...object, checkedAt: 0 }).toEqual({ ...b.json, checkedAt: 0 });
  });
});

describe('monitor', () => {
  it('shows every group and capability with an honest state', async () => {
    const m = (await e.api('GET', '/api/video/monitor')).json;
    expect(Object.keys(m.groups)).toEqual(Object.keys(GROUPS));
    expect(m.link).toMatchObject({ status: 'linked', mode: 'user' });
    expect(m.link.tokenExpiresInSeconds).toBeGreaterThan(3000);
    expect(m.budgets.LIGHT.limit).toBe(30);
    const cap = (g: string, n: string) =>
      m.groups[g].capabilities.find((c: { name: string }) => c.name === n);
    expect(cap('ai', 'knowledge_graph')).toMatchObject({
      state: 'no_public_api',
      availability: 'no_public_api',
    });
    expect(cap('clips', 'chapters').state).toBe('no_public_api');
    expect(cap('meetings', 'list_meetings')).toMatchObject({
      state: 'ok',
      scopesGranted: expect.arrayContaining(['meeting:read:list_meetings']),
    });
    expect(m.groups.contacts.latencyMs).toEqual(expect.any(Number));
    expect(m.groups.contacts.lastSuccess).toEqual(expect.any(String));
  });
});
