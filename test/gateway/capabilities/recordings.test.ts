/**
 * recordings operations against the emulator: run directly (the index files are wired later),
 * with inputs parsed the way invoke parses them; every answer is held to the declared output.
 */
import { describe, expect, it } from 'vitest';
import { monthsBefore, recordingsOps, vttToText } from '../../../src/gateway/capabilities/ops/recordings.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const op = (name: string) => recordingsOps.find((o) => o.name === name) as unknown as Operation;
const run = async (name: string, input: unknown): Promise<any> => {
  const out = await op(name).run(await e.gateway.opContext(), parseInput(op(name).input, input));
  expectOutput('recordings', name, out);
  return out;
};
const fails = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('should have failed'),
    (err: unknown) => err,
  );
const dayOf = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const listCalls = async () =>
  ((await e.emu.api('GET', '/_sandbox/stats')).json.requests['GET /v2/users/me/recordings'] ?? 0) as number;

describe('month windows', () => {
  it('step back whole calendar months, clamped to the shorter month as the platform counts', () => {
    expect(monthsBefore('2026-01-15', 1)).toBe('2025-12-15');
    expect(monthsBefore('2024-03-31', 1)).toBe('2024-02-29');
    expect(monthsBefore('2023-03-31', 1)).toBe('2023-02-28');
    expect(monthsBefore('2100-03-30', 1)).toBe('2100-02-28');
    expect(monthsBefore('2000-03-30', 1)).toBe('2000-02-29');
    expect(monthsBefore('2026-08-31', 6)).toBe('2026-02-28');
    expect(monthsBefore('2026-11-24', 0)).toBe('2026-11-24');
  });
});

describe('recordings', () => {
  it('list_user_recordings lists the last 30 days, newest first, in our shape', async () => {
    const r = await run('list_user_recordings', {});
    expect(r.items).toHaveLength(18);
    expect(r.nextCursor).toBeNull();
    expect(r.items[0]).toEqual({
      video_id: expect.stringMatching(/^\d+$/),
      uuid: expect.any(String),
      topic: expect.any(String),
      start_time: expect.stringMatching(/Z$/),
      duration: expect.any(Number),
      total_size: expect.any(Number),
      files: 5,
    });
    const starts = r.items.map((i: { start_time: string }) => i.start_time);
    expect([...starts].sort().reverse()).toEqual(starts);
  });

  it('pages with nextCursor', async () => {
    const all = (await run('list_user_recordings', { limit: 300 })).items;
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await run('list_user_recordings', { limit: '5', ...(cursor ? { cursor } : {}) });
      expect(r.items.length).toBeLessThanOrEqual(5);
      seen.push(...r.items.map((i: { uuid: string }) => i.uuid));
      cursor = r.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(all.map((i: { uuid: string }) => i.uuid));
  });

  it('walks a range longer than a month one month at a time, across pages', async () => {
    // Two older recorded meetings, 45 and 75 days ago, in the second and third month-windows.
    const made: string[] = [];
    for (const [back, topic] of [
      [45, 'Older review A'],
      [75, 'Older review B'],
    ] as const) {
      const r = await e.emu.api('POST', '/v2/users/me/meetings', {
        token: e.token,
        body: {
          topic,
          type: 2,
          start_time: `${dayOf(-back)}T15:00:00Z`,
          duration: 30,
          settings: { auto_recording: 'cloud' },
        },
      });
      expect(r.status).toBe(201);
      made.push(String(r.json.id));
    }
    const before = await listCalls();
    const whole = await run('list_user_recordings', { from: dayOf(-100), limit: 300 });
    expect(whole.items).toHaveLength(20);
    expect(whole.nextCursor).toBeNull();
    expect(whole.items.slice(-2).map((i: { video_id: string }) => i.video_id)).toEqual(made);
    // 100 days back from today: four month-windows, one request each.
    expect((await listCalls()) - before).toBe(4);

    const p1 = await run('list_user_recordings', { from: dayOf(-100), limit: 19 });
    expect(p1.items).toHaveLength(19);
    expect(p1.items[18].video_id).toBe(made[0]);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const p2 = await run('list_user_recordings', { limit: 19, cursor: p1.nextCursor });
    expect(p2.items.map((i: { video_id: string }) => i.video_id)).toEqual([made[1]]);
    expect(p2.nextCursor).toBeNull();

    // An explicit window with nothing in it.
    const none = await run('list_user_recordings', { from: dayOf(-200), to: dayOf(-150) });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('validates dates, the 6-month bound, paging and cursors', async () => {
    for (const [input, path] of [
      [{ from: '2026-02-30' }, 'from'],
      [{ to: 'yesterday' }, 'to'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 301 }, 'limit'],
      [{ from: dayOf(-1), to: dayOf(-2) }, 'to'],
      [{ from: dayOf(-200), to: dayOf(0) }, 'from'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
    ] as const) {
      const err: any = await fails(run('list_user_recordings', input));
      expect(err).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(err.details.issues[0].path).toBe(path);
    }
  });

  it('get_recording and list_recording_files read one meeting by ID or UUID', async () => {
    const first = (await run('list_user_recordings', { limit: 300 })).items;
    const withSlash = first.find((i: { uuid: string }) => i.uuid.includes('/')) ?? first[0];
    const byId = await run('get_recording', { video_id: withSlash.video_id });
    expect(byId).toMatchObject({
      video_id: withSlash.video_id,
      uuid: withSlash.uuid,
      topic: withSlash.topic,
      share_url: expect.any(String),
    });
    expect(byId.files.map((f: { file_type: string }) => f.file_type)).toEqual([
      'MP4',
      'M4A',
      'TRANSCRIPT',
      'CHAT',
      'SUMMARY',
    ]);
    expect(byId.files[2]).toEqual({
      id: expect.any(String),
      file_type: 'TRANSCRIPT',
      file_extension: 'VTT',
      file_size: expect.any(Number),
      recording_type: 'audio_transcript',
      download_url: expect.stringContaining('/v2/rec/download/'),
      status: 'completed',
    });
    const byUuid = await run('get_recording', { video_id: withSlash.uuid });
    expect(byUuid).toEqual(byId);
    const files = await run('list_recording_files', { video_id: withSlash.uuid });
    expect(files).toEqual({ items: byId.files, nextCursor: null });
  });

  it('meeting_transcript gives the metadata and a download URL whose VTT reads as text', async () => {
    const m = (await run('list_user_recordings', { limit: 1 })).items[0];
    const t = await run('meeting_transcript', { video_id: m.video_id });
    expect(t).toEqual({
      video_id: m.video_id,
      uuid: m.uuid,
      topic: m.topic,
      transcript_created_time: expect.stringMatching(/Z$/),
      can_download: true,
      download_url: expect.stringContaining('/v2/rec/download/'),
      download_restriction_reason: null,
      text: expect.any(String),
    });
    const vtt = await fetch(t.download_url, { headers: { authorization: `Bearer ${e.token}` } });
    expect(vtt.headers.get('content-type')).toContain('text/vtt');
    const text = vttToText(await vtt.text());
    expect(text.split('\n').length).toBeGreaterThan(2);
    expect(text).not.toMatch(/-->|WEBVTT/);
    expect(text.split('\n')[0]).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+: \S/);
    // The operation downloaded the same file itself, with the gateway's token.
    expect(t.text).toBe(text);
  });

  it('maps the platform not-found errors and rejects bad ids', async () => {
    for (const name of ['get_recording', 'list_recording_files', 'meeting_transcript']) {
      const err: any = await fails(run(name, { video_id: '81234567890' }));
      expect(err).toMatchObject({ code: 'not_found', status: 404 });
      expect(err.details.platformStatus).toBe(404);
      const bad: any = await fails(run(name, { video_id: 'no spaces!' }));
      expect(bad.code).toBe('validation_failed');
    }
  });
});
