/**
 * Every emulated route against the platform's published documents. The inventory fails when
 * the emulator serves a route that is neither mapped to a documented operation nor listed as
 * unreferenced (helpers/route-inventory.ts), so a new route cannot slip by; each mapped route
 * must admit the scopes its operation lists, and is called once for real here with its success
 * body held to the documented schema (an empty body where the operation documents none).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_MODULES } from '../src/routes/index.js';
import type { UsersSlice } from '../src/routes/users.js';
import {
  checkResponse,
  documentedScopes,
  itWithSpecs,
  publishedSpec,
  specsAvailable,
} from './helpers/openapi.js';
import {
  PUBLISHED,
  recordingDefs,
  servedRoutes,
  UNREFERENCED,
  type RouteKey,
} from './helpers/route-inventory.js';
import { startTestEmulator, type ApiResult, type TestEmulator } from './helpers/emulator.js';

const { modules, defs } = recordingDefs(EMULATOR_MODULES);
const FIDELITY_DOC = path.resolve(import.meta.dirname, '../../../docs/emulator-fidelity.md');

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, modules);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const api = (
  method: string,
  url: string,
  opts: { body?: unknown; query?: Record<string, string | number> } = {},
) => t.api(method, url, { token, ...opts });
const enc = encodeURIComponent;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const lastMonth = () => ({ from: iso(Date.now() - 30 * 86_400_000), to: iso(Date.now() + 60_000) });
const raw = (lines: string[]) => Buffer.from(lines.join('\r\n')).toString('base64url');
const BOX = '/v2/emails/mailboxes/me';

// Setup calls: a wrong status here is the setup's fault, not the route's under test.
async function ok(r: Promise<ApiResult>): Promise<any> {
  const res = await r;
  if (res.status >= 300) throw new Error(`setup call failed: ${res.status} ${res.text}`);
  return res.json;
}
const newMeeting = async (body: Record<string, unknown> = {}) =>
  (
    await ok(
      api('POST', '/v2/users/me/meetings', {
        body: {
          topic: 'Published check',
          type: 2,
          start_time: '2030-03-04T15:00:00Z',
          duration: 30,
          ...body,
        },
      }),
    )
  ).id as number;
const pastMeetingId = async () =>
  (await ok(api('GET', '/v2/users/me/meetings', { query: { type: 'previous_meetings' } }))).meetings[0]
    .id as number;
const recorded = async () =>
  (await ok(api('GET', '/v2/users/me/recordings', { query: { from: day(-27), to: day(0), page_size: 300 } })))
    .meetings as { id: number; uuid: string; recording_files: { id: string; file_type: string }[] }[];
const withTranscript = async () =>
  (await recorded()).filter((m) => m.recording_files.some((f) => f.file_type === 'TRANSCRIPT'));
const calendarEvent = {
  summary: 'Published check',
  start: { dateTime: '2030-03-04T10:00:00', timeZone: 'America/Chicago' },
  end: { dateTime: '2030-03-04T11:00:00', timeZone: 'America/Chicago' },
};
const newCalendarEvent = async () =>
  (await ok(api('POST', '/v2/calendars/primary/events', { body: calendarEvent }))).id as string;
const channelId = async () => (await ok(api('GET', '/v2/chat/users/me/channels'))).channels[0].id as string;
const clips = async () =>
  (await ok(api('GET', '/v2/clips', { query: lastMonth() }))).data as { clip_id: string }[];
const conversationId = async () =>
  enc((await ok(api('GET', '/v2/zra/conversations'))).conversations[0].conversation_id as string);
const dealId = async () => (await ok(api('GET', '/v2/zra/deals'))).deals[0].deal_id as string;
const newFolder = async () =>
  (await ok(api('POST', '/v2/docs/files', { body: { file_name: 'Published check', file_type: 'folder' } })))
    .file_id as string;
const hostedEvent = async () =>
  (
    await ok(
      api('GET', '/v2/zoom_events/events', { query: { role_type: 'host', event_status_type: 'upcoming' } }),
    )
  ).events[0].event_id as string;
const hostHub = async () =>
  (await ok(api('GET', '/v2/zoom_events/hubs', { query: { role_type: 'host' } }))).hubs[0].hub_id as string;
const newDraft = async () =>
  (
    await ok(
      api('POST', `${BOX}/drafts`, {
        body: {
          message: { raw: raw(['To: sam.okafor@meridianfleet.example', 'Subject: Check', '', 'Body']) },
        },
      }),
    )
  ).id as string;
const firstMessageId = async () => (await ok(api('GET', `${BOX}/messages`))).messages[0].id as string;

interface Driver {
  /** Calls the route once, with whatever setup it needs, and returns the answer under test. */
  call: () => Promise<ApiResult>;
  /** Errors against the documented schema that the document itself gets wrong, and why. */
  allow?: { error: RegExp; why: string };
}

/** One real call per mapped route (the key set must equal PUBLISHED's, less NO_SUCCESS). */
const DRIVERS: Record<RouteKey, Driver> = {
  'GET /v2/users/:userId': { call: () => api('GET', '/v2/users/me') },
  'GET /v2/users/:userId/settings': {
    call: () => api('GET', '/v2/users/me/settings'),
    allow: {
      error: /^\/ must match exactly one schema in oneOf \{"passingSchemas":\[0,1\]\}$/,
      why: "the settings body matches the document's first variant; its second variant requires nothing, so every body matches it too",
    },
  },
  'GET /v2/users': { call: () => api('GET', '/v2/users') },

  'POST /v2/users/:userId/meetings': {
    call: () => api('POST', '/v2/users/me/meetings', { body: { topic: 'Published check', duration: 30 } }),
  },
  'GET /v2/users/:userId/meetings': { call: () => api('GET', '/v2/users/me/meetings') },
  'GET /v2/users/:userId/upcoming_meetings': { call: () => api('GET', '/v2/users/me/upcoming_meetings') },
  'GET /v2/meetings/:meetingId': { call: async () => api('GET', `/v2/meetings/${await newMeeting()}`) },
  'PATCH /v2/meetings/:meetingId': {
    call: async () => api('PATCH', `/v2/meetings/${await newMeeting()}`, { body: { topic: 'Renamed' } }),
  },
  'DELETE /v2/meetings/:meetingId': { call: async () => api('DELETE', `/v2/meetings/${await newMeeting()}`) },
  'PUT /v2/meetings/:meetingId/status': {
    call: async () => api('PUT', `/v2/meetings/${await newMeeting()}/status`, { body: { action: 'end' } }),
  },
  'GET /v2/meetings/:meetingId/registrants': {
    call: async () => {
      const id = await newMeeting({ settings: { approval_type: 0 } });
      await ok(
        api('POST', `/v2/meetings/${id}/registrants`, {
          body: { email: 'pat@example.com', first_name: 'Pat' },
        }),
      );
      return api('GET', `/v2/meetings/${id}/registrants`);
    },
  },
  'POST /v2/meetings/:meetingId/registrants': {
    call: async () =>
      api('POST', `/v2/meetings/${await newMeeting({ settings: { approval_type: 0 } })}/registrants`, {
        body: { email: 'pat@example.com', first_name: 'Pat', last_name: 'Moreno' },
      }),
  },
  'GET /v2/past_meetings/:meetingId': {
    call: async () => api('GET', `/v2/past_meetings/${await pastMeetingId()}`),
  },
  'GET /v2/past_meetings/:meetingId/participants': {
    call: async () => api('GET', `/v2/past_meetings/${await pastMeetingId()}/participants`),
  },
  'GET /v2/meetings/meeting_summaries': { call: () => api('GET', '/v2/meetings/meeting_summaries') },
  'GET /v2/meetings/:meetingId/meeting_summary': {
    call: async () => api('GET', `/v2/meetings/${await pastMeetingId()}/meeting_summary`),
  },
  'GET /v2/users/:userId/webinars': {
    // Webinars need a plan the demo account lacks, and scopes a default token is not given.
    call: async () => {
      const w = await startTestEmulator({ scopes: ['webinar:read:list_webinars'] });
      try {
        w.emulator.context.slice<UsersSlice>('users').settingsFeature.webinar = true;
        return await w.api('GET', '/v2/users/me/webinars', { token: (await w.userToken()).access_token });
      } finally {
        await w.close();
      }
    },
  },

  'GET /v2/users/:userId/recordings': {
    call: () => api('GET', '/v2/users/me/recordings', { query: { from: day(-27), to: day(0) } }),
  },
  'GET /v2/meetings/:meetingId/recordings': {
    call: async () => api('GET', `/v2/meetings/${(await recorded())[0]!.id}/recordings`),
  },
  'DELETE /v2/meetings/:meetingId/recordings': {
    call: async () => api('DELETE', `/v2/meetings/${(await recorded())[1]!.id}/recordings`),
  },
  'PUT /v2/meetings/:meetingId/recordings/status': {
    call: async () => {
      const m = (await recorded())[1]!;
      await ok(api('DELETE', `/v2/meetings/${m.id}/recordings`));
      return api('PUT', `/v2/meetings/${enc(enc(m.uuid))}/recordings/status`, {
        body: { action: 'recover' },
      });
    },
  },
  'DELETE /v2/meetings/:meetingId/recordings/:recordingId': {
    call: async () => {
      const m = (await recorded())[2]!;
      return api('DELETE', `/v2/meetings/${m.id}/recordings/${m.recording_files[0]!.id}`);
    },
  },
  'PUT /v2/meetings/:meetingId/recordings/:recordingId/status': {
    call: async () => {
      const m = (await recorded())[3]!;
      const file = m.recording_files[0]!.id;
      await ok(api('DELETE', `/v2/meetings/${m.id}/recordings/${file}`));
      return api('PUT', `/v2/meetings/${m.id}/recordings/${file}/status`, { body: { action: 'recover' } });
    },
  },
  'GET /v2/meetings/:meetingId/transcript': {
    call: async () => api('GET', `/v2/meetings/${(await withTranscript())[0]!.id}/transcript`),
  },
  'DELETE /v2/meetings/:meetingId/transcript': {
    call: async () => api('DELETE', `/v2/meetings/${(await withTranscript()).at(-1)!.id}/transcript`),
  },

  'GET /v2/calendars/users/:userIdentifier/calendarList': {
    call: () => api('GET', '/v2/calendars/users/me/calendarList'),
  },
  'GET /v2/calendars/:calId': { call: () => api('GET', '/v2/calendars/primary') },
  'GET /v2/calendars/:calId/events': { call: () => api('GET', '/v2/calendars/primary/events') },
  'POST /v2/calendars/:calId/events': {
    call: () => api('POST', '/v2/calendars/primary/events', { body: calendarEvent }),
  },
  'POST /v2/calendars/:calId/events/quickAdd': {
    call: () =>
      api('POST', '/v2/calendars/primary/events/quickAdd', {
        query: { text: 'Lunch with Sam tomorrow at 1pm' },
      }),
  },
  'GET /v2/calendars/:calId/events/:eventId': {
    call: async () => api('GET', `/v2/calendars/primary/events/${await newCalendarEvent()}`),
  },
  'PATCH /v2/calendars/:calId/events/:eventId': {
    call: async () =>
      api('PATCH', `/v2/calendars/primary/events/${await newCalendarEvent()}`, {
        body: { ...calendarEvent, summary: 'Moved' },
      }),
  },
  'DELETE /v2/calendars/:calId/events/:eventId': {
    call: async () => api('DELETE', `/v2/calendars/primary/events/${await newCalendarEvent()}`),
  },

  'GET /v2/chat/users/:userId/messages': {
    call: async () => api('GET', '/v2/chat/users/me/messages', { query: { to_channel: await channelId() } }),
  },
  'POST /v2/chat/users/:userId/messages': {
    call: async () =>
      api('POST', '/v2/chat/users/me/messages', {
        body: { message: 'Published check', to_channel: await channelId() },
      }),
  },
  'GET /v2/chat/users/:userId/messages/:messageId': {
    call: async () => {
      const to_channel = await channelId();
      const sent = await ok(
        api('POST', '/v2/chat/users/me/messages', { body: { message: 'Check', to_channel } }),
      );
      return api('GET', `/v2/chat/users/me/messages/${sent.id}`, { query: { to_channel } });
    },
  },
  'GET /v2/chat/users/:userId/channels': { call: () => api('GET', '/v2/chat/users/me/channels') },
  'GET /v2/chat/channels/:channelId': {
    call: async () => api('GET', `/v2/chat/channels/${await channelId()}`),
  },
  'GET /v2/chat/users/me/contacts': { call: () => api('GET', '/v2/chat/users/me/contacts') },
  'GET /v2/chat/users/me/contacts/:identifier': {
    call: () => api('GET', '/v2/chat/users/me/contacts/sam.okafor@meridianfleet.example'),
  },
  'GET /v2/contacts': { call: () => api('GET', '/v2/contacts', { query: { search_key: 'bell' } }) },

  'GET /v2/clips': { call: () => api('GET', '/v2/clips', { query: lastMonth() }) },
  'GET /v2/clips/:clipId': { call: async () => api('GET', `/v2/clips/${(await clips())[0]!.clip_id}`) },
  'DELETE /v2/clips/:clipId': {
    call: async () => api('DELETE', `/v2/clips/${(await clips()).at(-1)!.clip_id}`),
  },
  'GET /v2/clips/:clipId/comments': {
    call: async () => api('GET', `/v2/clips/${(await clips())[0]!.clip_id}/comments`),
  },

  'GET /v2/zra/conversations': { call: () => api('GET', '/v2/zra/conversations') },
  'GET /v2/zra/conversations/:conversationId': {
    call: async () => api('GET', `/v2/zra/conversations/${await conversationId()}`),
  },
  'GET /v2/zra/conversations/:conversationId/content_analysis': {
    call: async () =>
      api('GET', `/v2/zra/conversations/${await conversationId()}/content_analysis`, {
        query: { analysis_type: 'all' },
      }),
  },
  'GET /v2/zra/conversations/:conversationId/comments': {
    call: async () => api('GET', `/v2/zra/conversations/${await conversationId()}/comments`),
  },
  'POST /v2/zra/conversations/:conversationId/comments': {
    call: async () =>
      api('POST', `/v2/zra/conversations/${await conversationId()}/comments`, {
        body: { comment: 'Published check' },
      }),
  },
  'GET /v2/zra/deals': { call: () => api('GET', '/v2/zra/deals') },
  'GET /v2/zra/deals/:dealId': { call: async () => api('GET', `/v2/zra/deals/${await dealId()}`) },
  'GET /v2/zra/deals/:dealId/activities': {
    call: async () => api('GET', `/v2/zra/deals/${await dealId()}/activities`),
  },

  'POST /v2/docs/files': {
    call: () =>
      api('POST', '/v2/docs/files', { body: { file_name: 'Published check', file_type: 'folder' } }),
  },
  'GET /v2/docs/files/:fileId': { call: async () => api('GET', `/v2/docs/files/${await newFolder()}`) },
  'PATCH /v2/docs/files/:fileId': {
    call: async () => api('PATCH', `/v2/docs/files/${await newFolder()}`, { body: { file_name: 'Renamed' } }),
  },
  'DELETE /v2/docs/files/:fileId': { call: async () => api('DELETE', `/v2/docs/files/${await newFolder()}`) },
  'GET /v2/docs/files/:fileId/content': {
    call: async () => {
      const doc = await ok(
        api('POST', '/v2/docs/import_content', { body: { content: '# Check\n\nBody\n' } }),
      );
      return api('GET', `/v2/docs/files/${doc.file_id}/content`);
    },
  },
  'GET /v2/docs/files/:fileId/children': {
    call: async () =>
      api('GET', `/v2/docs/files/${(await ok(api('GET', '/v2/docs/users/me/root'))).root_id}/children`),
  },
  'GET /v2/docs/users/:userId/root': { call: () => api('GET', '/v2/docs/users/me/root') },
  'POST /v2/docs/import_content': {
    call: () => api('POST', '/v2/docs/import_content', { body: { content: '# Check\n\nBody\n' } }),
  },
  'POST /v2/docs/file_search': {
    call: () => api('POST', '/v2/docs/file_search', { body: { query: 'detention' } }),
  },

  'GET /v2/zoom_events/events': {
    call: () =>
      api('GET', '/v2/zoom_events/events', { query: { role_type: 'host', event_status_type: 'upcoming' } }),
  },
  'POST /v2/zoom_events/events': {
    call: async () =>
      api('POST', '/v2/zoom_events/events', {
        body: {
          name: 'Published check',
          description: 'A check of the documented shape.',
          timezone: 'America/Chicago',
          event_type: 'SIMPLE_EVENT',
          meeting_type: 'MEETING',
          access_level: 'PUBLIC',
          hub_id: await hostHub(),
          attendance_type: 'virtual',
          categories: ['Business & Networking'],
          calendar: [{ start_time: '2030-05-06T23:00:00Z', end_time: '2030-05-07T00:30:00Z' }],
        },
      }),
  },
  'GET /v2/zoom_events/events/:eventId': {
    call: async () => api('GET', `/v2/zoom_events/events/${await hostedEvent()}`),
  },
  'GET /v2/zoom_events/events/:eventId/registrants': {
    call: async () => api('GET', `/v2/zoom_events/events/${await hostedEvent()}/registrants`),
  },
  'GET /v2/zoom_events/events/:eventId/sessions': {
    call: async () => api('GET', `/v2/zoom_events/events/${await hostedEvent()}/sessions`),
  },
  'POST /v2/zoom_events/events/:eventId/tickets': {
    call: async () =>
      api('POST', `/v2/zoom_events/events/${await hostedEvent()}/tickets`, {
        body: {
          registration_source: 'fleetgate',
          tickets: [{ email: 'pat.moreno@example.com', first_name: 'Pat', last_name: 'Moreno' }],
        },
      }),
  },
  'GET /v2/zoom_events/events/:eventId/tickets': {
    call: async () => api('GET', `/v2/zoom_events/events/${await hostedEvent()}/tickets`),
  },
  'GET /v2/zoom_events/hubs': {
    call: () => api('GET', '/v2/zoom_events/hubs', { query: { role_type: 'host' } }),
  },

  'GET /v2/marketplace/apps/:appId': { call: () => api('GET', `/v2/marketplace/apps/${t.options.clientId}`) },
  'GET /v2/marketplace/apps/:appId/requests': {
    call: () => api('GET', `/v2/marketplace/apps/${t.options.clientId}/requests`),
    allow: {
      error: /request_user_department must match format "email"/,
      why: 'the document gives request_user_department the "email" format, which a department never has',
    },
  },
  'GET /v2/marketplace/monetization/entitlements': {
    call: () => api('GET', '/v2/marketplace/monetization/entitlements'),
  },
  'GET /v2/marketplace/users/:userId/entitlements': {
    call: () => api('GET', '/v2/marketplace/users/me/entitlements'),
  },
  'GET /v2/marketplace/users/:userId/apps': { call: () => api('GET', '/v2/marketplace/users/me/apps') },

  'GET /v2/emails/mailboxes/:email/profile': { call: () => api('GET', `${BOX}/profile`) },
  'GET /v2/emails/mailboxes/:email/messages': { call: () => api('GET', `${BOX}/messages`) },
  'GET /v2/emails/mailboxes/:email/messages/:messageId': {
    call: async () => api('GET', `${BOX}/messages/${await firstMessageId()}`),
  },
  'POST /v2/emails/mailboxes/:email/messages/send': {
    call: () =>
      api('POST', `${BOX}/messages/send`, {
        body: { raw: raw(['To: dana.whitfield@lakeshorelogistics.example', 'Subject: Check', '', 'Body']) },
      }),
  },
  'POST /v2/emails/mailboxes/:email/drafts': {
    call: () =>
      api('POST', `${BOX}/drafts`, {
        body: {
          message: { raw: raw(['To: sam.okafor@meridianfleet.example', 'Subject: Check', '', 'Body']) },
        },
      }),
  },
  'GET /v2/emails/mailboxes/:email/drafts': { call: () => api('GET', `${BOX}/drafts`) },
  'GET /v2/emails/mailboxes/:email/drafts/:draftId': {
    call: async () => api('GET', `${BOX}/drafts/${await newDraft()}`),
  },
  'PUT /v2/emails/mailboxes/:email/drafts/:draftId': {
    call: async () =>
      api('PUT', `${BOX}/drafts/${await newDraft()}`, {
        body: {
          message: { raw: raw(['To: sam.okafor@meridianfleet.example', 'Subject: Changed', '', 'Body']) },
        },
      }),
  },
  'DELETE /v2/emails/mailboxes/:email/drafts/:draftId': {
    call: async () => api('DELETE', `${BOX}/drafts/${await newDraft()}`),
  },
  'POST /v2/emails/mailboxes/:email/drafts/send': {
    call: async () => api('POST', `${BOX}/drafts/send`, { body: { id: await newDraft() } }),
  },
  'GET /v2/emails/mailboxes/:email/threads': { call: () => api('GET', `${BOX}/threads`) },
  'GET /v2/emails/mailboxes/:email/threads/:threadId': {
    call: async () => api('GET', `${BOX}/threads/${(await ok(api('GET', `${BOX}/threads`))).threads[0].id}`),
  },
};

/** Mapped routes the emulator never answers with success, and why (their scopes are still held). */
const NO_SUCCESS: Record<RouteKey, string> = {
  'POST /v2/users/:userId/webinars':
    'the emulator creates no webinars: without a webinar plan it answers 400 code 200 as the platform does, and with one it refuses every body',
};

const unreferenced = new Set(UNREFERENCED.flatMap((u) => u.routes));
const documentedOp = (key: RouteKey) => {
  const { doc, template } = PUBLISHED[key]!;
  return publishedSpec(doc).paths?.[template]?.[key.split(' ')[0]!.toLowerCase()] as
    Record<string, any> | undefined;
};

describe('the inventory of emulated routes', () => {
  it('maps every route the emulator serves to a published operation, or lists it as unreferenced', () => {
    const served = servedRoutes(t.emulator.app);
    expect(served.filter((k) => !(k in PUBLISHED) && !unreferenced.has(k))).toEqual([]);
    // And lists nothing the emulator no longer serves.
    expect([...Object.keys(PUBLISHED), ...unreferenced].filter((k) => !served.includes(k))).toEqual([]);
  });

  it('reads every module route back from the server', () => {
    expect(defs.size).toBeGreaterThan(80);
    const served = servedRoutes(t.emulator.app);
    expect([...defs.keys()].filter((k) => !served.includes(k))).toEqual([]);
  });

  it('drives every mapped route, or says why it has no success answer', () => {
    expect([...Object.keys(DRIVERS), ...Object.keys(NO_SUCCESS)].sort()).toEqual(
      Object.keys(PUBLISHED).sort(),
    );
  });

  it('names every unreferenced route in docs/emulator-fidelity.md', () => {
    const text = readFileSync(FIDELITY_DOC, 'utf8');
    for (const route of unreferenced) expect(text, route).toContain(`${route.split(' ')[1]}\``);
  });

  itWithSpecs('maps each route to an operation its document has, on the same path', () => {
    const shape = (p: string) => p.replace(/\{[^}]+\}|:\w+/g, '{}');
    for (const [key, { doc, template }] of Object.entries(PUBLISHED)) {
      expect(documentedOp(key), `${doc} has no ${key.split(' ')[0]} ${template}`).toBeDefined();
      expect(shape(`/v2${template}`), key).toBe(shape(key.split(' ')[1]!));
    }
  });
});

describe('mapped routes against their documented operation', () => {
  itWithSpecs.each(Object.keys(PUBLISHED))(
    '%s admits every documented scope and the documented rate label',
    (key) => {
      const { doc, template } = PUBLISHED[key]!;
      const def = defs.get(key)!;
      expect(def, key).toBeDefined();
      const scopes = documentedScopes(doc, String(def.method), template);
      expect(scopes.length, key).toBeGreaterThan(0);
      expect(def.scopes).toEqual(expect.arrayContaining(scopes));
      const label = /Rate Limit Label\]\([^)]*\):\*\* `([A-Za-z_ ]+)`/.exec(
        documentedOp(key)?.['description'] ?? '',
      )?.[1];
      if (label) expect(def.label).toBe(label.toUpperCase().replace(/ /g, '_'));
    },
  );

  it.each(Object.keys(DRIVERS))('%s answers success with the documented body', async (key) => {
    const driver = DRIVERS[key]!;
    const res = await driver.call();
    expect(res.status, res.text).toBeGreaterThanOrEqual(200);
    expect(res.status, res.text).toBeLessThan(300);
    if (!specsAvailable) return;
    const { doc, template } = PUBLISHED[key]!;
    const method = key.split(' ')[0]!;
    const success = Object.keys(documentedOp(key)?.['responses'] ?? {}).filter((s) => /^2\d\d$/.test(s));
    expect(success, `${doc} ${method} ${template}: documented success`).toHaveLength(1);
    expect(res.status, res.text).toBe(Number(success[0]));
    if (documentedOp(key)!['responses'][success[0]!]['content']) {
      const errors = checkResponse(doc, method, template, res.status, res.json);
      expect(errors.filter((e) => !driver.allow?.error.test(e))).toEqual([]);
    } else {
      expect(res.text, 'no documented body').toBe('');
    }
  });
});
