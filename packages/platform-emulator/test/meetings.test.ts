import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator();
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('meeting.json', method, template, status, body), `${method} ${template}`).toEqual([]);

describe('meetings', () => {
  it('lists seeded meetings with token pagination, per the documented schema', async () => {
    const first = await t.api('GET', '/v2/users/me/meetings', { token, query: { page_size: 10 } });
    expect(first.status).toBe(200);
    fidelity('GET', '/users/{userId}/meetings', 200, first.json);
    expect(first.json.meetings).toHaveLength(10);
    expect(first.json.next_page_token).not.toBe('');
    expect(first.headers.get('x-zm-trackingid')).toBeTruthy();
    const second = await t.api('GET', '/v2/users/me/meetings', {
      token,
      query: { page_size: 10, next_page_token: first.json.next_page_token },
    });
    expect(second.json.meetings[0].id).not.toBe(first.json.meetings[0].id);
    const bad = await t.api('GET', '/v2/users/me/meetings', { token, query: { next_page_token: 'forged' } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
  });

  it('creates (201), gets, updates (204) and deletes (204) a meeting', async () => {
    const created = await t.api('POST', '/v2/users/me/meetings', {
      token,
      body: {
        topic: 'Fleet sync',
        type: 2,
        start_time: '2030-03-04T15:00:00',
        timezone: 'America/Chicago',
        duration: 45,
        agenda: 'x',
      },
    });
    expect(created.status).toBe(201);
    fidelity('POST', '/users/{userId}/meetings', 201, created.json);
    expect(typeof created.json.id).toBe('number');
    expect(created.json.start_time).toBe('2030-03-04T21:00:00Z');
    expect(typeof created.json.pmi).toBe('string');
    const got = await t.api('GET', `/v2/meetings/${created.json.id}`, { token });
    fidelity('GET', '/meetings/{meetingId}', 200, got.json);
    expect(got.json.topic).toBe('Fleet sync');
    expect(
      (await t.api('PATCH', `/v2/meetings/${created.json.id}`, { token, body: { topic: 'Fleet sync v2' } }))
        .status,
    ).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${created.json.id}`, { token })).json.topic).toBe(
      'Fleet sync v2',
    );
    expect((await t.api('DELETE', `/v2/meetings/${created.json.id}`, { token })).status).toBe(204);
    const gone = await t.api('GET', `/v2/meetings/${created.json.id}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ code: 3001, message: `Meeting does not exist: ${created.json.id}.` });
  });

  it('rejects bad input with code 300', async () => {
    const r = await expectViolation({ where: 'body' }, () =>
      t.api('POST', '/v2/users/me/meetings', {
        token,
        body: { topic: 5, start_time: 'tomorrow', duration: 99999 },
      }),
    );
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(300);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'duration',
      'start_time',
      'topic',
    ]);
    const bad = await expectViolation({ where: 'body', rule: 'json' }, () =>
      t.api('POST', '/v2/users/me/meetings', { token, body: '{"topic":' }),
    );
    expect(bad.json).toEqual({ code: 300, message: 'Request Body should be a valid JSON object.' });
  });

  it('registers people on a meeting with registration on', async () => {
    const m = await t.api('POST', '/v2/users/me/meetings', {
      token,
      body: { topic: 'Open house', start_time: '2030-01-01T10:00:00Z', settings: { approval_type: 0 } },
    });
    const reg = await t.api('POST', `/v2/meetings/${m.json.id}/registrants`, {
      token,
      body: { email: 'pat@example.com', first_name: 'Pat' },
    });
    expect(reg.status).toBe(201);
    fidelity('POST', '/meetings/{meetingId}/registrants', 201, reg.json);
    const list = await t.api('GET', `/v2/meetings/${m.json.id}/registrants`, { token });
    fidelity('GET', '/meetings/{meetingId}/registrants', 200, list.json);
    expect(list.json.total_records).toBe(1);
  });

  it('serves upcoming meetings, past meetings and summaries', async () => {
    const up = await t.api('GET', '/v2/users/me/upcoming_meetings', { token });
    fidelity('GET', '/users/{userId}/upcoming_meetings', 200, up.json);
    expect(up.json.total_records).toBeGreaterThan(5);
    const prev = await t.api('GET', '/v2/users/me/meetings', { token, query: { type: 'previous_meetings' } });
    const pastId = prev.json.meetings[0].id;
    const past = await t.api('GET', `/v2/past_meetings/${pastId}`, { token });
    fidelity('GET', '/past_meetings/{meetingId}', 200, past.json);
    const summary = await t.api('GET', `/v2/meetings/${pastId}/meeting_summary`, { token });
    fidelity('GET', '/meetings/{meetingId}/meeting_summary', 200, summary.json);
    expect(summary.json.next_steps.length).toBeGreaterThan(0);
  });

  it('has no webinar scopes by default, and no webinar plan when they are granted', async () => {
    const r = await t.api('GET', '/v2/users/me/webinars', { token });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(4711);
    expect(r.json.message).toContain('webinar:read:list_webinars');
    const withScopes = await startTestEmulator({ scopes: ['webinar:read:list_webinars', 'meeting:read'] });
    try {
      const tok = (await withScopes.userToken()).access_token;
      const w = await withScopes.api('GET', '/v2/users/me/webinars', { token: tok });
      expect(w.status).toBe(400);
      expect(w.json.code).toBe(200);
      expect(w.json.message).toMatch(/^Webinar plan is missing/);
    } finally {
      await withScopes.close();
    }
  });
});
