/**
 * phone operations against the emulator, run directly; expectations come from the emulator's own
 * answer for the same window (seeded calls show up once they have ended). Every answer is held
 * to the operation's declared output schema.
 */
import { describe, expect, it } from 'vitest';
import { phoneOps } from '../../../src/gateway/capabilities/ops/phone.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const run = async (name: string, input: unknown): Promise<any> => {
  const o = phoneOps.find((x) => x.name === name) as unknown as Operation;
  const result = await o.run(await e.gateway.opContext(), parseInput(o.input, input));
  expectOutput('phone', name, result);
  return result;
};
const fails = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('should have failed'),
    (err: unknown) => err,
  );
const dayOf = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const direct = async (path: string, query: Record<string, string | number>) =>
  (
    await e.emu.api('GET', `/v2/phone/users/me/${path}`, {
      token: e.token,
      query: { page_size: 300, ...query },
    })
  ).json;
const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe('phone', () => {
  it('every operation declares its output and none creates', () => {
    expect(phoneOps.map((o) => o.name)).toEqual([
      'call_logs',
      'voicemails',
      'call_recordings',
      'ai_call_summary',
    ]);
    expect(phoneOps.filter((o) => !o.output).map((o) => o.name)).toEqual([]);
    expect(phoneOps.filter((o) => o.creates).map((o) => o.name)).toEqual([]);
  });

  it('call_logs lists the last 7 days of call history in our shape', async () => {
    const r = await run('call_logs', { limit: 300 });
    const want = (await direct('call_history', { from: dayOf(-7), to: dayOf(0) })).call_logs;
    expect(want.length).toBeGreaterThan(10);
    expect(ids(r.items)).toEqual(ids(want));
    expect(r.nextCursor).toBeNull();
    const answered = r.items.find((c: { result: string }) => c.result === 'answered');
    expect(answered).toEqual({
      id: expect.any(String),
      call_id: expect.any(String),
      direction: expect.stringMatching(/^(inbound|outbound)$/),
      connect_type: expect.stringMatching(/^(internal|external)$/),
      result: 'answered',
      caller_name: expect.any(String),
      caller_number: expect.stringMatching(/^\+\d+$/),
      caller_ext_number:
        answered.direction === 'outbound' ? '1042' : expect.toBeOneOf([null, expect.any(String)]),
      callee_name: expect.any(String),
      callee_number: expect.stringMatching(/^\+\d+$/),
      callee_ext_number:
        answered.direction === 'inbound' ? '1042' : expect.toBeOneOf([null, expect.any(String)]),
      start_time: expect.stringMatching(/Z$/),
      answer_time: expect.stringMatching(/Z$/),
      end_time: expect.stringMatching(/Z$/),
      talk_time: expect.any(Number),
      hold_time: expect.any(Number),
      wait_time: expect.any(Number),
      recording_id: expect.toBeOneOf([null, expect.any(String)]),
      voicemail_id: null,
      ai_call_summary_id: expect.toBeOneOf([null, expect.any(String)]),
    });
  });

  it('pages with nextCursor', async () => {
    const all = ids((await run('call_logs', { limit: 300 })).items);
    const p1 = await run('call_logs', { limit: '4' });
    expect(p1.items).toHaveLength(4);
    expect(p1.nextCursor).toEqual(expect.any(String));
    const p2 = await run('call_logs', { limit: 4, cursor: p1.nextCursor });
    expect([...ids(p1.items), ...ids(p2.items)]).toEqual(all.slice(0, 8));
  });

  it('filters call logs by direction, result, connect type and keyword', async () => {
    const from = dayOf(-14);
    const inbound = (await run('call_logs', { from, direction: 'inbound', limit: 300 })).items;
    expect(inbound.length).toBeGreaterThan(0);
    expect(inbound.every((c: { direction: string }) => c.direction === 'inbound')).toBe(true);
    const missed = (await run('call_logs', { from, result: 'no_answer', limit: 300 })).items;
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.every((c: { result: string }) => c.result === 'no_answer')).toBe(true);
    const internal = (await run('call_logs', { from, connect_type: 'internal', limit: 300 })).items;
    expect(internal.length).toBeGreaterThan(0);
    expect(internal.every((c: { connect_type: string }) => c.connect_type === 'internal')).toBe(true);
    const all = (await run('call_logs', { from, limit: 300 })).items;
    const name = all.find((c: { direction: string }) => c.direction === 'inbound').caller_name as string;
    const hits = (await run('call_logs', { from, keyword: name, limit: 300 })).items;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThan(all.length);
    for (const c of hits) expect([c.caller_name, c.callee_name]).toContain(name);
  });

  it('voicemails lists voicemails with a read-status filter', async () => {
    const from = dayOf(-14);
    const r = await run('voicemails', { from, limit: 300 });
    const want = (await direct('voice_mails', { from, to: dayOf(0) })).voice_mails;
    expect(want.length).toBeGreaterThan(0);
    expect(ids(r.items)).toEqual(ids(want));
    expect(r.items[0]).toEqual({
      id: expect.any(String),
      call_history_id: expect.any(String),
      caller_name: expect.any(String),
      caller_number: expect.any(String),
      callee_name: 'Avery Quinn',
      callee_number: '1042',
      date_time: expect.stringMatching(/Z$/),
      duration: expect.any(Number),
      status: expect.stringMatching(/^(read|unread)$/),
      download_url: expect.stringContaining('/phone/voice_mails/download/'),
    });
    const unread = (await run('voicemails', { from, status: 'unread' })).items;
    expect(unread.length).toBeGreaterThan(0);
    expect(unread.length).toBeLessThan(r.items.length);
    expect(unread.every((v: { status: string }) => v.status === 'unread')).toBe(true);
    expect(unread.length).toBe(r.items.filter((v: { status: string }) => v.status === 'unread').length);
    const none = await run('voicemails', { from: '2020-01-01', to: '2020-01-07' });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('call_recordings lists recordings with their download and transcript URLs', async () => {
    const from = dayOf(-14);
    const r = await run('call_recordings', { from, limit: 300 });
    const want = (await direct('recordings', { from, to: dayOf(0) })).recordings;
    expect(want.length).toBeGreaterThan(0);
    expect(ids(r.items)).toEqual(ids(want));
    expect(r.items[0]).toEqual({
      id: expect.any(String),
      call_history_id: expect.any(String),
      direction: expect.stringMatching(/^(inbound|outbound)$/),
      caller_name: expect.any(String),
      caller_number: expect.any(String),
      callee_name: expect.any(String),
      callee_number: expect.any(String),
      date_time: expect.stringMatching(/Z$/),
      duration: expect.any(Number),
      download_url: expect.stringContaining('/phone/recording/download/'),
      transcript_download_url: expect.stringContaining('/phone/recording_transcript/download/'),
    });
    const p1 = await run('call_recordings', { from, limit: 1 });
    expect(p1.nextCursor).toEqual(expect.any(String));
    const p2 = await run('call_recordings', { from, limit: 1, cursor: p1.nextCursor });
    expect(p2.items[0].id).toBe(r.items[1].id);
  });

  it('ai_call_summary reads the summary named on a call log; unknown ids are not found', async () => {
    const calls = (await run('call_logs', { from: dayOf(-14), limit: 300 })).items;
    const call = calls.find((c: { ai_call_summary_id: string | null }) => c.ai_call_summary_id);
    expect(call).toBeDefined();
    const s = await run('ai_call_summary', { summary_id: call.ai_call_summary_id });
    expect(s).toEqual({
      ai_call_summary_id: call.ai_call_summary_id,
      call_id: call.call_id,
      call_summary: expect.stringContaining('discussed'),
      next_steps: expect.any(String),
      detailed_summary: expect.any(String),
      transcript_language: 'en',
      call_summary_rate: expect.toBeOneOf([null, 'thumb_up', 'thumb_down']),
      created_time: expect.stringMatching(/Z$/),
      modified_time: expect.stringMatching(/Z$/),
      edited: false,
    });
    const err: any = await fails(run('ai_call_summary', { summary_id: 'NoSuchSummary000000000' }));
    expect(err).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('validates windows and filters', async () => {
    for (const [name, input, path] of [
      ['call_logs', { from: dayOf(-40) }, 'from'],
      ['call_logs', { from: dayOf(-1), to: dayOf(-2) }, 'to'],
      ['call_logs', { direction: 'sideways' }, 'direction'],
      ['call_logs', { result: 'maybe' }, 'result'],
      ['voicemails', { status: 'seen' }, 'status'],
      ['call_recordings', { to: '2026-13-01' }, 'to'],
      ['call_recordings', { limit: 301 }, 'limit'],
      ['ai_call_summary', {}, 'summary_id'],
    ] as const) {
      const err: any = await fails(run(name, input));
      expect(err).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(err.details.issues[0].path).toBe(path);
    }
  });
});
