import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef, EmulatorContext } from '../src/context.js';
import { chatModule } from '../src/routes/chat.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { checkResponse, describeWithSpecs, documentedScopes, publishedSpec } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const SPEC = 'team-chat.json';
const modules = [usersModule, meetingsModule, chatModule];
const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse(SPEC, method, template, status, body), `${method} ${template}`).toEqual([]);

const received: any[] = [];
let hook: Server;
let t: TestEmulator;
let token: string;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const tenDaysAgo = () => new Date(Date.now() - 11 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

beforeAll(async () => {
  hook = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      received.push(JSON.parse(data));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const port = (hook.address() as AddressInfo).port;
  t = await startTestEmulator({ webhookUrl: `http://127.0.0.1:${port}/hook` }, modules);
  token = (await t.userToken()).access_token;
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => hook.close(r));
});

async function channelId(name: string): Promise<string> {
  const r = await t.api('GET', '/v2/chat/users/me/channels', { token, query: { page_size: 50 } });
  const c = r.json.channels.find((x: { name: string }) => x.name === name);
  return c.id as string;
}

describeWithSpecs('chat: route definitions', () => {
  const defs: RouteDef[] = [];
  chatModule.register({ route: (d: RouteDef) => defs.push(d) } as unknown as EmulatorContext);
  // Read in the test, not here: a skipped describe still runs its body.
  const spec = () =>
    publishedSpec(SPEC) as {
      paths: Record<string, Record<string, { description?: string }>>;
    };

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

describe('chat: channels', () => {
  it('lists the user channels with token pagination and gets one channel', async () => {
    const all = await t.api('GET', '/v2/chat/users/me/channels', { token });
    expect(all.status).toBe(200);
    fidelity('GET', '/chat/users/{userId}/channels', 200, all.json);
    expect(all.json.channels.map((c: { name: string }) => c.name).sort()).toEqual([
      'brand',
      'capital-deals',
      'freight-dispatch',
      'general',
      'growthos-launches',
    ]);
    expect(all.json.total_records).toBe(5);
    expect(all.json.next_page_token).toBe('');

    const first = await t.api('GET', '/v2/chat/users/me/channels', { token, query: { page_size: 2 } });
    expect(first.json.channels).toHaveLength(2);
    expect(first.json.next_page_token).not.toBe('');
    const second = await t.api('GET', '/v2/chat/users/me/channels', {
      token,
      query: { page_size: 2, next_page_token: first.json.next_page_token },
    });
    expect(second.json.channels[0].id).not.toBe(first.json.channels[0].id);
    const forged = await t.api('GET', '/v2/chat/users/me/channels', {
      token,
      query: { next_page_token: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });

    const id = await channelId('capital-deals');
    const one = await t.api('GET', `/v2/chat/channels/${id}`, { token });
    expect(one.status).toBe(200);
    fidelity('GET', '/chat/channels/{channelId}', 200, one.json);
    expect(one.json).toMatchObject({
      id,
      name: 'capital-deals',
      type: 1,
      jid: `${id}@conference.xmpp.zoom.us`,
    });
    expect(one.json.channel_settings.designated_posting_members).toHaveLength(1);

    const missing = await t.api('GET', '/v2/chat/channels/nope123', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 4130, message: 'Channel does not exist: nope123.' });
  });
});

describe('chat: messages', () => {
  it('requires a contact or a channel', async () => {
    const r = await t.api('GET', '/v2/chat/users/me/messages', { token });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: 300, message: 'Must provide either contact or channel parameter.' });
    const unknown = await t.api('GET', '/v2/chat/users/me/messages', { token, query: { to_channel: 'abc' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ code: 4130, message: 'Channel does not exist: abc.' });
    const stranger = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { to_contact: 'who@nowhere.example' },
    });
    expect(stranger.status).toBe(404);
    expect(stranger.json).toEqual({ code: 1001, message: 'User does not exist: who@nowhere.example.' });
    const nobody = await t.api('GET', '/v2/chat/users/someone-else/messages', {
      token,
      query: { to_channel: 'abc' },
    });
    expect(nobody.json.code).toBe(1001);
  });

  it('pages through a channel newest first over a from/to window', async () => {
    const id = await channelId('freight-dispatch');
    const query = { to_channel: id, from: tenDaysAgo(), page_size: 5 };
    const first = await t.api('GET', '/v2/chat/users/me/messages', { token, query });
    expect(first.status).toBe(200);
    fidelity('GET', '/chat/users/{userId}/messages', 200, first.json);
    expect(first.json.page_size).toBe(5);
    expect(first.json.from).toBe(query.from);
    const msgs = first.json.messages;
    expect(msgs).toHaveLength(5);
    for (let i = 1; i < msgs.length; i++)
      expect(msgs[i - 1].timestamp).toBeGreaterThanOrEqual(msgs[i].timestamp);
    expect(Number.isInteger(msgs[0].timestamp)).toBe(true);
    expect(msgs[0].date_time).toBe(new Date(msgs[0].timestamp).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect(msgs[0].sender).toMatch(/@meridianfleet\.example$/);
    expect(msgs[0].status).toBeUndefined();
    expect(first.json.next_page_token).not.toBe('');

    const second = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { ...query, next_page_token: first.json.next_page_token },
    });
    expect(second.status).toBe(200);
    expect(second.json.messages[0].timestamp).toBeLessThanOrEqual(msgs[4].timestamp);
    expect(second.json.messages[0].id).not.toBe(msgs[0].id);
    const forged = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { ...query, next_page_token: 'R4aF9Oj0fVM2hhezJTEmSKaBSkfesDwGy42' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });

    const tooBig = await expectViolation({ where: 'query', name: 'page_size', rule: 'maximum 50' }, () =>
      t.api('GET', '/v2/chat/users/me/messages', { token, query: { to_channel: id, page_size: 500 } }),
    );
    expect(tooBig.json).toEqual({ code: 300, message: 'Invalid parameter: page_size.' });
    const big = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: {
        to_channel: id,
        from: tenDaysAgo(),
        page_size: 50,
        include_deleted_and_edited_message: 'true',
      },
    });
    expect(big.json.page_size).toBe(50);
    expect(big.json.messages.length).toBeGreaterThanOrEqual(13);
    expect(big.json.messages.every((m: { status: string }) => m.status === 'Normal')).toBe(true);
    const withFile = big.json.messages.find((m: { file_name?: string }) => m.file_name);
    expect(withFile.files[0].file_name).toBe(withFile.file_name);
    const reply = big.json.messages.find((m: { reply_main_message_id?: string }) => m.reply_main_message_id);
    expect(typeof reply.reply_main_message_timestamp).toBe('number');
    expect(big.json.messages.some((m: { reactions?: unknown[] }) => m.reactions?.length)).toBe(true);
  });

  it('reads one day at a time and only the last 6 months', async () => {
    const id = await channelId('freight-dispatch');
    const d = day(-3);
    const r = await t.api('GET', '/v2/chat/users/me/messages', { token, query: { to_channel: id, date: d } });
    expect(r.status).toBe(200);
    expect(r.json.date).toBe(d);
    expect(r.json.messages.length).toBeGreaterThan(0);
    for (const m of r.json.messages) expect(m.date_time.slice(0, 10)).toBe(d);
    const old = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { to_channel: id, date: '2020-01-01' },
    });
    expect(old.status).toBe(400);
    expect(old.json).toEqual({ code: 300, message: 'Only provide past chat messages in recent 6 months.' });
  });

  it('reads a 1:1 chat by email, user id or member id', async () => {
    const byEmail = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { to_contact: 'priya.natarajan@meridianfleet.example', from: tenDaysAgo() },
    });
    expect(byEmail.status).toBe(200);
    fidelity('GET', '/chat/users/{userId}/messages', 200, byEmail.json);
    expect(byEmail.json.messages).toHaveLength(5);
    const contacts = await t.api('GET', '/v2/chat/users/me/contacts', { token });
    const priya = contacts.json.contacts.find((c: { first_name: string }) => c.first_name === 'Priya');
    const users = await t.api('GET', '/v2/users', { token });
    expect(users.json.users.map((u: { id: string }) => u.id)).toContain(priya.id);
    for (const who of [priya.id, priya.member_id]) {
      const r = await t.api('GET', '/v2/chat/users/me/messages', {
        token,
        query: { to_contact: who, from: tenDaysAgo() },
      });
      expect(r.json.messages.map((m: { id: string }) => m.id)).toEqual(
        byEmail.json.messages.map((m: { id: string }) => m.id),
      );
    }
  });

  it('searches messages across chats', async () => {
    const r = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { search_type: 'message', search_key: 'detention' },
    });
    expect(r.status).toBe(200);
    expect(r.json.messages.length).toBeGreaterThanOrEqual(3);
    for (const m of r.json.messages) expect(m.message.toLowerCase()).toContain('detention');
  });

  it('sends a message (201 {id}), reads it back and emits chat_message.sent', async () => {
    const id = await channelId('growthos-launches');
    const sent = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: { message: 'Launch is a go for Tuesday.', to_channel: id },
    });
    expect(sent.status).toBe(201);
    fidelity('POST', '/chat/users/{userId}/messages', 201, sent.json);
    expect(Object.keys(sent.json)).toEqual(['id']);

    const list = await t.api('GET', '/v2/chat/users/me/messages', { token, query: { to_channel: id } });
    expect(list.json.date).toBe(new Date().toISOString().slice(0, 10));
    expect(list.json.messages[0]).toMatchObject({
      id: sent.json.id,
      message: 'Launch is a go for Tuesday.',
      sender: 'avery.quinn@meridianfleet.example',
      sender_display_name: 'Avery Quinn',
    });

    const one = await t.api('GET', `/v2/chat/users/me/messages/${sent.json.id}`, {
      token,
      query: { to_channel: id },
    });
    expect(one.status).toBe(200);
    fidelity('GET', '/chat/users/{userId}/messages/{messageId}', 200, one.json);
    expect(one.json.message).toBe('Launch is a go for Tuesday.');

    const reply = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: {
        message: '@Jordan Reyes thanks!',
        to_channel: id,
        reply_main_message_id: sent.json.id,
        at_items: [
          {
            at_type: 1,
            at_contact: 'jordan.reyes@meridianfleet.example',
            start_position: 0,
            end_position: 12,
          },
        ],
      },
    });
    expect(reply.status).toBe(201);
    const r1 = await t.api('GET', `/v2/chat/users/me/messages/${reply.json.id}`, {
      token,
      query: { to_channel: id },
    });
    expect(r1.json.reply_main_message_id).toBe(sent.json.id);
    expect(r1.json.at_items[0].at_type).toBe(1);
    const nested = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: { message: 'x', to_channel: id, reply_main_message_id: reply.json.id },
    });
    expect(nested.status).toBe(400);
    expect(nested.json.code).toBe(5402);

    const dm = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: { message: 'Call at 2?', to_contact: 'marcus.bell@meridianfleet.example' },
    });
    expect(dm.status).toBe(201);
    const dms = await t.api('GET', '/v2/chat/users/me/messages', {
      token,
      query: { to_contact: 'marcus.bell@meridianfleet.example' },
    });
    expect(dms.json.messages[0].id).toBe(dm.json.id);

    await expect.poll(() => received.filter((e) => e.event === 'chat_message.sent').length).toBe(3);
    const ev = received.find((e) => e.payload.object.id === sent.json.id);
    expect(ev.payload).toMatchObject({
      operator: 'avery.quinn@meridianfleet.example',
      object: {
        type: 'to_channel',
        channel_id: id,
        channel_name: 'growthos-launches',
        contact_email: '',
        message: 'Launch is a go for Tuesday.',
      },
    });
    expect(typeof ev.payload.object.timestamp).toBe('number');
    const dmEv = received.find((e) => e.payload.object.id === dm.json.id);
    expect(dmEv.payload.object).toMatchObject({
      type: 'to_contact',
      contact_email: 'marcus.bell@meridianfleet.example',
      channel_id: '',
    });

    const gone = await t.api('GET', '/v2/chat/users/me/messages/0000-nope', {
      token,
      query: { to_channel: id },
    });
    expect(gone.status).toBe(400);
    expect(gone.json).toEqual({ code: 300, message: 'Message does not exist: 0000-nope.' });
    const noSession = await t.api('GET', `/v2/chat/users/me/messages/${sent.json.id}`, { token });
    expect(noSession.json).toEqual({
      code: 300,
      message: 'Must provide either "contact" or "channel" parameter.',
    });
  });

  it('validates the message body', async () => {
    const id = await channelId('brand');
    const long = await expectViolation({ where: 'body', name: 'message', rule: 'maxLength 1024' }, () =>
      t.api('POST', '/v2/chat/users/me/messages', {
        token,
        body: { message: 'x'.repeat(1025), to_channel: id },
      }),
    );
    expect(long.status).toBe(400);
    expect(long.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [{ field: 'message', message: 'Invalid field.' }],
    });
    const none = await t.api('POST', '/v2/chat/users/me/messages', { token, body: { message: 'hi' } });
    expect(none.json).toEqual({ code: 300, message: 'Must provide either contact or channel parameter.' });
    const ghost = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: { message: 'hi', to_channel: 'ghost' },
    });
    expect(ghost.status).toBe(404);
    expect(ghost.json.code).toBe(4130);
    const soon = await t.api('POST', '/v2/chat/users/me/messages', {
      token,
      body: { message: 'hi', to_channel: id, scheduled_time: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(soon.status).toBe(400);
    expect(soon.json.message).toMatch(/^Invalid parameter: send_time\./);
  });
});

describe('chat: contacts', () => {
  it('lists company and external contacts', async () => {
    const company = await t.api('GET', '/v2/chat/users/me/contacts', { token, query: { page_size: 3 } });
    expect(company.status).toBe(200);
    fidelity('GET', '/chat/users/me/contacts', 200, company.json);
    expect(company.json.contacts).toHaveLength(3);
    const rest = await t.api('GET', '/v2/chat/users/me/contacts', {
      token,
      query: { page_size: 3, next_page_token: company.json.next_page_token },
    });
    const names = [...company.json.contacts, ...rest.json.contacts].map(
      (c: { first_name: string; last_name: string }) => `${c.first_name} ${c.last_name}`,
    );
    expect(names.sort()).toEqual([
      'Elena Sokolova',
      'Jordan Reyes',
      'Marcus Bell',
      'Priya Natarajan',
      'Sam Okafor',
    ]);
    expect(rest.json.next_page_token).toBe('');

    const external = await t.api('GET', '/v2/chat/users/me/contacts', { token, query: { type: 'external' } });
    fidelity('GET', '/chat/users/me/contacts', 200, external.json);
    expect(external.json.contacts.length).toBeGreaterThanOrEqual(2);
    expect(
      external.json.contacts.every(
        (c: { id: string; email: string }) => c.id === '' && !c.email.endsWith('@meridianfleet.example'),
      ),
    ).toBe(true);

    const one = await t.api('GET', '/v2/chat/users/me/contacts/sam.okafor@meridianfleet.example', {
      token,
      query: { query_presence_status: 'true' },
    });
    expect(one.status).toBe(200);
    fidelity('GET', '/chat/users/me/contacts/{identifier}', 200, one.json);
    // Sam Okafor is seeded offline.
    expect(one.json.presence_status).toBe('Offline');
    const nobody = await t.api('GET', '/v2/chat/users/me/contacts/nobody@example.com', { token });
    expect(nobody.status).toBe(404);
    expect(nobody.json.code).toBe(1001);
  });

  it('searches the company directory', async () => {
    const one = await t.api('GET', '/v2/contacts', { token, query: { search_key: 'meridianfleet' } });
    expect(one.status).toBe(200);
    fidelity('GET', '/contacts', 200, one.json);
    expect(one.json.page_size).toBe(1);
    expect(one.json.contacts).toHaveLength(1);
    expect(one.json.next_page_token).not.toBe('');
    const marcus = await t.api('GET', '/v2/contacts', {
      token,
      query: { search_key: 'bell', query_presence_status: 'true', page_size: 25 },
    });
    fidelity('GET', '/contacts', 200, marcus.json);
    expect(marcus.json.contacts).toHaveLength(1);
    expect(marcus.json.contacts[0]).toMatchObject({
      display_name: 'Marcus Bell',
      contact_type: 1,
      presence_status: 'Do_Not_Disturb',
      user_status: 'active',
    });
    const rooms = await t.api('GET', '/v2/contacts', {
      token,
      query: { search_key: 'boardroom', contact_types: '1,8' },
    });
    fidelity('GET', '/contacts', 200, rooms.json);
    expect(rooms.json.contacts[0].contact_type).toBe(8);
    const missing = await expectViolation({ where: 'query', name: 'search_key', rule: 'required' }, () =>
      t.api('GET', '/v2/contacts', { token }),
    );
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe(300);
  });
});

describe('chat: scopes', () => {
  it('admits a token holding only one documented granular scope, and names the scope otherwise', async () => {
    const s = await startTestEmulator({ scopes: ['team_chat:read:list_user_messages'] }, modules);
    try {
      const tok = (await s.userToken()).access_token;
      const ok = await s.api('GET', '/v2/chat/users/me/messages', {
        token: tok,
        query: { to_contact: 'priya.natarajan@meridianfleet.example' },
      });
      expect(ok.status).toBe(200);
      const denied = await s.api('POST', '/v2/chat/users/me/messages', {
        token: tok,
        body: { message: 'hi', to_contact: 'priya.natarajan@meridianfleet.example' },
      });
      expect(denied.status).toBe(400);
      expect(denied.json.code).toBe(4711);
      expect(denied.json.message).toContain('team_chat:write:user_message');
    } finally {
      await s.close();
    }
  });
});
