/**
 * email operations against the emulator: each operation run directly (input parsed with the
 * registry's parseInput), paging, validation, mapped platform errors, the server-to-server
 * mailbox, and a sent message read back from the emulator. Every answer is held to the
 * operation's declared output schema.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OpContext, Operation } from '../../../src/gateway/capabilities/operation.js';
import { emailOps } from '../../../src/gateway/capabilities/ops/email.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

afterEach(() => e.emu.api('DELETE', '/_sandbox/faults'));

const op = (name: string) => {
  const o = emailOps.find((x) => x.name === name) as unknown as Operation | undefined;
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};
const run = async (name: string, input: unknown, c: OpContext = e.ctx): Promise<any> => {
  const result = await op(name).run(c, parseInput(op(name).input, input));
  expectOutput('email', name, result);
  return result;
};
const platform = (path: string, query?: Record<string, string | number>) =>
  e.emu.api('GET', `/v2/emails/mailboxes/me${path}`, { token: e.token, ...(query ? { query } : {}) });
const issues = (name: string, input: unknown) => {
  try {
    parseInput(op(name).input, input);
  } catch (err) {
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    return ((err as { details: { issues: { path: string }[] } }).details.issues ?? []).map((i) => i.path);
  }
  throw new Error('expected a validation error');
};
const count = async (prefix: string) => {
  const requests = (await e.emu.api('GET', '/_sandbox/stats')).json.requests as Record<string, number>;
  return Object.entries(requests)
    .filter(([k]) => k.startsWith(prefix))
    .reduce((n, [, v]) => n + v, 0);
};

describe('email', () => {
  it('the operations match the catalog', () => {
    expect(emailOps.map((o) => `${o.group}/${o.name}`)).toEqual([
      'email/profile',
      'email/list_messages',
      'email/send_message',
      'email/drafts',
      'email/threads',
    ]);
    expect(emailOps.filter((o) => !o.output).map((o) => o.name)).toEqual([]);
    expect(emailOps.filter((o) => o.creates).map((o) => o.name)).toEqual(['send_message']);
  });

  it('profile describes the mailbox, also in server-to-server mode', async () => {
    const p = await run('profile', {});
    expect(p).toEqual({
      email: expect.stringContaining('@'),
      group_emails: expect.arrayContaining([expect.stringContaining('@')]),
      aliases: [{ email: expect.stringContaining('@'), description: expect.any(String) }],
      status: 'active',
      messages_total: expect.any(Number),
      threads_total: expect.any(Number),
      mailbox_size: expect.any(Number),
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(Date.parse(p.created)).toBeLessThan(Date.now());
    expect(Date.parse(p.created)).toBeGreaterThan(Date.parse('2000-01-01'));
    // No `me` in server-to-server mode: the mailbox is the linked user's address.
    const link = await e.store.getLink();
    const before = await count(`GET /v2/emails/mailboxes/${encodeURIComponent(link?.email ?? '')}/profile`);
    const s2s = await run('profile', {}, { ...e.ctx, uid: link?.userId ?? 'x' });
    expect(s2s.email).toBe(p.email);
    expect(await count(`GET /v2/emails/mailboxes/${encodeURIComponent(link?.email ?? '')}/profile`)).toBe(
      before + 1,
    );
  });

  it('list_messages returns summaries, newest first, with paging', async () => {
    const first = await run('list_messages', {});
    expect(first.items).toHaveLength(10);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.items[0]).toEqual({
      id: expect.any(String),
      thread_id: expect.any(String),
      from: expect.stringContaining('@'),
      to: expect.arrayContaining([expect.stringContaining('@')]),
      subject: expect.any(String),
      snippet: expect.any(String),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      labels: expect.any(Array),
      unread: expect.any(Boolean),
    });
    const dates = first.items.map((m: { date: string }) => Date.parse(m.date));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    const second = await run('list_messages', { limit: '10', cursor: first.nextCursor });
    expect(second.items).toHaveLength(10);
    const ids = new Set(first.items.map((m: { id: string }) => m.id));
    expect(second.items.some((m: { id: string }) => ids.has(m.id))).toBe(false);
    expect(Date.parse(second.items[0].date)).toBeLessThanOrEqual(dates[dates.length - 1]);

    const fromDana = await run('list_messages', { q: 'from:dana', limit: 25 });
    expect(fromDana.items.length).toBeGreaterThan(0);
    expect(fromDana.items.every((m: { from: string }) => /dana/i.test(m.from))).toBe(true);
    const unread = await run('list_messages', { label: 'UNREAD', limit: 25 });
    expect(unread.items.length).toBeGreaterThan(0);
    expect(
      unread.items.every(
        (m: { unread: boolean; labels: string[] }) => m.unread && m.labels.includes('UNREAD'),
      ),
    ).toBe(true);
  });

  it('list_messages skips a message that vanished between the list and its read', async () => {
    const ids = (await run('list_messages', { limit: 3 })).items.map((m: { id: string }) => m.id);
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: `/v2/emails/mailboxes/me/messages/${ids[1]}`, method: 'GET', status: 404 },
    });
    const r = await run('list_messages', { limit: 3 });
    expect(r.items.map((m: { id: string }) => m.id)).toEqual([ids[0], ids[2]]);
  });

  it('send_message sends RFC 2822 mail that the platform reads back', async () => {
    const subject = 'Q3 lane rates — confirmed ✅ ' + 'é'.repeat(60);
    const text = 'Hi Dana,\n\nConfirmed: 1.5% on Milwaukee with the pilot.\n\nAvery — Meridian';
    const sent = await run('send_message', {
      to: ['dana.whitfield@lakeshorelogistics.example', 'marcus.bell@meridianfleet.example'],
      cc: ['priya.natarajan@meridianfleet.example'],
      subject,
      text,
    });
    expect(sent).toEqual({ id: expect.any(String), thread_id: expect.any(String) });
    const back = await platform(`/messages/${sent.id}`, { format: 'full' });
    expect(back.status).toBe(200);
    expect(back.json.labelIds).toContain('SENT');
    const h = (n: string) =>
      back.json.payload.headers.find((x: { name: string }) => x.name.toLowerCase() === n.toLowerCase())
        ?.value;
    expect(h('Subject')).toBe(subject);
    expect(h('To')).toBe('dana.whitfield@lakeshorelogistics.example, marcus.bell@meridianfleet.example');
    expect(h('Cc')).toBe('priya.natarajan@meridianfleet.example');
    const plain = Buffer.from(back.json.payload.parts[0].body.data, 'base64url').toString('utf8');
    expect(plain.replace(/\r\n/g, '\n').trimEnd()).toBe(text);

    const listed = await run('list_messages', { label: 'SENT', limit: 1 });
    expect(listed.items[0]).toMatchObject({ id: sent.id, subject, unread: false });
    expect(listed.items[0].to).toHaveLength(2);
  });

  it('drafts lists drafts with their headers, with paging', async () => {
    const all = await run('drafts', {});
    expect(all.items.length).toBeGreaterThanOrEqual(2);
    expect(all.items[0]).toEqual({
      id: expect.any(String),
      message_id: expect.any(String),
      thread_id: expect.any(String),
      to: expect.any(Array),
      subject: expect.any(String),
      snippet: expect.any(String),
      date: expect.stringMatching(/^\d{4}-/),
    });
    const first = await run('drafts', { limit: 1 });
    expect(first.items).toHaveLength(1);
    const second = await run('drafts', { limit: 1, cursor: first.nextCursor });
    expect(second.items[0].id).not.toBe(first.items[0].id);
    const platformDrafts = (await platform('/drafts')).json.drafts.map((d: { id: string }) => d.id);
    expect(all.items.map((d: { id: string }) => d.id)).toEqual(platformDrafts);
  });

  it('threads lists threads with subject and snippet, with paging', async () => {
    const first = await run('threads', { limit: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.items[0]).toEqual({
      id: expect.any(String),
      subject: expect.any(String),
      snippet: expect.any(String),
    });
    const second = await run('threads', { limit: 5, cursor: first.nextCursor });
    const ids = new Set(first.items.map((t: { id: string }) => t.id));
    expect(second.items.some((t: { id: string }) => ids.has(t.id))).toBe(false);
    const q = await run('threads', { q: 'subject:FleetWorks' });
    expect(q.items.some((t: { subject: string }) => t.subject.includes('FleetWorks'))).toBe(true);
    expect(await run('threads', { q: 'subject:NoSuchSubjectAnywhere' })).toEqual({
      items: [],
      nextCursor: null,
    });
  });

  it('answers a date that is no 4-digit-year ISO instant as null, not a RangeError', async () => {
    // A stub transport (the emulator's dates are sane): past ±8.64e15 ms `new Date` is invalid and
    // toISOString throws; from year 10000 it writes `+010000-…`, which the output schema refuses.
    const c: OpContext = {
      ...e.ctx,
      platform: {
        call: ({ path }: { path: string }) =>
          Promise.resolve({
            data: path.endsWith('/profile')
              ? { emailAddress: 'a@example.com', createTime: 9e15 }
              : path.endsWith('/messages')
                ? { messages: [{ id: 'm1' }, { id: 'm2' }] }
                : { id: 'm', threadId: 't', internalDate: path.endsWith('m1') ? '300000000000000' : '1e300' },
          }),
      } as unknown as OpContext['platform'],
    };
    expect((await run('list_messages', {}, c)).items).toMatchObject([{ date: null }, { date: null }]);
    expect((await run('profile', {}, c)).created).toBeNull();
  });

  it('maps platform errors', async () => {
    await e.emu.api('POST', '/_sandbox/faults', {
      body: { path: '/v2/emails/mailboxes/me/profile', method: 'GET', status: 404 },
    });
    await expect(run('profile', {})).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      details: { group: 'email', platformStatus: 404 },
    });
    await expect(run('threads', { cursor: 'not-a-token' })).rejects.toMatchObject({
      status: 400,
      code: 'upstream_rejected',
    });
  });

  it('validates input', () => {
    expect(issues('list_messages', { limit: 26, label: 'IN BOX' }).sort()).toEqual(['label', 'limit']);
    expect(issues('send_message', { to: [], text: 'x' })).toEqual(['to']);
    expect(
      issues('send_message', {
        to: Array.from({ length: 21 }, (_, k) => `p${k}@example.com`),
        cc: ['nope'],
        subject: 'a\r\nBcc: evil@example.com',
        text: 'é'.repeat(51_300),
      }).sort(),
    ).toEqual(['cc.0', 'subject', 'text', 'to']);
    expect(issues('send_message', { to: ['a@example.com'], subject: 'x'.repeat(256), text: 'x' })).toEqual([
      'subject',
    ]);
    expect(issues('drafts', { limit: 0 })).toEqual(['limit']);
    expect(issues('threads', { q: '' })).toEqual(['q']);
  });
});
