/**
 * Cloud recordings: derived from the meetings slice, validated against the platform's OpenAPI
 * (REST bodies) and webhook documents (recording.* events), with real downloadable files.
 */
import { createServer, type Server } from 'node:http';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef, EmulatorContext } from '../src/context.js';
import { meetingsModule, type MeetingsSlice } from '../src/routes/meetings.js';
import {
  emitRecordingCompleted,
  meetingContent,
  recordingCompletedObject,
  recordingDownloadToken,
  recordingsModule,
  verifyDownloadToken,
} from '../src/routes/recordings.js';
import { usersModule } from '../src/routes/users.js';
import { eventually } from './helpers/wait.js';
import {
  checkResponse,
  documentedScopes,
  itWithSpecs,
  publishedSpec,
  specsAvailable,
} from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, recordingsModule];
const SPEC = 'meeting.json';

let t: TestEmulator;
let token: string;
let hooks: Server;
const received: any[] = [];
beforeAll(async () => {
  hooks = createServer((req, res) => {
    let b = '';
    req.on('data', (c: Buffer) => (b += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(b));
      res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
  const addr = hooks.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/hook`;
  t = await startTestEmulator({ webhookUrl: url }, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((r) => hooks.close(() => r()));
});

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse(SPEC, method, template, status, body), `${method} ${template}`).toEqual([]);

// Webhook bodies against the platform's meeting-events document (unchecked when it is absent).
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormatsModule as unknown as (a: Ajv) => Ajv)(ajv);
if (specsAvailable) ajv.addSchema(publishedSpec('meeting-events.json'), 'events');
const hookValidators = new Map<string, ValidateFunction>();
const checkHook = (envelope: any): string[] => {
  if (!specsAvailable) return [];
  const event = String(envelope.event);
  let v = hookValidators.get(event);
  if (!v) {
    v = ajv.compile({ $ref: `events#/webhooks/${event}/post/requestBody/content/application~1json/schema` });
    hookValidators.set(event, v);
  }
  return v(envelope)
    ? []
    : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
};

const day = (offset: number) =>
  new Date(t.options.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const meetings = () => t.emulator.context.slice<MeetingsSlice>('meetings').meetings;
const recent = async () =>
  (
    await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { from: day(-27), to: day(0), page_size: 300 },
    })
  ).json.meetings;

describe('GET /users/{userId}/recordings', () => {
  it('lists the recordings of ended cloud-recorded meetings, newest first, per the schema', async () => {
    const r = await t.api('GET', '/v2/users/me/recordings', { token, query: { from: day(-27), to: day(0) } });
    expect(r.status).toBe(200);
    fidelity('GET', '/users/{userId}/recordings', 200, r.json);
    expect(r.json).toMatchObject({ from: day(-27), to: day(0), page_size: 30, next_page_token: '' });
    const list = r.json.meetings;
    expect(list.length).toBeGreaterThan(10);
    expect(r.json.total_records).toBe(list.length);
    for (const m of list) {
      expect(typeof m.type).toBe('string');
      expect(typeof m.id).toBe('number');
      expect(m.recording_count).toBe(m.recording_files.length);
      expect(m.total_size).toBe(m.recording_files.reduce((n: number, f: any) => n + f.file_size, 0));
      expect(m.recording_files.map((f: any) => f.file_type).slice(0, 4)).toEqual([
        'MP4',
        'M4A',
        'TRANSCRIPT',
        'CHAT',
      ]);
      expect(m.recording_files[0].meeting_id).toBe(m.uuid);
      expect(m.recording_files[0].download_url).toBe(`${t.base}/v2/rec/download/${m.recording_files[0].id}`);
    }
    const starts = list.map((m: any) => m.start_time);
    expect([...starts].sort().reverse()).toEqual(starts);
    // Stable ids: the same meeting lists the same file ids on every call.
    expect((await recent())[0].recording_files.map((f: any) => f.id)).toEqual(
      list[0].recording_files.map((f: any) => f.id),
    );
    // Only meetings that ended with cloud recording on.
    const ids = new Set(list.map((m: any) => m.id));
    const now = t.options.now().getTime();
    for (const m of meetings()) {
      if (m.start_time < `${day(-27)}T00:00:00Z`) continue;
      const ended = Date.parse(m.start_time) + m.duration * 60_000 < now;
      expect(ids.has(m.id), m.topic).toBe(ended && m.settings['auto_recording'] === 'cloud');
    }
  });

  it('defaults to today..tomorrow and answers at most one month, ending at `to`', async () => {
    const d = await t.api('GET', '/v2/users/me/recordings', { token });
    expect(d.json).toMatchObject({ from: day(0), to: day(1), total_records: 0, meetings: [] });
    const wide = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { from: '2020-01-01', to: '2026-03-31' },
    });
    expect(wide.status).toBe(200);
    expect(wide.json).toMatchObject({ from: '2026-02-28', to: '2026-03-31' });
  });

  it('pages with opaque tokens and rejects a forged one', async () => {
    const first = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { from: day(-27), to: day(0), page_size: 5 },
    });
    expect(first.json.meetings).toHaveLength(5);
    expect(first.json.page_count).toBe(Math.ceil(first.json.total_records / 5));
    expect(first.json.next_page_token).not.toBe('');
    const second = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { from: day(-27), to: day(0), page_size: 5, next_page_token: first.json.next_page_token },
    });
    fidelity('GET', '/users/{userId}/recordings', 200, second.json);
    expect(second.json.meetings[0].uuid).not.toBe(first.json.meetings[0].uuid);
    const bad = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { from: day(-27), to: day(0), next_page_token: 'forged' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
  });

  it('validates its query with code 300, and resolves only the demo user', async () => {
    // A date the document refuses is refused before the list is read; a trash type it does not enumerate, by the list.
    const r = await expectViolation({ where: 'query', name: 'from', rule: 'format date' }, () =>
      t.api('GET', '/v2/users/me/recordings', { token, query: { from: '2026-13-01' } }),
    );
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [{ field: 'from', message: 'Invalid field.' }],
    });
    const trash = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { trash_type: 'everything' },
    });
    expect(trash.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [{ field: 'trash_type', message: 'Invalid field.' }],
    });
    const who = await t.api('GET', '/v2/users/nobody@example.com/recordings', { token });
    expect(who.json).toEqual({ code: 1001, message: 'User does not exist: nobody@example.com.' });
  });
});

describe('GET /meetings/{meetingId}/recordings and downloads', () => {
  it('returns one meeting’s recording, by id or double-encoded UUID, with a download token', async () => {
    const [latest] = await recent();
    const r = await t.api('GET', `/v2/meetings/${latest.id}/recordings`, {
      token,
      query: { include_fields: 'download_access_token', ttl: 3600 },
    });
    expect(r.status).toBe(200);
    fidelity('GET', '/meetings/{meetingId}/recordings', 200, r.json);
    expect(r.json.uuid).toBe(latest.uuid);
    expect(typeof r.json.password).toBe('string');
    expect(verifyDownloadToken(t.emulator.context, r.json.download_access_token)).toEqual({
      meetingUuid: latest.uuid,
    });
    expect(verifyDownloadToken(t.emulator.context, `${r.json.download_access_token}x`)).toBeUndefined();
    const plain = await t.api('GET', `/v2/meetings/${latest.id}/recordings`, { token });
    expect(plain.json.download_access_token).toBeUndefined();
    const byUuid = await t.api(
      'GET',
      `/v2/meetings/${encodeURIComponent(encodeURIComponent(latest.uuid))}/recordings`,
      { token },
    );
    expect(byUuid.json.id).toBe(latest.id);
    const badTtl = await expectViolation({ where: 'query', name: 'ttl', rule: 'maximum 604800' }, () =>
      t.api('GET', `/v2/meetings/${latest.id}/recordings`, {
        token,
        query: { include_fields: 'download_access_token', ttl: 999999 },
      }),
    );
    expect(badTtl.json).toMatchObject({ code: 300, errors: [{ field: 'ttl', message: 'Invalid field.' }] });
  });

  it('404 code 3301 for a meeting without a recording or one that does not exist', async () => {
    const upcoming = meetings().find((m) => Date.parse(m.start_time) > t.options.now().getTime())!;
    for (const id of [upcoming.id, 81234567890]) {
      const r = await t.api('GET', `/v2/meetings/${id}/recordings`, { token });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ code: 3301, message: 'There is no recording for this meeting.' });
    }
  });

  it('serves every file as real bytes matching file_size, with the right content type', async () => {
    const [latest] = await recent();
    const types: Record<string, string> = {};
    for (const f of latest.recording_files) {
      const res = await fetch(f.download_url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, f.file_type).toBe(200);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.length, f.file_type).toBe(f.file_size);
      types[f.file_type] = res.headers.get('content-type') ?? '';
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="GMT\d{8}-\d{6}_/);
      if (f.file_type === 'MP4' || f.file_type === 'M4A') {
        expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
        expect(bytes.subarray(8, 12).toString('latin1')).toBe(f.file_type === 'MP4' ? 'isom' : 'M4A ');
      }
      if (f.file_type === 'TRANSCRIPT') {
        const vtt = bytes.toString('utf8');
        expect(vtt.startsWith('WEBVTT\n\n1\n')).toBe(true);
        const cues = vtt.trim().split('\n\n').slice(1);
        expect(cues.length).toBeGreaterThanOrEqual(5);
        for (const cue of cues)
          expect(cue).toMatch(
            /^\d+\n\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}\n[A-Z][a-z]+ [A-Z][a-z]+: .+$/,
          );
        expect(vtt).toContain('Avery Quinn: ');
      }
      if (f.file_type === 'CHAT')
        expect(bytes.toString('utf8')).toMatch(/^\d{2}:\d{2}:\d{2}\t [A-Z][a-z]+ [A-Z][a-z]+:\t.+\r\n/);
      if (f.file_type === 'SUMMARY')
        expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({
          meeting_id: latest.id,
          next_steps: expect.any(Array),
        });
    }
    expect(types).toMatchObject({
      MP4: 'video/mp4',
      M4A: 'audio/mp4',
      TRANSCRIPT: 'text/vtt; charset=utf-8',
      CHAT: 'text/plain; charset=utf-8',
    });
    const anon = await fetch(latest.recording_files[0].download_url);
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ code: 124, message: 'Requires an access token.' });
  });

  it('writes dialogue about the meeting’s own topic', () => {
    const freight = meetings().find((m) => m.topic === 'Freight lane planning')!;
    const c = meetingContent(freight);
    expect(c.transcript.map((q) => q.text).join(' ')).toContain('Dallas to Memphis');
    expect(c.speakers).toContain('Marcus Bell');
    expect(c.summary.next_steps.length).toBeGreaterThan(0);
    expect(meetingContent(freight)).toEqual(c);
  });
});

describe('GET /meetings/{meetingId}/transcript', () => {
  it('describes the transcript and where to download it', async () => {
    const [latest] = await recent();
    const r = await t.api('GET', `/v2/meetings/${latest.id}/transcript`, { token });
    expect(r.status).toBe(200);
    fidelity('GET', '/meetings/{meetingId}/transcript', 200, r.json);
    const vtt = latest.recording_files.find((f: any) => f.file_type === 'TRANSCRIPT');
    expect(r.json).toMatchObject({
      meeting_id: latest.uuid,
      meeting_topic: latest.topic,
      can_download: true,
      download_url: vtt.download_url,
    });
    expect(r.json.download_restriction_reason).toBeUndefined();
  });

  it('404 code 3322 when there is none', async () => {
    const upcoming = meetings().find((m) => Date.parse(m.start_time) > t.options.now().getTime())!;
    const r = await t.api('GET', `/v2/meetings/${upcoming.id}/transcript`, { token });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ code: 3322, message: 'This meeting transcript does not exist.' });
  });
});

describe('trash, recover and delete', () => {
  it('trashes (204), lists the trash, recovers (200) and deletes for good, with webhooks', async () => {
    const target = (await recent())[2];
    expect(
      (
        await expectViolation({ where: 'query', name: 'action' }, () =>
          t.api('DELETE', `/v2/meetings/${target.id}/recordings`, { token, query: { action: 'shred' } }),
        )
      ).json,
    ).toMatchObject({
      code: 300,
      errors: [{ field: 'action' }],
    });
    expect((await t.api('DELETE', `/v2/meetings/${target.id}/recordings`, { token })).status).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${target.id}/recordings`, { token })).json.code).toBe(3301);
    expect((await recent()).some((m: any) => m.uuid === target.uuid)).toBe(false);
    const trash = await t.api('GET', '/v2/users/me/recordings', { token, query: { trash: 'true' } });
    fidelity('GET', '/users/{userId}/recordings', 200, trash.json);
    const inTrash = trash.json.meetings.find((m: any) => m.uuid === target.uuid);
    expect(inTrash.recording_files.every((f: any) => typeof f.deleted_time === 'string')).toBe(true);
    const tr = await t.api('GET', `/v2/meetings/${target.id}/transcript`, { token });
    fidelity('GET', '/meetings/{meetingId}/transcript', 200, tr.json);
    expect(tr.json).toMatchObject({ can_download: false, download_restriction_reason: 'DELETED_OR_TRASHED' });
    expect(
      (await fetch(target.recording_files[0].download_url, { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(404);

    const recover = await t.api(
      'PUT',
      `/v2/meetings/${encodeURIComponent(encodeURIComponent(target.uuid))}/recordings/status`,
      { token, body: { action: 'recover' } },
    );
    expect(recover.status).toBe(200);
    expect(
      (await t.api('GET', `/v2/meetings/${target.id}/recordings`, { token })).json.recording_files,
    ).toHaveLength(target.recording_count);

    expect(
      (await t.api('DELETE', `/v2/meetings/${target.id}/recordings`, { token, query: { action: 'delete' } }))
        .status,
    ).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${target.id}/transcript`, { token })).json.code).toBe(3322);
    expect((await t.api('DELETE', `/v2/meetings/${target.id}/recordings`, { token })).json.code).toBe(3301);
    const after = await t.api('GET', '/v2/users/me/recordings', { token, query: { trash: 'true' } });
    expect(after.json.meetings.some((m: any) => m.uuid === target.uuid)).toBe(false);

    await eventually(() =>
      expect(received.filter((e) => e.payload?.object?.uuid === target.uuid).map((e) => e.event)).toEqual([
        'recording.trashed',
        'recording.recovered',
        'recording.deleted',
      ]),
    );
    for (const e of received.filter((x) => x.payload?.object?.uuid === target.uuid)) {
      expect(checkHook(e), e.event).toEqual([]);
      expect(e.payload.operator).toBe('avery.quinn@meridianfleet.example');
      expect(e.payload.object.recording_count).toBe(target.recording_count);
    }
  });

  it('trashes and recovers a single file (204 each)', async () => {
    const target = (await recent())[3];
    const chat = target.recording_files.find((f: any) => f.file_type === 'CHAT');
    expect((await t.api('DELETE', `/v2/meetings/${target.id}/recordings/${chat.id}`, { token })).status).toBe(
      204,
    );
    const live = await t.api('GET', `/v2/meetings/${target.id}/recordings`, { token });
    expect(live.json.recording_files.map((f: any) => f.id)).not.toContain(chat.id);
    expect(live.json.recording_count).toBe(target.recording_count - 1);
    const trash = await t.api('GET', '/v2/users/me/recordings', {
      token,
      query: { trash: 'true', trash_type: 'recording_file' },
    });
    expect(
      trash.json.meetings.find((m: any) => m.uuid === target.uuid).recording_files.map((f: any) => f.id),
    ).toEqual([chat.id]);
    expect(
      (await t.api('DELETE', `/v2/meetings/${target.id}/recordings/${chat.id}`, { token })).json.code,
    ).toBe(3301);
    expect(
      (
        await expectViolation({ where: 'body', name: 'action' }, () =>
          t.api('PUT', `/v2/meetings/${target.id}/recordings/${chat.id}/status`, {
            token,
            body: { action: 'undo' },
          }),
        )
      ).json.code,
    ).toBe(300);
    expect(
      (
        await t.api('PUT', `/v2/meetings/${target.id}/recordings/${chat.id}/status`, {
          token,
          body: { action: 'recover' },
        })
      ).status,
    ).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${target.id}/recordings`, { token })).json.recording_count).toBe(
      target.recording_count,
    );
  });

  it('deletes a transcript (204); then 3322 and no TRANSCRIPT file', async () => {
    const target = (await recent())[4];
    expect((await t.api('DELETE', `/v2/meetings/${target.id}/transcript`, { token })).status).toBe(204);
    expect((await t.api('GET', `/v2/meetings/${target.id}/transcript`, { token })).json).toEqual({
      code: 3322,
      message: 'This meeting transcript does not exist.',
    });
    const r = await t.api('GET', `/v2/meetings/${target.id}/recordings`, { token });
    expect(r.json.recording_files.map((f: any) => f.file_type)).not.toContain('TRANSCRIPT');
    expect((await t.api('DELETE', `/v2/meetings/${target.id}/transcript`, { token })).status).toBe(404);
  });
});

describe('recording.completed', () => {
  it('builds the documented object and sends it with a top-level download_token', async () => {
    const [latest] = await recent();
    const m = meetings().find((x) => x.id === latest.id)!;
    const ctx = t.emulator.context;
    const object = recordingCompletedObject(ctx, m);
    const envelope = {
      event: 'recording.completed',
      event_ts: Date.now(),
      payload: { account_id: ctx.demo.accountId, object },
      download_token: recordingDownloadToken(ctx, m),
    };
    expect(checkHook(envelope)).toEqual([]);
    expect(object.recording_files.map((f) => f.file_type)).not.toContain('TRANSCRIPT');
    emitRecordingCompleted(ctx, m);
    await eventually(() =>
      expect(received.filter((e) => e.payload?.object?.uuid === m.uuid).map((e) => e.event)).toEqual([
        'recording.completed',
        'recording.transcript_completed',
      ]),
    );
    for (const e of received.filter((x) => x.payload?.object?.uuid === m.uuid)) {
      expect(checkHook(e), e.event).toEqual([]);
      expect(verifyDownloadToken(ctx, e.download_token)).toEqual({ meetingUuid: m.uuid });
    }
  });
});

describe('scopes', () => {
  const defs: RouteDef[] = [];
  recordingsModule.register({
    route: (d: RouteDef) => defs.push(d),
    demo: { email: 'x@example.com', id: 'x' },
  } as unknown as EmulatorContext);
  const documented: [string, string, string][] = [
    ['GET', '/users/:userId/recordings', '/users/{userId}/recordings'],
    ['GET', '/meetings/:meetingId/recordings', '/meetings/{meetingId}/recordings'],
    ['DELETE', '/meetings/:meetingId/recordings', '/meetings/{meetingId}/recordings'],
    ['PUT', '/meetings/:meetingId/recordings/status', '/meetings/{meetingUUID}/recordings/status'],
    [
      'DELETE',
      '/meetings/:meetingId/recordings/:recordingId',
      '/meetings/{meetingId}/recordings/{recordingId}',
    ],
    [
      'PUT',
      '/meetings/:meetingId/recordings/:recordingId/status',
      '/meetings/{meetingId}/recordings/{recordingId}/status',
    ],
    ['GET', '/meetings/:meetingId/transcript', '/meetings/{meetingId}/transcript'],
    ['DELETE', '/meetings/:meetingId/transcript', '/meetings/{meetingId}/transcript'],
  ];

  itWithSpecs('every route admits every scope the platform lists for it', () => {
    for (const [method, url, template] of documented) {
      const def = defs.find((d) => d.method === method && d.url === url);
      expect(def, `${method} ${url}`).toBeDefined();
      expect(def!.scopes, `${method} ${url}`).toEqual(
        expect.arrayContaining(documentedScopes(SPEC, method, template)),
      );
    }
    expect(defs).toHaveLength(documented.length + 1);
  });

  it('a token with one granular scope reaches its endpoint only', async () => {
    const s = await startTestEmulator({ scopes: ['cloud_recording:read:list_recording_files'] }, MODULES);
    try {
      const tok = (await s.userToken()).access_token;
      const list = await s.api('GET', '/v2/users/me/recordings', {
        token: tok,
        query: { from: day(-27), to: day(0) },
      });
      expect(list.json).toEqual({
        code: 4711,
        message: 'Invalid access token, does not contain scopes:[cloud_recording:read:list_user_recordings].',
      });
      const [m] = await recent();
      const one = await s.api('GET', `/v2/meetings/${m.id}/recordings`, { token: tok });
      expect(one.status).toBe(200);
      const file = await fetch(one.json.recording_files[0].download_url.replace(t.base, s.base), {
        headers: { authorization: `Bearer ${tok}` },
      });
      expect(file.status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
