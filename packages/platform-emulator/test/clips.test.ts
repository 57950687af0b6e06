import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef, EmulatorContext } from '../src/context.js';
import { clipsModule, type ClipsSlice } from '../src/routes/clips.js';
import { expectViolation } from './helpers/contract.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { checkResponse, describeWithSpecs, documentedScopes, publishedSpec } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

const SPEC = 'clips.json';
const modules = [usersModule, meetingsModule, clipsModule];
const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse(SPEC, method, template, status, body), `${method} ${template}`).toEqual([]);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const month = () => ({ from: iso(Date.now() - 30 * 86_400_000), to: iso(Date.now() + 60_000) });

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, modules);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

describeWithSpecs('clips: route definitions', () => {
  const defs: RouteDef[] = [];
  clipsModule.register({ route: (d: RouteDef) => defs.push(d) } as unknown as EmulatorContext);
  // Read in the test, not here: a skipped describe still runs its body.
  const spec = () =>
    publishedSpec(SPEC) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };

  it('serves no chapters or analytics endpoint', () => {
    expect(defs.some((d) => /chapter|analytic/i.test(d.url))).toBe(false);
  });

  it.each(defs.map((d) => [d.method, d.url, d] as const))(
    '%s %s lists every documented scope and the documented rate label',
    (method, url, d) => {
      const template = url.replace(/:(\w+)/g, '{$1}');
      for (const s of documentedScopes(SPEC, String(method), template)) expect(d.scopes).toContain(s);
      const desc = spec().paths[template]?.[String(method).toLowerCase()]?.description ?? '';
      const label = /Rate Limit Label\]\([^)]*\):\*\* `([A-Za-z_ ]+)`/.exec(desc)?.[1];
      if (label) expect(d.label).toBe(label.toUpperCase().replace(/ /g, '_'));
    },
  );
});

describe('clips', () => {
  it('lists clips under /v2 with token pagination, per the documented schema', async () => {
    // A page holds 30 to 300 clips: 40 more copies of a clip of this month make two pages.
    const slice = t.emulator.context.slice<ClipsSlice>('clips');
    const recent = slice.clips
      .filter((c) => c.created <= Date.now())
      .sort((a, b) => b.modified - a.modified)[0]!;
    for (let i = 0; i < 40; i++)
      slice.clips.push({ ...recent, clip_id: `pagecheck${i}`, modified: recent.modified - i });
    const window = month();
    const first = await t.api('GET', '/v2/clips', { token, query: { ...window, page_size: 30 } });
    expect(first.status).toBe(200);
    fidelity('GET', '/clips', 200, first.json);
    expect(first.json.data).toHaveLength(30);
    expect(first.json.page_size).toBe(30);
    expect(first.json.total_records).toBeGreaterThanOrEqual(50);
    expect(first.json.next_page_token).not.toBe('');
    const dates = first.json.data.map((c: { modified_date: string }) => Date.parse(c.modified_date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(first.json.data[0].created_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);

    const second = await t.api('GET', '/v2/clips', {
      token,
      query: { ...window, page_size: 30, next_page_token: first.json.next_page_token },
    });
    expect(second.status).toBe(200);
    expect(second.json.data[0].clip_id).not.toBe(first.json.data[0].clip_id);
    const forged = await t.api('GET', '/v2/clips', {
      token,
      query: { ...month(), next_page_token: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
    const unversioned = await expectViolation({ where: 'operation' }, () =>
      t.api('GET', '/clips', { token }),
    );
    expect(unversioned.status).toBe(404);
    const small = await expectViolation({ where: 'query', name: 'page_size', rule: 'minimum 30' }, () =>
      t.api('GET', '/v2/clips', { token, query: { ...month(), page_size: 5 } }),
    );
    expect(small.json).toEqual({ code: 300, message: 'Invalid parameter: page_size.' });
    t.emulator.reset();
  });

  it('defaults to today, filters by title, status and date type, and caps the window at a month', async () => {
    const today = await t.api('GET', '/v2/clips', { token });
    expect(today.status).toBe(200);
    fidelity('GET', '/clips', 200, today.json);
    const day = new Date().toISOString().slice(0, 10);
    for (const c of today.json.data) expect(c.modified_date.slice(0, 10)).toBe(day);

    const found = await t.api('GET', '/v2/clips', { token, query: { ...month(), search_key: 'MORTGAGE' } });
    expect(found.json.data.map((c: { title: string }) => c.title)).toEqual(['Mortgage rate-lock FAQ']);
    const failed = await t.api('GET', '/v2/clips', {
      token,
      query: {
        from: iso(Date.now() - 50 * 86_400_000),
        to: iso(Date.now() - 25 * 86_400_000),
        status: 'RECORD_FAILED',
      },
    });
    expect(failed.json.data.map((c: { title: string }) => c.title)).toEqual([
      'Customer onboarding: Lakeshore Logistics',
    ]);
    const created = await t.api('GET', '/v2/clips', {
      token,
      query: { ...month(), date_filter_type: 'CREATED_DATE' },
    });
    const cd = created.json.data.map((c: { created_date: string }) => Date.parse(c.created_date));
    expect([...cd].sort((a, b) => b - a)).toEqual(cd);

    const tooLong = await t.api('GET', '/v2/clips', {
      token,
      query: { from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.code).toBe(300);
    const badStatus = await expectViolation({ where: 'query', name: 'status' }, () =>
      t.api('GET', '/v2/clips', { token, query: { status: 'DONE' } }),
    );
    expect(badStatus.json).toEqual({ code: 300, message: 'Invalid parameter: status.' });
  });

  it('takes user_id=me always, and another user only with an admin scope', async () => {
    const me = await t.api('GET', '/v2/clips', { token, query: { ...month(), user_id: 'me' } });
    expect(me.status).toBe(200);
    const byEmail = await t.api('GET', '/v2/clips', {
      token,
      query: { ...month(), user_id: 'avery.quinn@meridianfleet.example' },
    });
    expect(byEmail.json.total_records).toBe(me.json.total_records);
    const other = await t.api('GET', '/v2/clips', { token, query: { user_id: 'nobody@example.com' } });
    expect(other.status).toBe(404);
    expect(other.json.code).toBe(1001);

    const s = await startTestEmulator({ scopes: ['clips:read:list_user_clips'] }, modules);
    try {
      const tok = (await s.userToken()).access_token;
      const mine = await s.api('GET', '/v2/clips', { token: tok, query: { ...month(), user_id: 'me' } });
      expect(mine.status).toBe(200);
      fidelity('GET', '/clips', 200, mine.json);
      const email = await s.api('GET', '/v2/clips', {
        token: tok,
        query: { user_id: 'avery.quinn@meridianfleet.example' },
      });
      expect(email.status).toBe(403);
      expect(email.json.code).toBe(1003);
      const denied = await s.api('DELETE', `/v2/clips/${mine.json.data[0].clip_id}`, { token: tok });
      expect(denied.status).toBe(400);
      expect(denied.json.code).toBe(4711);
      expect(denied.json.message).toContain('clips:delete:clip');
    } finally {
      await s.close();
    }
  });

  it('gets a clip, 404s an unknown one, and serves its comments', async () => {
    const list = await t.api('GET', '/v2/clips', { token, query: month() });
    const id = list.json.data[0].clip_id;
    const one = await t.api('GET', `/v2/clips/${id}`, { token });
    expect(one.status).toBe(200);
    fidelity('GET', '/clips/{clipId}', 200, one.json);
    expect(one.json).toEqual(list.json.data[0]);
    const missing = await t.api('GET', '/v2/clips/doesNotExist42', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 2000, message: 'Clip does not exist: doesNotExist42.' });

    let withComments: any;
    for (const c of list.json.data) {
      const r = await t.api('GET', `/v2/clips/${c.clip_id}/comments`, { token });
      expect(r.status).toBe(200);
      fidelity('GET', '/clips/{clipId}/comments', 200, r.json);
      if (r.json.data.some((x: { children_comments: unknown[] }) => x.children_comments.length))
        withComments = r.json;
    }
    expect(withComments).toBeDefined();
    const parent = withComments.data.find(
      (x: { children_comments: unknown[] }) => x.children_comments.length,
    );
    expect(parent.children_comments[0].parent_node_id).toBe(parent.comment_id);
    expect(withComments.next_page_token).toBe('');
    const noClip = await t.api('GET', '/v2/clips/nope/comments', { token });
    expect(noClip.json.code).toBe(2000);
  });

  it('soft-deletes a clip (204): it shows as RECORD_DELETE and leaves the default list', async () => {
    const list = await t.api('GET', '/v2/clips', { token, query: { ...month(), search_key: 'bid review' } });
    const id = list.json.data[0].clip_id;
    const del = await t.api('DELETE', `/v2/clips/${id}`, { token });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const got = await t.api('GET', `/v2/clips/${id}`, { token });
    fidelity('GET', '/clips/{clipId}', 200, got.json);
    expect(got.json.status).toBe('RECORD_DELETE');
    const after = await t.api('GET', '/v2/clips', { token, query: { ...month(), search_key: 'bid review' } });
    expect(after.json.data).toHaveLength(0);
    const trash = await t.api('GET', '/v2/clips', { token, query: { status: 'RECORD_DELETE' } });
    expect(trash.json.data.map((c: { clip_id: string }) => c.clip_id)).toEqual([id]);
    const again = await t.api('DELETE', `/v2/clips/${id}`, { token });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ code: 2000, message: `Clip does not exist: ${id}.` });
  });
});
