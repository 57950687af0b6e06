/**
 * ra (revenue accelerator) operations against the emulator: conversations, deals, deal
 * activities, content analysis and comments (list and post), run directly with validated input.
 * Every answer is held to the operation's declared output schema.
 */
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/gateway/capabilities/catalog.js';
import { invokeOnce } from '../../../src/gateway/capabilities/idempotent-invoke.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { raOps } from '../../../src/gateway/capabilities/ops/ra.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const op = (name: string) => {
  const o = raOps.find((x) => x.name === name);
  if (!o) throw new Error(`no op ${name}`);
  return o as unknown as Operation;
};
const run = async (name: string, input: unknown): Promise<any> => {
  const result = await op(name).run(await e.gateway.opContext(), parseInput(op(name).input, input));
  expectOutput('ra', name, result);
  return result;
};
const failure = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return err as { status: number; code: string; details?: any };
  }
  throw new Error('expected a failure');
};
const emuToken = async () => (await e.emu.userToken()).access_token;

describe('ra', () => {
  it('matches the catalog', () => {
    const names = CAPABILITIES.filter((c) => c.group === 'ra').map((c) => c.name);
    expect(raOps.map((o) => o.name).sort()).toEqual([...names].sort());
    for (const o of raOps) expect(o.group).toBe('ra');
    expect(raOps.filter((o) => !o.output).map((o) => o.name)).toEqual([]);
    expect(raOps.filter((o) => o.creates).map((o) => o.name)).toEqual(['comments']);
  });

  it('list_conversations pages and filters by deal, host and time', async () => {
    const first = await run('list_conversations', { limit: '3' });
    expect(first.items).toHaveLength(3);
    expect(first.items[0]).toEqual(
      expect.objectContaining({
        conversation_id: expect.stringContaining(','),
        topic: expect.any(String),
        video_id: expect.stringMatching(/^\d+$/),
        conversation_type: expect.stringMatching(/^(meeting|phone)$/),
        meeting_start_time: expect.any(String),
      }),
    );
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('list_conversations', { limit: 3, cursor: first.nextCursor });
    expect(second.items).toHaveLength(3);
    expect(second.items.map((c: any) => c.conversation_id)).not.toContain(first.items[0].conversation_id);

    const withDeal = first.items.find((c: any) => c.deal_id) ?? second.items.find((c: any) => c.deal_id);
    const byDeal = await run('list_conversations', { deal_id: withDeal.deal_id });
    expect(byDeal.items.length).toBeGreaterThan(0);
    expect(byDeal.items.every((c: any) => c.deal_id === withDeal.deal_id)).toBe(true);

    const byHost = await run('list_conversations', { host: withDeal.host_id });
    expect(byHost.items.length).toBeGreaterThan(0);
    expect(byHost.items.every((c: any) => c.host_id === withDeal.host_id)).toBe(true);

    const all = await run('list_conversations', { limit: 300 });
    const times = all.items
      .map((c: any) => Date.parse(c.meeting_start_time))
      .sort((a: number, b: number) => a - b);
    const mid = new Date(times[Math.floor(times.length / 2)]).toISOString();
    const recent = await run('list_conversations', { from: mid, limit: 300 });
    expect(recent.items.length).toBeGreaterThan(0);
    expect(recent.items.length).toBeLessThan(all.items.length);
    expect(recent.items.every((c: any) => Date.parse(c.meeting_start_time) >= Date.parse(mid) - 1000)).toBe(
      true,
    );
    const phones = await run('list_conversations', { conversation_type: 'phone', limit: 300 });
    expect(phones.items.length).toBeGreaterThan(0);
    expect(phones.items.every((c: any) => c.conversation_type === 'phone')).toBe(true);
    const none = await run('list_conversations', { to: '2001-01-01T00:00:00Z' });
    expect(none).toEqual({ items: [], nextCursor: null });
  });

  it('list_conversations validates its input', async () => {
    const err = await failure(
      run('list_conversations', { limit: 0, from: 'yesterday', conversation_type: 'video' }),
    );
    expect(err.code).toBe('validation_failed');
    expect(err.details.issues.map((i: any) => i.path).sort()).toEqual(['conversation_type', 'from', 'limit']);
    const order = await failure(
      run('list_conversations', { from: '2026-05-02T00:00:00Z', to: '2026-05-01T00:00:00Z' }),
    );
    expect(order.details.issues[0].path).toBe('from');
  });

  it('list_conversations maps an unknown deal to not_found', async () => {
    const err = await failure(run('list_conversations', { deal_id: '0065g00000NOPEzzzZZZ' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect(err.details.platformCode).toBe(1005);
  });

  it('list_deals filters by name, stage and amount and pages', async () => {
    const first = await run('list_deals', { limit: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.items[0]).toEqual(
      expect.objectContaining({
        deal_id: expect.any(String),
        deal_name: expect.any(String),
        deal_stage: expect.any(String),
        deal_amount: expect.any(Number),
        owner_email: expect.stringContaining('@'),
      }),
    );
    const second = await run('list_deals', { limit: 5, cursor: first.nextCursor });
    expect(second.items[0].deal_id).not.toBe(first.items[0].deal_id);

    const named = await run('list_deals', { deal_name: 'caldwell' });
    expect(named.items).toHaveLength(1);
    expect(named.items[0].deal_name).toContain('Caldwell');
    const staged = await run('list_deals', { deal_stage: 'Negotiation/Review' });
    expect(staged.items.length).toBeGreaterThan(0);
    expect(staged.items.every((d: any) => d.deal_stage === 'Negotiation/Review')).toBe(true);
    const big = await run('list_deals', { min_amount: '300000', max_amount: 600000, limit: 300 });
    expect(big.items.length).toBeGreaterThan(0);
    expect(big.items.every((d: any) => d.deal_amount >= 300000 && d.deal_amount <= 600000)).toBe(true);

    const err = await failure(run('list_deals', { min_amount: 10, max_amount: 5 }));
    expect(err.code).toBe('validation_failed');
    expect((await failure(run('list_deals', { min_amount: -1 }))).code).toBe('validation_failed');
  });

  it('deal_activities lists a deal timeline, and 404s an unknown deal', async () => {
    const deals = await run('list_deals', { limit: 300 });
    const busy = deals.items.find((d: any) => d.number_of_conversations >= 2);
    const all = await run('deal_activities', { deal_id: busy.deal_id });
    expect(all.items.length).toBeGreaterThanOrEqual(2);
    expect(all.items[0]).toEqual(
      expect.objectContaining({
        activity_type: expect.stringMatching(/^(meeting|call|email)$/),
        topic: expect.any(String),
        start_date: expect.any(String),
      }),
    );
    const page = await run('deal_activities', { deal_id: busy.deal_id, limit: 1 });
    expect(page.items).toHaveLength(1);
    const next = await run('deal_activities', { deal_id: busy.deal_id, limit: 1, cursor: page.nextCursor });
    expect(next.items[0]).not.toEqual(page.items[0]);

    const err = await failure(run('deal_activities', { deal_id: '0065g00000NOPEzzzZZZ' }));
    expect(err).toMatchObject({ status: 404, code: 'not_found' });
    expect((await failure(run('deal_activities', { deal_id: 'a b' }))).code).toBe('validation_failed');
  });

  it('conversation_analysis returns the whole analysis or one part', async () => {
    const list = await run('list_conversations', { limit: 300 });
    // An id with '/' exercises the platform's double encoding.
    const done = list.items.filter((x: any) => !x.processing_analysis && x.deal_id);
    const c = done.find((x: any) => x.conversation_id.includes('/')) ?? done[0];
    expect(c.conversation_id).toContain('/');
    const all = await run('conversation_analysis', { conversation_id: c.conversation_id });
    expect(all).toMatchObject({ conversation_id: c.conversation_id, analysis_type: 'all' });
    expect(all.summary).toEqual(expect.any(String));
    expect(all.smart_chapters.length).toBeGreaterThan(0);
    expect(all.topics.length).toBeGreaterThan(0);
    expect(all.topics[0]).toEqual(
      expect.objectContaining({
        speaker: expect.any(String),
        text: expect.any(String),
        label: expect.any(String),
      }),
    );
    expect(all.next_steps.length).toBeGreaterThan(0);
    expect(all.good_questions.length).toBeGreaterThan(0);
    expect(all.deal_memo.potential_wins.length).toBeGreaterThan(0);
    expect(all.playbooks[0].elements.length).toBeGreaterThan(0);

    const steps = await run('conversation_analysis', {
      conversation_id: c.conversation_id,
      analysis_type: 'nextSteps',
    });
    expect(Object.keys(steps).sort()).toEqual(['analysis_type', 'conversation_id', 'next_steps']);
    expect(steps.next_steps).toEqual(all.next_steps);
    // Each part alone is the same as in the whole analysis (smartChapters carries the summary).
    for (const [type, keys] of [
      ['topics', ['topics']],
      ['engagingQuestions', ['good_questions']],
      ['indicators', ['indicators']],
      ['smartChapters', ['smart_chapters', 'summary']],
      ['dealMemo', ['deal_memo']],
    ] as const) {
      const part = await run('conversation_analysis', {
        conversation_id: c.conversation_id,
        analysis_type: type,
      });
      expect(Object.keys(part).sort()).toEqual(['analysis_type', 'conversation_id', ...keys].sort());
      for (const k of keys) expect(part[k]).toEqual(all[k]);
    }

    expect(
      (
        await failure(
          run('conversation_analysis', { conversation_id: c.conversation_id, analysis_type: 'x' }),
        )
      ).code,
    ).toBe('validation_failed');
    const missing = await failure(
      run('conversation_analysis', { conversation_id: 'AAAAAAAAAAAAAAAAAAAAAA==,1700000000000' }),
    );
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('comments lists a thread, and posting one shows on both sides', async () => {
    const list = await run('list_conversations', { limit: 300 });
    let withComments: { id: string; items: any[] } | undefined;
    for (const c of list.items) {
      const r = await run('comments', { conversation_id: c.conversation_id });
      if (r.items.length >= 2) {
        withComments = { id: c.conversation_id, items: r.items };
        break;
      }
    }
    expect(withComments).toBeDefined();
    const thread = withComments!;
    expect(thread.items[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        comment: expect.any(String),
        user_email: expect.any(String),
      }),
    );
    expect(thread.items[1].parent_comment_id).toBe(thread.items[0].id);
    const page = await run('comments', { conversation_id: thread.id, limit: 1 });
    expect(page.items).toHaveLength(1);
    const next = await run('comments', { conversation_id: thread.id, limit: 1, cursor: page.nextCursor });
    expect(next.items[0].id).toBe(thread.items[1].id);

    const posted = await run('comments', {
      conversation_id: thread.id,
      comment: '  Pricing objection handled well; reuse this clip.  ',
      parent_comment_id: thread.items[0].id,
      time_in_recording: '00:01:30',
    });
    expect(posted).toMatchObject({
      id: expect.any(String),
      comment: 'Pricing objection handled well; reuse this clip.',
      parent_comment_id: thread.items[0].id,
      time_in_recording: '00:01:30',
      is_private: false,
    });
    const after = await run('comments', { conversation_id: thread.id, limit: 300 });
    expect(after.items.map((x: any) => x.id)).toContain(posted.id);
    const direct = await e.emu.api(
      'GET',
      `/v2/zra/conversations/${encodeURIComponent(encodeURIComponent(thread.id))}/comments`,
      { token: await emuToken(), query: { page_size: 300 } },
    );
    expect(direct.status).toBe(200);
    expect(direct.json.comments.find((x: any) => x.id === posted.id)?.comment).toBe(posted.comment);
  });

  it('comments validates its input and maps platform errors', async () => {
    const bad = await failure(
      run('comments', { conversation_id: 'x', comment: 'a'.repeat(2001), time_in_recording: '1:00' }),
    );
    expect(bad.code).toBe('validation_failed');
    expect(bad.details.issues.map((i: any) => i.path).sort()).toEqual(['comment', 'time_in_recording']);
    const orphan = await failure(run('comments', { conversation_id: 'x', is_private: true }));
    expect(orphan.details.issues[0].path).toBe('is_private');
    expect((await failure(run('comments', { conversation_id: 'x', comment: '   ' }))).code).toBe(
      'validation_failed',
    );
    const missing = await failure(
      run('comments', { conversation_id: 'AAAAAAAAAAAAAAAAAAAAAA==,1700000000000', comment: 'hi' }),
    );
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('comments takes an idempotency key only to post: a listing with one is refused, not replayed stale', async () => {
    const id: string = (await run('list_conversations', { limit: 1 })).items[0].conversation_id;
    const url = `/api/video/ra/conversations/${encodeURIComponent(id)}/comments`;
    const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });
    const refused = { status: 400, code: 'idempotency_key_unsupported' };
    // REST GET, the generic invoke and (as MCP runs it) the shared invoke, each listing.
    const get = await e.api('GET', url, withKey('ra-list-1'));
    expect({ status: get.status, code: get.json.error?.code }).toEqual(refused);
    const generic = await e.api('POST', '/api/video/capabilities/ra/comments', {
      body: { conversation_id: id },
      ...withKey('ra-list-2'),
    });
    expect({ status: generic.status, code: generic.json.error?.code }).toEqual(refused);
    const ctx = await e.gateway.opContext();
    await expect(
      invokeOnce(ctx, 'ra', 'comments', { conversation_id: id }, 'ra-list-3'),
    ).rejects.toMatchObject(refused);
    // Posting still takes one: a retry replays the comment and posts nothing new.
    const post = () => e.api('POST', url, { body: { comment: 'Idempotent note' }, ...withKey('ra-post-1') });
    const first = await post();
    const again = await post();
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    const listed = (await run('comments', { conversation_id: id, limit: 300 })).items;
    expect(listed.filter((c: any) => c.comment === 'Idempotent note')).toHaveLength(1);
  });
});
