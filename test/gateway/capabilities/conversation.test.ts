/**
 * conversation operations (one past meeting) against the emulator, run directly.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { conversationOps } from '../../../src/gateway/capabilities/ops/conversation.js';
import { recordingsOps } from '../../../src/gateway/capabilities/ops/recordings.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();
let past: { video_id: string; uuid: string; topic: string; start_time: string; duration: number };
beforeAll(async () => {
  past = (await run('list_user_recordings', { limit: 1 }, recordingsOps)).items[0];
});

/** Runs an operation and holds its answer to its declared output. */
const run = async (name: string, input: unknown, ops: readonly unknown[] = conversationOps): Promise<any> => {
  const o = ops.find((x) => (x as Operation).name === name) as Operation;
  const r = await o.run(await e.gateway.opContext(), parseInput(o.input, input));
  if (ops === conversationOps) expectOutput('conversation', name, r);
  return r;
};
const fails = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('should have failed'),
    (err: unknown) => err,
  );

describe('conversation', () => {
  it('every operation declares its output', () => {
    for (const o of conversationOps) expect(o.output, o.name).toBeDefined();
  });

  it('metadata gives the past meeting and its head count', async () => {
    const m = await run('metadata', { video_id: past.video_id });
    expect(m).toEqual({
      video_id: past.video_id,
      uuid: past.uuid,
      topic: past.topic,
      type: 2,
      start_time: past.start_time,
      end_time: expect.stringMatching(/Z$/),
      duration: past.duration,
      participants_count: expect.any(Number),
      host_name: 'Avery Quinn',
      host_email: expect.stringContaining('@'),
      has_meeting_summary: true,
    });
    const direct = await e.emu.api('GET', `/v2/past_meetings/${past.video_id}`, { token: e.token });
    expect(m.participants_count).toBe(direct.json.participants_count);
    expect(await run('metadata', { video_id: past.uuid })).toEqual(m);
  });

  it('summary gives the AI summary in our shape', async () => {
    const s = await run('summary', { video_id: past.video_id });
    expect(s).toEqual({
      video_id: past.video_id,
      title: expect.stringContaining(past.topic),
      overview: expect.any(String),
      details: expect.arrayContaining([{ label: expect.any(String), summary: expect.any(String) }]),
      next_steps: expect.arrayContaining([expect.any(String)]),
    });
    expect(s.details.length).toBeGreaterThan(0);
  });

  it('transcript is the recordings meeting_transcript', async () => {
    const t = await run('transcript', { video_id: past.video_id });
    expect(t).toEqual(await run('meeting_transcript', { video_id: past.video_id }, recordingsOps));
    expect(t.download_url).toEqual(expect.stringContaining('/v2/rec/download/'));
  });

  it('maps not found (unknown meeting, or one that has not happened) and validates', async () => {
    for (const name of ['metadata', 'summary', 'transcript']) {
      const err: any = await fails(run(name, { video_id: '81234567890' }));
      expect(err).toMatchObject({ code: 'not_found', status: 404 });
      expect(((await fails(run(name, {}))) as any).code).toBe('validation_failed');
    }
    const upcoming = await e.emu.api('POST', '/v2/users/me/meetings', {
      token: e.token,
      body: { topic: 'Later', type: 2, start_time: new Date(Date.now() + 86_400_000).toISOString() },
    });
    const err: any = await fails(run('metadata', { video_id: String(upcoming.json.id) }));
    expect(err).toMatchObject({ code: 'not_found', status: 404 });
  });
});
