import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetingsModule } from '../src/routes/meetings.js';
import { PHONE_SCOPES, phoneModule } from '../src/routes/phone.js';
import { usersModule } from '../src/routes/users.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

// The Phone OpenAPI is not among the test fixtures, so the documented fields are spelled out
// here (platform-api.md §4.11 plus the Phone API reference): name → type or enum. Fields marked
// with `?` may be absent (the platform leaves out what does not apply to a call).
interface Spec {
  [field: string]: 'string' | 'integer' | 'boolean' | 'date-time' | 'date' | string[] | Spec;
}
const MODULES = [usersModule, meetingsModule, phoneModule];
const EXT_TYPES = [
  'user',
  'call_queue',
  'auto_receptionist',
  'common_area',
  'zoom_room',
  'cisco_room',
  'shared_line_group',
  'group_call_pickup',
  'external_contact',
];
const NUMBER_TYPES = [
  'zoom_pstn',
  'zoom_toll_free_number',
  'external_pstn',
  'external_contact',
  'byoc',
  'byop',
  'zoom_service_number',
  'external_service_number',
];
const RESULTS = [
  'answered',
  'accepted',
  'picked_up',
  'connected',
  'succeeded',
  'voicemail',
  'hang_up',
  'canceled',
  'call_failed',
  'unconnected',
  'rejected',
  'busy',
  'ring_timeout',
  'overflowed',
  'no_answer',
  'invalid_key',
  'invalid_operation',
  'abandoned',
  'system_blocked',
  'service_unavailable',
];
const party = (p: string): Spec => ({
  [`${p}_ext_id?`]: 'string',
  [`${p}_name`]: 'string',
  [`${p}_email?`]: 'string',
  [`${p}_did_number`]: 'string',
  [`${p}_ext_number?`]: 'string',
  [`${p}_ext_type?`]: EXT_TYPES,
  [`${p}_number_type`]: NUMBER_TYPES,
  [`${p}_country_iso_code?`]: 'string',
  [`${p}_country_code?`]: 'string',
});
const CALL_HISTORY_ENTRY: Spec = {
  id: 'string',
  call_path_id: 'string',
  call_id: 'string',
  'group_id?': 'string',
  connect_type: ['internal', 'external'],
  call_type: ['general', 'emergency'],
  direction: ['inbound', 'outbound'],
  ...party('caller'),
  ...party('callee'),
  start_time: 'date-time',
  'answer_time?': 'date-time',
  end_time: 'date-time',
  event: ['incoming', 'outgoing'],
  result: RESULTS,
  'recording_id?': 'string',
  'recording_type?': ['ad-hoc', 'automatic'],
  'voicemail_id?': 'string',
  talk_time: 'integer',
  hold_time: 'integer',
  wait_time: 'integer',
};
const PAGING: Spec = {
  next_page_token: 'string',
  page_count: 'integer',
  page_size: 'integer',
  total_records: 'integer',
  from: 'string',
  to: 'string',
};
const VOICEMAIL: Spec = {
  id: 'string',
  call_id: 'string',
  call_log_id: 'string',
  call_history_id: 'string',
  call_element_id: 'string',
  caller_name: 'string',
  caller_number: 'string',
  caller_number_type: [1, 2].map(String),
  callee_name: 'string',
  callee_number: 'string',
  callee_number_type: [1, 2, 3].map(String),
  date_time: 'date-time',
  download_url: 'string',
  duration: 'integer',
  status: ['read', 'unread'],
};
const RECORDING: Spec = {
  id: 'string',
  call_id: 'string',
  call_log_id: 'string',
  call_history_id: 'string',
  caller_name: 'string',
  caller_number: 'string',
  caller_number_type: [1, 2].map(String),
  callee_name: 'string',
  callee_number: 'string',
  callee_number_type: [1, 2, 3].map(String),
  'outgoing_by?': { name: 'string', extension_number: 'string' },
  'accepted_by?': { name: 'string', extension_number: 'string' },
  date_time: 'date-time',
  direction: ['inbound', 'outbound'],
  download_url: 'string',
  transcript_download_url: 'string',
  duration: 'integer',
};
const AI_SUMMARY: Spec = {
  ai_call_summary_id: 'string',
  account_id: 'string',
  call_id: 'string',
  user_id: 'string',
  'call_summary_rate?': ['thumb_up', 'thumb_down'],
  transcript_language: 'string',
  call_summary: 'string',
  next_steps: 'string',
  detailed_summary: 'string',
  created_time: 'date-time',
  modified_time: 'date-time',
  edited: 'boolean',
};
const LEGACY_CALL_LOG: Spec = {
  id: 'string',
  call_id: 'string',
  user_id: 'string',
  caller_name: 'string',
  caller_number: 'string',
  caller_number_type: [1, 2].map(String),
  callee_name: 'string',
  callee_number: 'string',
  callee_number_type: [1, 2, 3].map(String),
  date_time: 'date-time',
  call_end_time: 'date-time',
  direction: ['inbound', 'outbound'],
  duration: 'integer',
  result: ['Call connected', 'Voicemail', 'Missed', 'No Answer', 'Busy'],
  path: 'string',
  'recording_type?': ['OnDemand', 'Automatic'],
  site: { id: 'string', name: 'string' },
};

/** Checks each documented field's presence and type; returns readable problems ([] when fine). */
function shape(body: unknown, spec: Spec, at = ''): string[] {
  if (typeof body !== 'object' || body === null) return [`${at || '/'} is not an object`];
  const obj = body as Record<string, unknown>;
  const problems: string[] = [];
  for (const [key, want] of Object.entries(spec)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const v = obj[name];
    const path = `${at}/${name}`;
    if (v === undefined) {
      if (!optional) problems.push(`${path} missing`);
      continue;
    }
    if (Array.isArray(want)) {
      if (!want.includes(typeof v === 'number' ? String(v) : (v as string)))
        problems.push(`${path} = ${JSON.stringify(v)} not in ${want.join('|')}`);
      if (typeof v !== (typeof want[0] === 'string' && /^\d+$/.test(want[0]) ? 'number' : 'string'))
        problems.push(`${path} has type ${typeof v}`);
    } else if (typeof want === 'object') {
      problems.push(...shape(v, want, path));
    } else if (want === 'integer') {
      if (!Number.isInteger(v)) problems.push(`${path} is not an integer`);
    } else if (want === 'date-time') {
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v))
        problems.push(`${path} is not a date-time: ${JSON.stringify(v)}`);
    } else if (want === 'date') {
      if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(v))
        problems.push(`${path} is not a date: ${JSON.stringify(v)}`);
    } else if (typeof v !== want) problems.push(`${path} has type ${typeof v}, not ${String(want)}`);
  }
  return problems;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const RANGE = { from: day(-15), to: day(0) };

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

describe('phone call history', () => {
  it('lists two weeks of calls with the documented fields, paginated by token', async () => {
    const first = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, page_size: 15 },
    });
    expect(first.status).toBe(200);
    expect(shape(first.json, { ...PAGING, call_logs: {} })).toEqual([]);
    expect(first.json).toMatchObject({ from: RANGE.from, to: RANGE.to, page_size: 15 });
    expect(first.json.total_records).toBeGreaterThanOrEqual(38);
    expect(first.json.page_count).toBe(Math.ceil(first.json.total_records / 15));
    expect(first.json.call_logs).toHaveLength(15);
    for (const e of first.json.call_logs) expect(shape(e, CALL_HISTORY_ENTRY)).toEqual([]);
    const starts = first.json.call_logs.map((e: any) => e.start_time);
    expect([...starts].sort().reverse()).toEqual(starts);

    const second = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, page_size: 15, next_page_token: first.json.next_page_token },
    });
    expect(second.status).toBe(200);
    expect(second.json.call_logs[0].id).not.toBe(first.json.call_logs[0].id);
    const forged = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, next_page_token: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });

    const all = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, page_size: 300 },
    });
    const results = new Set(all.json.call_logs.map((e: any) => e.result));
    expect([...results].sort()).toEqual(expect.arrayContaining(['answered', 'no_answer', 'voicemail']));
    expect(new Set(all.json.call_logs.map((e: any) => e.direction))).toEqual(
      new Set(['inbound', 'outbound']),
    );
    expect(all.json.call_logs.filter((e: any) => e.recording_id)).toHaveLength(10);
    expect(all.json.call_logs.filter((e: any) => e.voicemail_id)).toHaveLength(8);
  });

  it('defaults to the last 24 hours and filters like the platform', async () => {
    // The seeded calls sit at fixed hours, so the last 24 hours may hold none at some times of
    // day: the emulator's clock goes to an hour after the latest call for this request.
    const seeded = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, page_size: 300 },
    });
    const starts = seeded.json.call_logs.map((e: any) => Date.parse(e.start_time)) as number[];
    const shift = Math.max(...starts) + 3_600_000 - t.options.now().getTime();
    t.advance(shift);
    try {
      const now = t.options.now().getTime();
      const recent = await t.api('GET', '/v2/phone/users/me/call_history', { token });
      expect(recent.status).toBe(200);
      expect(recent.json.to).toBe(new Date(now).toISOString().slice(0, 10));
      expect(recent.json.call_logs.length).toBeGreaterThan(0);
      expect(recent.json.call_logs.length).toBe(
        starts.filter((at) => at >= now - 86_400_000 && at <= now).length,
      );
      for (const e of recent.json.call_logs)
        expect(now - Date.parse(e.start_time)).toBeLessThanOrEqual(86_400_000);
    } finally {
      t.advance(-shift);
    }
    const out = await t.api(
      'GET',
      `/v2/phone/users/me/call_history?from=${RANGE.from}&to=${RANGE.to}&directions=outbound&call_results=answered`,
      { token },
    );
    expect(out.json.total_records).toBeGreaterThan(0);
    expect(out.json.call_logs.length).toBeGreaterThan(0);
    for (const e of out.json.call_logs) expect([e.direction, e.result]).toEqual(['outbound', 'answered']);
    const recorded = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, recording_status: 'recorded' },
    });
    expect(recorded.json.total_records).toBe(10);
    const kw = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, keyword: 'Lakeshore' },
    });
    expect(kw.json.call_logs.length).toBeGreaterThan(0);
    for (const e of kw.json.call_logs) expect([e.caller_name, e.callee_name]).toContain('Dana Whitfield');
  });

  it('rejects bad parameters and unknown users with the documented codes', async () => {
    const noTo = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { from: RANGE.from },
    });
    expect(noTo.status).toBe(400);
    expect(noTo.json).toEqual({ code: 301, message: 'Invalid request param: to.' });
    const dir = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, directions: 'sideways' },
    });
    expect(dir.json).toEqual({ code: 301, message: 'Invalid request param: directions.' });
    const nobody = await t.api('GET', '/v2/phone/users/nobody@example.com/call_history', { token });
    expect(nobody.status).toBe(404);
    expect(nobody.json).toEqual({ code: 300, message: 'User does not exist: nobody@example.com.' });
  });

  it('returns the call path of one call', async () => {
    const list = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, page_size: 5 },
    });
    const entry = list.json.call_logs[0];
    const got = await t.api('GET', `/v2/phone/call_history/${entry.id}`, { token });
    expect(got.status).toBe(200);
    const detail: Spec = {
      id: 'string',
      call_history_uuid: 'string',
      call_id: 'string',
      direction: ['inbound', 'outbound'],
      connect_type: ['internal', 'external'],
      start_time: 'date-time',
      end_time: 'date-time',
      site_id: 'string',
      site_name: 'string',
    };
    expect(shape(got.json, detail)).toEqual([]);
    expect(got.json).toMatchObject({ id: entry.id, call_history_uuid: entry.id, call_id: entry.call_id });
    expect(got.json.call_path).toHaveLength(1);
    expect(
      shape(got.json.call_path[0], {
        id: 'string',
        call_id: 'string',
        result: RESULTS,
        event: ['incoming', 'outgoing'],
        waiting_time: 'integer',
        hold_time: 'integer',
      }),
    ).toEqual([]);
    const missing = await t.api(
      'GET',
      '/v2/phone/call_history/20200101-00000000-0000-4000-8000-000000000000',
      { token },
    );
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 404, message: 'Call Log does not exist.' });
  });

  it('serves the legacy call logs', async () => {
    const r = await t.api('GET', '/v2/phone/users/me/call_logs', {
      token,
      query: { ...RANGE, page_size: 300 },
    });
    expect(r.status).toBe(200);
    expect(shape(r.json, { ...PAGING, call_logs: {} })).toEqual([]);
    for (const e of r.json.call_logs) expect(shape(e, LEGACY_CALL_LOG)).toEqual([]);
    const missed = await t.api('GET', '/v2/phone/users/me/call_logs', {
      token,
      query: { ...RANGE, type: 'missed' },
    });
    expect(missed.json.total_records).toBeGreaterThan(0);
    expect(missed.json.call_logs.length).toBeGreaterThan(0);
    for (const e of missed.json.call_logs) expect(['Missed', 'Voicemail']).toContain(e.result);
    const forged = await t.api('GET', '/v2/phone/users/me/call_logs', {
      token,
      query: { next_page_token: 'forged' },
    });
    expect(forged.json).toEqual({ code: 400, message: 'The next page token is invalid or expired.' });
  });
});

describe('phone voicemails, recordings and AI call summaries', () => {
  it('lists voicemails by status and marks one read (204), which persists', async () => {
    const all = await t.api('GET', '/v2/phone/users/me/voice_mails', { token });
    expect(all.status).toBe(200);
    expect(shape(all.json, { ...PAGING, from: 'date', to: 'date', voice_mails: {} })).toEqual([]);
    expect(all.json.total_records).toBe(8);
    for (const v of all.json.voice_mails) expect(shape(v, VOICEMAIL)).toEqual([]);
    const unread = await t.api('GET', '/v2/phone/users/me/voice_mails', {
      token,
      query: { status: 'unread' },
    });
    expect(unread.json.total_records).toBe(3);
    const id = unread.json.voice_mails[0].id;

    const detail = await t.api('GET', `/v2/phone/voice_mails/${id}`, { token });
    expect(
      shape(detail.json, {
        ...VOICEMAIL,
        transcription: { content: 'string', status: 'integer', engine: 'string' },
      }),
    ).toEqual([]);
    expect(detail.json.transcription.content).toMatch(/^Hi Avery, this is /);

    const bad = await t.api('PATCH', `/v2/phone/voice_mails/${id}`, {
      token,
      query: { read_status: 'seen' },
    });
    expect(bad.json).toEqual({ code: 400, message: 'The read status is invalid.' });
    expect(
      (await t.api('PATCH', `/v2/phone/voice_mails/${id}`, { token, query: { read_status: 'Read' } })).status,
    ).toBe(204);
    expect((await t.api('GET', `/v2/phone/voice_mails/${id}`, { token })).json.status).toBe('read');
    expect(
      (await t.api('GET', '/v2/phone/users/me/voice_mails', { token, query: { status: 'unread' } })).json
        .total_records,
    ).toBe(2);

    const status = await t.api('GET', '/v2/phone/users/me/voice_mails', { token, query: { status: 'new' } });
    expect(status.json).toEqual({ code: 300, message: 'Invalid parameter: status.' });
    const missing = await t.api('GET', '/v2/phone/voice_mails/0000', { token });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ code: 300, message: 'Voice mail does not exist: 0000.' });
    const nobody = await t.api('GET', '/v2/phone/users/nobody/voice_mails', { token });
    expect(nobody.json).toEqual({ code: 1001, message: 'User does not exist: nobody.' });
  });

  it('downloads voicemail audio', async () => {
    const list = await t.api('GET', '/v2/phone/users/me/voice_mails', { token });
    const url = new URL(list.json.voice_mails[0].download_url);
    expect(url.origin).toBe(t.base);
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0xff, 0xfb]);
    const gone = await t.api('GET', '/v2/phone/voice_mails/download/nope', { token });
    expect(gone.status).toBe(400);
    expect(gone.json).toEqual({ code: 404, message: 'File does not exist.' });
  });

  it('lists recordings, downloads one and its transcript', async () => {
    const r = await t.api('GET', '/v2/phone/users/me/recordings', { token, query: { page_size: 4 } });
    expect(r.status).toBe(200);
    expect(shape(r.json, { ...PAGING, from: 'date', to: 'date', recordings: {} })).toEqual([]);
    expect(r.json.total_records).toBe(10);
    expect(r.json.recordings).toHaveLength(4);
    for (const rec of r.json.recordings) expect(shape(rec, RECORDING)).toEqual([]);
    const p2 = await t.api('GET', '/v2/phone/users/me/recordings', {
      token,
      query: { page_size: 4, next_page_token: r.json.next_page_token },
    });
    expect(p2.json.recordings[0].id).not.toBe(r.json.recordings[0].id);

    const audio = await fetch(r.json.recordings[0].download_url, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const redirect = await fetch(r.json.recordings[0].transcript_download_url, {
      headers: { authorization: `Bearer ${token}` },
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    const transcript = await fetch(r.json.recordings[0].transcript_download_url, {
      headers: { authorization: `Bearer ${token}` },
    });
    const tj: any = await transcript.json();
    expect(tj).toMatchObject({ type: 'zoom_transcript', ver: 1, recording_id: r.json.recordings[0].id });
    expect(tj.timeline.length).toBeGreaterThan(2);
  });

  it('returns the AI call summary a recorded call points to', async () => {
    const all = await t.api('GET', '/v2/phone/users/me/call_history', {
      token,
      query: { ...RANGE, recording_status: 'recorded' },
    });
    const entry = all.json.call_logs.find((e: any) => e.ai_call_summary_id);
    const s = await t.api('GET', `/v2/phone/user/me/ai_call_summary/${entry.ai_call_summary_id}`, { token });
    expect(s.status).toBe(200);
    expect(shape(s.json, AI_SUMMARY)).toEqual([]);
    expect(s.json).toMatchObject({ ai_call_summary_id: entry.ai_call_summary_id, call_id: entry.call_id });
    const missing = await t.api('GET', '/v2/phone/user/me/ai_call_summary/nope', { token });
    expect(missing.status).toBe(404);
  });
});

describe('phone scopes and rate limits', () => {
  it('lists the documented scopes and admits a token with only a granular one', async () => {
    expect(PHONE_SCOPES.callHistory).toEqual(
      expect.arrayContaining([
        'phone:read:list_call_logs',
        'phone:read:list_call_logs:admin',
        'phone:read:admin',
        'phone_call_log:read',
      ]),
    );
    expect(PHONE_SCOPES.voicemails).toEqual(
      expect.arrayContaining([
        'phone:read:list_voicemails',
        'phone:read:list_voicemails:admin',
        'phone:read',
        'phone_voicemail:read',
      ]),
    );
    expect(PHONE_SCOPES.recordings).toEqual(
      expect.arrayContaining([
        'phone:read:list_recordings',
        'phone:read:list_recordings:admin',
        'phone:read',
        'phone_recording:read',
      ]),
    );
    expect(PHONE_SCOPES.aiSummary).toEqual(
      expect.arrayContaining([
        'phone:read:ai_call_summary',
        'phone:read:ai_call_summary:admin',
        'phone:read',
      ]),
    );
    expect(PHONE_SCOPES.callPath).toEqual(
      expect.arrayContaining(['phone:read:call_log:admin', 'phone:read:admin']),
    );
    const narrow = await startTestEmulator({ scopes: ['phone:read:list_call_logs'] }, MODULES);
    try {
      const tok = (await narrow.userToken()).access_token;
      expect((await narrow.api('GET', '/v2/phone/users/me/call_history', { token: tok })).status).toBe(200);
      expect((await narrow.api('GET', '/v2/phone/users/me/call_logs', { token: tok })).status).toBe(200);
      const vm = await narrow.api('GET', '/v2/phone/users/me/voice_mails', { token: tok });
      expect(vm.status).toBe(400);
      expect(vm.json).toEqual({
        code: 4711,
        message: 'Invalid access token, does not contain scopes:[phone:read:list_voicemails].',
      });
    } finally {
      await narrow.close();
    }
  });

  it('applies the lower Phone limits (MEDIUM: 10 a second)', async () => {
    const frozen = new Date();
    const limited = await startTestEmulator({ rateLimits: true, now: () => frozen }, MODULES);
    try {
      const tok = (await limited.userToken()).access_token;
      const statuses = [];
      for (let i = 0; i < 11; i++)
        statuses.push((await limited.api('GET', '/v2/phone/users/me/voice_mails', { token: tok })).status);
      expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
