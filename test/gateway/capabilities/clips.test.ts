/**
 * clips operations against the emulator, run directly; expectations come from the emulator's
 * own answer for the same window (today's seeded clips appear as the day goes on).
 */
import { describe, expect, it } from 'vitest';
import type { ClipsSlice } from '../../../packages/platform-emulator/src/routes/clips.js';
import { clipsOps } from '../../../src/gateway/capabilities/ops/clips.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

/** Runs an operation and holds its answer to its declared output. */
const run = async (name: string, input: unknown): Promise<any> => {
  const o = clipsOps.find((x) => x.name === name) as unknown as Operation;
  const r = await o.run(await e.gateway.opContext(), parseInput(o.input, input));
  expectOutput('clips', name, r);
  return r;
};
const fails = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('should have failed'),
    (err: unknown) => err,
  );
const dayOf = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const direct = async (query: Record<string, string | number>) =>
  (await e.emu.api('GET', '/v2/clips', { token: e.token, query: { page_size: 300, ...query } })).json
    .data as {
    clip_id: string;
    title: string;
    status: string;
  }[];

describe('clips', () => {
  it('every operation declares its output', () => {
    for (const o of clipsOps) expect(o.output, o.name).toBeDefined();
  });

  it('list_clips lists the last 30 days by modified date, in our shape', async () => {
    const r = await run('list_clips', {});
    const want = await direct({ from: dayOf(-30), to: `${dayOf(0)}T23:59:59Z` });
    expect(want.length).toBeGreaterThan(5);
    expect(r.items.map((c: { clip_id: string }) => c.clip_id)).toEqual(want.map((c) => c.clip_id));
    expect(r.nextCursor).toBeNull();
    expect(r.items.some((c: { title: string }) => c.title === 'Expense policy in two minutes')).toBe(false);
    expect(r.items[0]).toEqual({
      clip_id: expect.any(String),
      title: expect.any(String),
      description: expect.any(String),
      duration: expect.any(Number),
      status: expect.any(String),
      file_size: expect.any(Number),
      share_link: expect.stringContaining('/clips/share/'),
      share_scope: expect.any(String),
      enable_passcode: expect.any(Boolean),
      thumbnail_link: expect.any(String),
      created_date: expect.any(String),
      modified_date: expect.any(String),
    });
    expect(r.items[0]).not.toHaveProperty('passcode');
  });

  it('pages with nextCursor, 30 to 300 a page as the platform allows', async () => {
    // Two pages need more than 30 clips: 40 copies of this month's newest.
    const slice = e.emu.emulator.context.slice<ClipsSlice>('clips');
    const recent = slice.clips
      .filter((c) => c.created <= Date.now())
      .sort((a, b) => b.modified - a.modified)[0]!;
    for (let i = 0; i < 40; i++)
      slice.clips.push({ ...recent, clip_id: `pagecheck${i}`, modified: recent.modified - i });
    try {
      const all = (await run('list_clips', { limit: 300 })).items.map((c: { clip_id: string }) => c.clip_id);
      const p1 = await run('list_clips', { limit: '30' });
      expect(p1.items).toHaveLength(30);
      expect(p1.nextCursor).toEqual(expect.any(String));
      const p2 = await run('list_clips', { limit: 30, cursor: p1.nextCursor });
      expect([...p1.items, ...p2.items].map((c: { clip_id: string }) => c.clip_id)).toEqual(all.slice(0, 60));
    } finally {
      e.emu.emulator.reset();
    }
  });

  it('filters by window, date field, status and title words', async () => {
    const older = await run('list_clips', { from: dayOf(-40), to: dayOf(-31) });
    expect(older.items.map((c: { title: string }) => c.title)).toEqual(['Expense policy in two minutes']);
    const byCreated = await run('list_clips', { date_filter: 'created', from: dayOf(-30) });
    expect(byCreated.items.map((c: { clip_id: string }) => c.clip_id)).toEqual(
      (await direct({ from: dayOf(-30), to: `${dayOf(0)}T23:59:59Z`, date_filter_type: 'CREATED_DATE' })).map(
        (c) => c.clip_id,
      ),
    );
    const q = await run('list_clips', { q: 'mortgage' });
    expect(q.items.map((c: { title: string }) => c.title)).toEqual(['Mortgage rate-lock FAQ']);
    expect(await run('list_clips', { q: 'xylophone' })).toEqual({ items: [], nextCursor: null });
    const failed = await run('list_clips', { status: 'RECORD_FAILED', from: dayOf(-50), to: dayOf(-20) });
    expect(failed.items.map((c: { status: string }) => c.status)).toEqual(['RECORD_FAILED']);
  });

  it('validates the window and the filters', async () => {
    for (const [input, path] of [
      [{ from: dayOf(-40) }, 'from'],
      [{ from: dayOf(-2), to: dayOf(-3) }, 'to'],
      [{ status: 'DONE' }, 'status'],
      [{ date_filter: 'opened' }, 'date_filter'],
      [{ limit: 500 }, 'limit'],
      [{ limit: 3 }, 'limit'],
    ] as const) {
      const err: any = await fails(run('list_clips', input));
      expect(err).toMatchObject({ code: 'validation_failed', status: 400 });
      expect(err.details.issues[0].path).toBe(path);
    }
  });

  it('get_clip reads one clip with its passcode; unknown ids are not found', async () => {
    const listed = (await run('list_clips', {})).items;
    const withPass = listed.find((c: { enable_passcode: boolean }) => c.enable_passcode) ?? listed[0];
    const c = await run('get_clip', { clip_id: withPass.clip_id });
    expect(c).toEqual({ ...withPass, passcode: withPass.enable_passcode ? expect.any(String) : null });
    const err: any = await fails(run('get_clip', { clip_id: 'NoSuchClip0000000000000000000000000000' }));
    expect(err).toMatchObject({ code: 'not_found', status: 404 });
    expect(err.details.platformCode).toBe(2000);
    expect(((await fails(run('get_clip', { clip_id: '' }))) as any).code).toBe('validation_failed');
  });
});
