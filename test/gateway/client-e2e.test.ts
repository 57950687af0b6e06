/**
 * Every gateway operation under /api/video, called over real HTTP through the typed client
 * (`fleetgate/client`) against a gateway linked to the emulator. Every answer the client gets,
 * successes and the errors provoked here (400, 401, 404, 409, 501), is held to the response
 * schema the same server's /openapi.json declares for its path, method and status
 * (test/client/document-answers.ts), and the typed `data` is what the assertions read. The
 * operations are listed from that document, so a new route fails here until it is called;
 * answers whose body the document does not describe are named in AWAITING_SCHEMA.
 */
import { createHmac } from 'node:crypto';
import type { FleetgateClient } from 'fleetgate/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentAnswers } from '../client/document-answers.js';
import { ok, refusal, typedGateway } from '../client/typed-gateway.js';
import { API_KEY, startGateway, type GatewayEnv } from './helpers.js';

/**
 * `METHOD path status` of answers that carry a body the served document declares no schema
 * for. Kept exact: the last tests fail when one gains its schema (remove it here) or when
 * another loses it.
 */
const AWAITING_SCHEMA: string[] = [];

/** Operations this file does not call, and why. */
const NOT_CALLED: Record<string, string> = {};

/**
 * `METHOD path status` → why its answer does not match the document yet. Kept exact like
 * AWAITING_SCHEMA: the last test fails once one matches (remove it here).
 */
const KNOWN_MISMATCHES: Record<string, string> = {};

const WEBHOOK_SECRET = 'sandbox-webhook-secret';

let e: GatewayEnv;
let api: FleetgateClient;
let anonymous: FleetgateClient;
let answers: DocumentAnswers;

beforeAll(async () => {
  // deliver: false — subscriptions made here point nowhere; the outbox keeps their messages.
  e = await startGateway({
    deliver: false,
    env: { FLEETGATE_WEBHOOK_ALLOW_PRIVATE: '1', FLEETGATE_RATE_LIMIT_API: '100000' },
  });
  ({ api, anonymous, answers } = await typedGateway(e, KNOWN_MISMATCHES));
});
afterAll(() => e.close());

/** Where the platform's consent page (not ours) sends the browser back, with code and state. */
async function consent(authorizeUrl: string): Promise<URLSearchParams> {
  expect(authorizeUrl.startsWith(e.emu.base)).toBe(true);
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  expect(back.pathname).toBe('/api/video/oauth/callback');
  return back.searchParams;
}

const cookieOf = (r: { response: Response }) =>
  (r.response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

const queryOf = (q: URLSearchParams) => ({ code: q.get('code') ?? '', state: q.get('state') ?? '' });

describe('linking through the typed client', () => {
  it('refuses a start without the key, then links as a browser would: 302 to consent, 302 back', async () => {
    expect(refusal(await anonymous.GET('/api/video/oauth/start'), 401)).toBe('unauthorized');
    const start = await api.GET('/api/video/oauth/start', { redirect: 'manual' });
    expect(start.response.status).toBe(302);
    const back = await consent(start.response.headers.get('location') ?? '');
    const callback = await api.GET('/api/video/oauth/callback', {
      params: { query: queryOf(back) },
      headers: { cookie: cookieOf(start) },
      redirect: 'manual',
    });
    expect(callback.response.status).toBe(302);
    expect(callback.response.headers.get('location')).toBe('/dashboard?linked=1');
  });

  it('links again as a script would: the consent URL and the account as JSON', async () => {
    const json = { accept: 'application/json' };
    const start = await api.GET('/api/video/oauth/start', { headers: json });
    const back = await consent(ok(start).authorizeUrl);
    const callback = await api.GET('/api/video/oauth/callback', {
      params: { query: queryOf(back) },
      headers: { ...json, cookie: cookieOf(start) },
    });
    expect(ok(callback)).toMatchObject({
      linked: true,
      account: { email: 'avery.quinn@meridianfleet.example' },
    });
  });

  it('refuses a callback that carries no state', async () => {
    const r = await api.GET('/api/video/oauth/callback', {
      params: { query: { code: 'abc' } },
      headers: { accept: 'application/json' },
    });
    expect(refusal(r, 400)).toBe('invalid_callback');
  });
});

describe('status, monitor and the capability registry', () => {
  it('reports the linked account and the capability map', async () => {
    const s = ok(await api.GET('/api/video/status', { params: { query: { fresh: '1' } } }));
    expect(s).toMatchObject({ ok: true, configured: true, brand: 'Meridian Fleet' });
    expect(s.account?.email).toBe('avery.quinn@meridianfleet.example');
    expect(s.upcomingLive.every((m) => /^\d+$/.test(m.video_id))).toBe(true);
    expect(refusal(await anonymous.GET('/api/video/status'), 401)).toBe('unauthorized');
  });

  it('monitors the link, budgets and daily quotas', async () => {
    const m = ok(await api.GET('/api/video/monitor'));
    expect(m.link).toMatchObject({ status: 'linked', mode: 'user' });
    expect(m.budgets.LIGHT.limit).toBeGreaterThan(0);
    expect(refusal(await anonymous.GET('/api/video/monitor'), 401)).toBe('unauthorized');
  });

  it('lists capabilities, invokes one, and refuses what cannot run', async () => {
    const list = ok(await api.GET('/api/video/capabilities'));
    const unavailable = list.items.filter((c) => !c.available).map((c) => `${c.group}/${c.name}`);
    expect(unavailable.sort()).toEqual(['ai/knowledge_graph', 'clips/analytics', 'clips/chapters']);
    const invoke = (group: string, name: string, body: Record<string, unknown>) =>
      api.POST('/api/video/capabilities/{group}/{name}', { params: { path: { group, name } }, body });
    const profile = ok(await invoke('email', 'profile', {}));
    expect(profile.result).toMatchObject({ email: 'avery.quinn@meridianfleet.example', status: 'active' });
    expect(refusal(await invoke('clips', 'chapters', {}), 501)).toBe('no_public_api');
    expect(refusal(await invoke('email', 'no_such_thing', {}), 404)).toBe('capability_not_found');
    expect(refusal(await invoke('email', 'list_messages', { limit: 0 }), 400)).toBe('validation_failed');
    expect(refusal(await anonymous.GET('/api/video/capabilities'), 401)).toBe('unauthorized');
  });
});

describe('webhook intake and MCP', () => {
  const signed = (body: unknown) => {
    const ts = String(Math.floor(Date.now() / 1000));
    // openapi-fetch sends JSON.stringify(body): the bytes the signature covers.
    const mac = createHmac('sha256', WEBHOOK_SECRET).update(`v0:${ts}:${JSON.stringify(body)}`);
    return { 'x-zm-request-timestamp': ts, 'x-zm-signature': `v0=${mac.digest('hex')}` };
  };

  it('answers the url_validation challenge of a signed delivery, and refuses a forged one', async () => {
    const body = {
      event: 'endpoint.url_validation',
      event_ts: Date.now(),
      payload: { plainToken: 'abc123' },
    };
    const r = await anonymous.POST('/api/video/webhooks', { headers: signed(body), body });
    expect(ok(r)).toEqual({
      plainToken: 'abc123',
      encryptedToken: createHmac('sha256', WEBHOOK_SECRET).update('abc123').digest('hex'),
    });
    const forged = await anonymous.POST('/api/video/webhooks', {
      headers: { ...signed(body), 'x-zm-signature': 'v0=00' },
      body,
    });
    expect(refusal(forged, 401)).toBe('invalid_signature');
  });

  it('initializes an MCP session, and refuses one without the key', async () => {
    const body = {
      jsonrpc: '2.0' as const,
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'client-e2e', version: '1' },
      },
    };
    const headers = { accept: 'application/json, text/event-stream' };
    const r = ok(await api.POST('/api/video/mcp', { headers, body }));
    expect(r).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25' } });
    const refused = await anonymous.POST('/api/video/mcp', { headers, body });
    // An OAuth bearer challenge (RFC 6750), as MCP clients expect, not the gateway's error shape.
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ error: 'invalid_token' });
    expect(refused.response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

describe('stored events, registrations and appointments', () => {
  let videoId = '';

  it('creates a stored event, lists, reads and changes it', async () => {
    const created = ok(
      await api.POST('/api/video/events', {
        body: {
          topic: 'Typed client walk',
          start_time: '2031-05-01T10:00:00.000Z',
          funnel: 'freight',
          registration: true,
        },
      }),
      201,
    );
    expect(created).toMatchObject({ topic: 'Typed client walk', funnel: 'freight', registration: true });
    videoId = created.video_id;
    expect(videoId).toMatch(/^\d+$/);
    const page = ok(await api.GET('/api/video/events', { params: { query: { funnel: 'freight' } } }));
    expect(page.items.map((i) => i.video_id)).toContain(videoId);
    const one = ok(await api.GET('/api/video/events/{videoId}', { params: { path: { videoId } } }));
    expect(one).toMatchObject({ video_id: videoId, status: 'scheduled' });
    const changed = ok(
      await api.PATCH('/api/video/events/{videoId}', {
        params: { path: { videoId } },
        body: { topic: 'Typed client walk, moved' },
      }),
    );
    expect(changed.topic).toBe('Typed client walk, moved');
    const bad = await api.POST('/api/video/events', { body: { topic: '', start_time: 'soon' } });
    expect(refusal(bad, 400)).toBe('validation_failed');
    const missing = await api.GET('/api/video/events/{videoId}', { params: { path: { videoId: '1' } } });
    expect(refusal(missing, 404)).toMatch(/not_found/);
  });

  it('registers a person and lists the registrations; an event without registration refuses', async () => {
    const reg = ok(
      await api.POST('/api/video/events/{videoId}/registrations', {
        params: { path: { videoId } },
        body: { email: 'sam.typed@example.org', first_name: 'Sam' },
      }),
      201,
    );
    expect(reg).toMatchObject({ video_id: videoId, email: 'sam.typed@example.org', first_name: 'Sam' });
    const list = ok(
      await api.GET('/api/video/events/{videoId}/registrations', { params: { path: { videoId } } }),
    );
    expect(list.items.map((r) => r.registrant_id)).toEqual([reg.registrant_id]);
    const closed = ok(
      await api.POST('/api/video/events', {
        body: { topic: 'Typed client, no registration', start_time: '2031-05-04T10:00:00.000Z' },
      }),
      201,
    );
    const refused = await api.POST('/api/video/events/{videoId}/registrations', {
      params: { path: { videoId: closed.video_id } },
      body: { email: 'sam.typed@example.org', first_name: 'Sam' },
    });
    expect(refusal(refused, 409)).toBe('registration_closed');
  });

  it('books an appointment (a meeting plus a calendar event) once per Idempotency-Key', async () => {
    const body = {
      topic: 'Typed client appointment',
      start_time: '2031-05-02T15:00:00',
      timezone: 'America/Chicago',
      invitee: { email: 'rory.typed@example.org', name: 'Rory' },
    };
    const params = { header: { 'Idempotency-Key': 'client-e2e-appointment-1' } };
    const first = await api.POST('/api/video/appointments', { params, body });
    const booked = ok(first, 201);
    expect(booked.appointment.meeting.topic).toBe('Typed client appointment');
    const again = await api.POST('/api/video/appointments', { params, body });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(ok(again, 201)).toEqual(booked);
  });

  it('deletes the stored event', async () => {
    const r = ok(await api.DELETE('/api/video/events/{videoId}', { params: { path: { videoId } } }));
    expect(r).toMatchObject({ deleted: true, video_id: videoId });
    const gone = await api.GET('/api/video/events/{videoId}', { params: { path: { videoId } } });
    expect(refusal(gone, 404)).toMatch(/not_found/);
  });
});

describe('capability view paths', () => {
  it('recordings: a list, one recording, its files and transcript', async () => {
    const list = ok(await api.GET('/api/video/recordings'));
    const first = list.items[0];
    expect(first).toBeDefined();
    const video_id = String(first?.video_id);
    const params = { path: { video_id } };
    const one = ok(await api.GET('/api/video/recordings/{video_id}', { params }));
    expect(one.files.length).toBeGreaterThan(0);
    const files = ok(await api.GET('/api/video/recordings/{video_id}/files', { params }));
    expect(files.items.map((f) => f.id)).toEqual(one.files.map((f) => f.id));
    const t = ok(await api.GET('/api/video/recordings/{video_id}/transcript', { params }));
    expect(t.text?.length).toBeGreaterThan(20);
    const unknown = { params: { path: { video_id: '123123123123' } } };
    expect(refusal(await api.GET('/api/video/recordings/{video_id}', unknown), 404)).toMatch(/not_found/);
    const tooMany = await api.GET('/api/video/recordings', { params: { query: { limit: 100000 } } });
    expect(refusal(tooMany, 400)).toBe('validation_failed');
  });

  it('contacts and the cross-search', async () => {
    const contacts = ok(await api.GET('/api/video/contacts', { params: { query: { limit: 2 } } }));
    expect(contacts.items).toHaveLength(2);
    expect(contacts.nextCursor).toEqual(expect.any(String));
    const search = ok(await api.GET('/api/video/search', { params: { query: { q: 'freight' } } }));
    expect(search.total).toBeGreaterThan(0);
    expect(search.groups['meetings']?.[0]).toMatchObject({ topic: expect.stringMatching(/Freight/) });
    const noQ = await api.GET('/api/video/search', { params: { query: { q: '' } } });
    expect(refusal(noQ, 400)).toBe('validation_failed');
  });

  it('AI: ask and agentic search, with sources and how they were found', async () => {
    const ask = ok(await api.POST('/api/video/ai/ask', { body: { question: 'What about freight lanes?' } }));
    expect(ask).toMatchObject({ answer: expect.stringContaining('Freight'), via: 'hosted_mcp' });
    expect(ask.sources.length).toBeGreaterThan(0);
    const search = ok(await api.GET('/api/video/ai/search', { params: { query: { q: 'freight' } } }));
    expect(search.via).toBe('hosted_mcp');
    expect(search.items[0]?.topic).toMatch(/Freight/);
  });

  it('phone: call logs, voicemails, recordings and an AI call summary', async () => {
    const calls = ok(await api.GET('/api/video/phone/call-logs'));
    const summarized = calls.items.find((c) => c.ai_call_summary_id);
    const voicemails = ok(await api.GET('/api/video/phone/voicemails'));
    expect(voicemails.items[0]?.download_url).toMatch(/^http/);
    const recordings = ok(await api.GET('/api/video/phone/recordings'));
    expect(recordings.items[0]?.duration).toBeGreaterThan(0);
    const summary_id = String(summarized?.ai_call_summary_id);
    const s = ok(
      await api.GET('/api/video/phone/ai-summaries/{summary_id}', { params: { path: { summary_id } } }),
    );
    expect(s).toMatchObject({ ai_call_summary_id: summary_id, call_id: summarized?.call_id });
  });

  it('clips: a list and one clip', async () => {
    const list = ok(await api.GET('/api/video/clips'));
    const clip_id = String(list.items[0]?.clip_id);
    const one = ok(await api.GET('/api/video/clips/{clip_id}', { params: { path: { clip_id } } }));
    expect(one).toMatchObject({ clip_id, title: list.items[0]?.title });
  });

  it('revenue accelerator: deals, activities, conversations, analysis and comments', async () => {
    const deals = ok(await api.GET('/api/video/ra/deals'));
    const dealId = String(deals.items[0]?.deal_id);
    const activities = ok(
      await api.GET('/api/video/ra/deals/{dealId}/activities', { params: { path: { dealId } } }),
    );
    expect(activities.items.length).toBeGreaterThan(0);
    const convs = ok(await api.GET('/api/video/ra/conversations'));
    const conversationId = String(convs.items.find((x) => !x.processing_analysis)?.conversation_id);
    const path = { conversationId };
    const analysis = ok(
      await api.GET('/api/video/ra/conversations/{conversationId}/analysis', { params: { path } }),
    );
    expect(analysis).toMatchObject({ conversation_id: conversationId, analysis_type: 'all' });
    const posted = ok(
      await api.POST('/api/video/ra/conversations/{conversationId}/comments', {
        params: { path },
        body: { comment: 'Typed client was here' },
      }),
      201,
    );
    expect(posted).toMatchObject({ comment: 'Typed client was here', user_name: 'Avery Quinn' });
    const comments = ok(
      await api.GET('/api/video/ra/conversations/{conversationId}/comments', { params: { path } }),
    );
    expect(comments.items.map((x) => x.id)).toContain(posted.id);
  });

  it('events hub: list, create, one event, registrations and sessions', async () => {
    const list = ok(await api.GET('/api/video/events-hub'));
    const first = list.items[0];
    const created = ok(
      await api.POST('/api/video/events-hub', {
        body: {
          name: 'Typed client open house',
          timezone: 'America/Chicago',
          start_time: '2031-06-01T15:00:00Z',
          end_time: '2031-06-01T17:00:00Z',
          hub_id: String(first?.hub_id),
        },
      }),
      201,
    );
    expect(created.name).toBe('Typed client open house');
    const eventId = String(first?.event_id);
    const params = { path: { eventId } };
    const one = ok(await api.GET('/api/video/events-hub/{eventId}', { params }));
    expect(one.event_id).toBe(eventId);
    const reg = ok(
      await api.POST('/api/video/events-hub/{eventId}/registrations', {
        params,
        body: { email: 'kai.typed@example.org', first_name: 'Kai', last_name: 'Typed' },
      }),
      201,
    );
    expect(reg).toMatchObject({ event_id: eventId, email: 'kai.typed@example.org' });
    const regs = ok(await api.GET('/api/video/events-hub/{eventId}/registrations', { params }));
    expect(regs.items.map((r) => r.email)).toContain('kai.typed@example.org');
    const sessions = ok(await api.GET('/api/video/events-hub/{eventId}/sessions', { params }));
    expect(sessions.items[0]?.name).toEqual(expect.any(String));
  });

  it('calendar: calendars, events, create, quick-add, change and delete', async () => {
    const calendars = ok(await api.GET('/api/video/calendar/calendars'));
    expect(calendars.items.find((c) => c.primary)?.id).toBe('avery.quinn@meridianfleet.example');
    const events = ok(await api.GET('/api/video/calendar/events'));
    expect(events.items.length).toBeGreaterThan(0);
    const created = ok(
      await api.POST('/api/video/calendar/events', {
        body: { summary: 'Typed client sync', start: '2031-05-03T15:00:00Z', end: '2031-05-03T16:00:00Z' },
      }),
      201,
    );
    expect(created.summary).toBe('Typed client sync');
    const quick = ok(
      await api.POST('/api/video/calendar/events/quick-add', {
        body: { text: 'Lunch with Jordan tomorrow at noon' },
      }),
      201,
    );
    expect(quick.summary).toMatch(/Lunch/);
    const path = { eventId: created.id };
    const changed = ok(
      await api.PATCH('/api/video/calendar/events/{eventId}', {
        params: { path },
        body: { summary: 'Typed client sync, moved' },
      }),
    );
    expect(changed.summary).toBe('Typed client sync, moved');
    const deleted = ok(await api.DELETE('/api/video/calendar/events/{eventId}', { params: { path } }));
    expect(deleted).toMatchObject({ deleted: true, id: created.id });
  });
});

describe('webhook subscriptions', () => {
  it('subscribes, lists, reads and deletes; refuses bad input and unknown ids', async () => {
    const url = 'http://127.0.0.1:9/typed-client';
    const created = ok(
      await api.POST('/api/video/subscriptions', { body: { url, events: ['event.created'] } }),
      201,
    );
    expect(created).toMatchObject({ url, events: ['event.created'] });
    expect(created.secret).toMatch(/^whsec_/);
    const path = { id: created.id };
    const list = ok(await api.GET('/api/video/subscriptions'));
    expect(list.items.map((s) => s.id)).toContain(created.id);
    const one = ok(await api.GET('/api/video/subscriptions/{id}', { params: { path } }));
    expect(one).toMatchObject({ id: created.id, source: 'api' });
    expect(JSON.stringify(one)).not.toContain(created.secret);
    const deleted = ok(await api.DELETE('/api/video/subscriptions/{id}', { params: { path } }));
    expect(deleted).toEqual({ deleted: true, id: created.id });
    const gone = await api.GET('/api/video/subscriptions/{id}', { params: { path } });
    expect(refusal(gone, 404)).toMatch(/not_found/);
    const bad = await api.POST('/api/video/subscriptions', { body: { url: 'not a url', events: [] } });
    expect(refusal(bad, 400)).toBe('validation_failed');
  });
});

describe('without the API key', () => {
  it('every operation the document secures with the key lists 401 and answers it as documented', async () => {
    const secured = answers.operationsNeeding('apiKey', '/api/video/');
    expect(secured.length).toBeGreaterThan(40);
    for (const { method, path } of secured) {
      const ids = Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'x1']));
      // Paths come from the served document here, so the typed signature cannot name them.
      const r = await anonymous.request(method, path as never, { params: { path: ids } } as never);
      expect(r.response.status, `${method.toUpperCase()} ${path}`).toBe(401);
      expect(answers.lists(path, method, 401), `${method.toUpperCase()} ${path} lists 401`).toBe(true);
      expect(r.response.headers.get('www-authenticate'), `${method.toUpperCase()} ${path}`).toMatch(
        /^Bearer /,
      );
    }
  });
});

describe('unknown ids', () => {
  it('every GET with a path id refuses an unknown one with a 4xx it lists and describes', async () => {
    const withIds = answers
      .operations('/api/video/')
      .filter((op) => op.startsWith('GET ') && op.includes('{'));
    expect(withIds.length).toBeGreaterThan(10);
    for (const op of withIds) {
      const path = op.slice('GET '.length);
      const ids = Object.fromEntries(
        [...path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'NoSuchThing000000']),
      );
      // Paths come from the served document here, so the typed signature cannot name them.
      const r = await api.request('get', path as never, { params: { path: ids } } as never);
      expect([400, 404], `${op} answered ${r.response.status}`).toContain(r.response.status);
      expect(answers.lists(path, 'get', r.response.status), `${op} lists ${r.response.status}`).toBe(true);
    }
  });
});

describe('every GET the document lists, asked as a browser and as a script', () => {
  const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const SCRIPT = 'application/json';

  it('answers each with a status the document lists and a media type it declares for that status', async () => {
    // Every page, file and API read, not only the gateway's: a page's script served under
    // another type, or an error page where only JSON is declared, fails here whichever it is.
    const gets = answers.operations('/').filter((op) => op.startsWith('GET '));
    expect(gets.length).toBeGreaterThan(60);
    for (const op of gets) {
      const path = op.slice('GET '.length);
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => answers.pathExample(path, 'get', name));
      for (const accept of [BROWSER, SCRIPT]) {
        // With the key, so the private reads answer their success, not only their 401.
        const res = await fetch(`${e.base}${url}`, {
          headers: { accept, authorization: `Bearer ${API_KEY}` },
          redirect: 'manual',
        });
        answers.check(path, 'get', res.status, res.headers, await res.text());
      }
    }
  });
});

describe('unlinking', () => {
  it('disconnects, after which status reports no account', async () => {
    expect(ok(await api.POST('/api/video/oauth/disconnect'))).toMatchObject({ linked: false });
    const status = ok(await api.GET('/api/video/status', { params: { query: { fresh: '1' } } }));
    expect(status.account).toBeNull();
  });
});

describe('the served document', () => {
  it('every gateway operation it lists was called through the client, with a 2xx among its answers', () => {
    const listed = answers.operations('/api/video/');
    const missing = listed.filter((op) => !(op in NOT_CALLED) && !answers.seen.has(op));
    expect(missing, 'operations the document lists that this file never calls').toEqual([]);
    const noSuccess = listed.filter(
      (op) => !(op in NOT_CALLED) && ![...(answers.seen.get(op) ?? [])].some((s) => s < 400),
    );
    expect(noSuccess, 'operations called here only with errors').toEqual([]);
    expect(
      Object.keys(NOT_CALLED).filter((op) => !listed.includes(op)),
      'stale NOT_CALLED',
    ).toEqual([]);
  });

  it('declares a body schema for every answer that has a body (AWAITING_SCHEMA names the rest)', () => {
    const undeclared = [...answers.undeclaredBodies].sort();
    if (undeclared.length) console.log(`answers without a declared schema:\n  ${undeclared.join('\n  ')}`);
    expect(undeclared).toEqual([...AWAITING_SCHEMA].sort());
  });

  it('lists each status it was answered with by itself, not only through default', () => {
    expect([...answers.unlisted].sort()).toEqual([]);
  });

  it('every known mismatch still answers outside the document (KNOWN_MISMATCHES is not stale)', () => {
    expect([...answers.knownMismatchesSeen].sort()).toEqual(Object.keys(KNOWN_MISMATCHES).sort());
  });
});
