/**
 * chat operations against the emulator: each operation run directly (input parsed with the
 * registry's parseInput), paging, validation, mapped platform errors, and sent messages read
 * back from the emulator.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { chatOps } from '../../../src/gateway/capabilities/ops/chat.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();
let channels: { id: string; name: string }[];
let marcus: string;

beforeAll(async () => {
  channels = (
    await e.emu.api('GET', '/v2/chat/users/me/channels', { token: e.token, query: { page_size: 50 } })
  ).json.channels;
  const contacts = (
    await e.emu.api('GET', '/v2/chat/users/me/contacts', { token: e.token, query: { page_size: 50 } })
  ).json.contacts as { email: string; first_name: string }[];
  marcus = contacts.find((c) => c.first_name === 'Marcus')?.email ?? '';
});

const op = (name: string) => {
  const o = chatOps.find((x) => x.name === name) as unknown as Operation | undefined;
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};
/** Runs an operation and holds its answer to its declared output. */
const run = async (name: string, input: unknown): Promise<any> => {
  const r = await op(name).run(e.ctx, parseInput(op(name).input, input));
  expectOutput('chat', name, r);
  return r;
};
const issues = (name: string, input: unknown) => {
  try {
    parseInput(op(name).input, input);
  } catch (err) {
    expect(err).toMatchObject({ status: 400, code: 'validation_failed' });
    return ((err as { details: { issues: { path: string }[] } }).details.issues ?? []).map((i) => i.path);
  }
  throw new Error('expected a validation error');
};
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const channel = (name: string) => channels.find((c) => c.name === name)?.id ?? '';

describe('chat', () => {
  it('the operations match the catalog', () => {
    expect(chatOps.map((o) => `${o.group}/${o.name}`)).toEqual(['chat/read_message', 'chat/send_message']);
    for (const o of chatOps) expect(o.output, o.name).toBeDefined();
    expect(channel('freight-dispatch')).not.toBe('');
    expect(marcus).toContain('@');
  });

  it('read_message reads one day of a channel, newest first, with paging', async () => {
    const all = await run('read_message', { channel_id: channel('freight-dispatch'), date: daysAgo(9) });
    expect(all.items).toHaveLength(3);
    expect(all.nextCursor).toBeNull();
    const times = all.items.map((m: { date_time: string }) => Date.parse(m.date_time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const t of times) expect(new Date(t).toISOString().slice(0, 10)).toBe(daysAgo(9));
    const reply = all.items.find((m: { reply_main_message_id: string | null }) => m.reply_main_message_id);
    expect(reply).toEqual({
      id: expect.any(String),
      message: expect.any(String),
      sender: expect.stringContaining('@'),
      sender_display_name: expect.any(String),
      date_time: expect.any(String),
      message_type: 'plain_text_message',
      reply_main_message_id: expect.any(String),
      files: [],
    });

    const first = await run('read_message', {
      channel_id: channel('freight-dispatch'),
      date: daysAgo(9),
      limit: '2',
    });
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('read_message', {
      channel_id: channel('freight-dispatch'),
      date: daysAgo(9),
      limit: 2,
      cursor: first.nextCursor,
    });
    expect(second.items.map((m: { id: string }) => m.id)).toEqual([all.items[2].id]);
    expect(second.nextCursor).toBeNull();

    const withFile = await run('read_message', { channel_id: channel('freight-dispatch'), date: daysAgo(7) });
    expect(
      withFile.items.some(
        (m: { files: { file_name: string }[] }) => m.files[0]?.file_name === 'lane-report-week.pdf',
      ),
    ).toBe(true);
  });

  it('read_message reads a 1:1 chat with a contact', async () => {
    const r = await run('read_message', { contact: marcus, date: daysAgo(1) });
    expect(r.items).toHaveLength(4);
    expect(new Set(r.items.map((m: { sender: string }) => m.sender)).size).toBe(2);
    expect(r.items.some((m: { sender: string }) => m.sender === marcus)).toBe(true);
  });

  it('send_message posts to a channel and to a contact; the platform has them', async () => {
    const sent = await run('send_message', {
      channel_id: channel('freight-dispatch'),
      message: 'Gateway test: truck 231 is back on the board.',
    });
    expect(sent).toEqual({ id: expect.any(String) });
    const back = await e.emu.api('GET', `/v2/chat/users/me/messages/${sent.id}`, {
      token: e.token,
      query: { to_channel: channel('freight-dispatch') },
    });
    expect(back.status).toBe(200);
    expect(back.json.message).toBe('Gateway test: truck 231 is back on the board.');
    const today = await run('read_message', { channel_id: channel('freight-dispatch') });
    expect(today.items[0]).toMatchObject({
      id: sent.id,
      message: 'Gateway test: truck 231 is back on the board.',
    });

    const dm = await run('send_message', { contact: marcus, message: 'Gateway test: call me after 2.' });
    const dms = await run('read_message', { contact: marcus });
    expect(dms.items[0]).toMatchObject({ id: dm.id, message: 'Gateway test: call me after 2.' });
  });

  it('maps platform errors', async () => {
    await expect(run('read_message', { channel_id: 'nosuchchannel' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      details: { group: 'chat', platformCode: 4130 },
    });
    await expect(
      run('send_message', { contact: 'nobody@nowhere.example', message: 'hi' }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      details: { platformCode: 1001 },
    });
    await expect(
      run('read_message', { channel_id: channel('general'), date: daysAgo(400) }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'upstream_rejected',
    });
  });

  it('validates input', () => {
    expect(issues('read_message', {})).toEqual(['channel_id']);
    expect(issues('read_message', { channel_id: 'a', contact: 'a@example.com' })).toEqual(['channel_id']);
    expect(issues('read_message', { contact: 'nope', date: '2026/01/01', limit: 51 }).sort()).toEqual([
      'contact',
      'date',
      'limit',
    ]);
    expect(issues('send_message', { channel_id: 'a', message: 'x'.repeat(1025) })).toEqual(['message']);
    expect(issues('send_message', { channel_id: 'a', message: '  ' })).toEqual(['message']);
    expect(issues('send_message', { message: 'hi' })).toEqual(['channel_id']);
    expect(issues('send_message', { channel_id: 'a/../b?', message: 'hi' })).toEqual(['channel_id']);
  });
});
