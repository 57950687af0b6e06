import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { zraModule } from '../src/routes/zra.js';
import { ZRA_SCOPES } from '../src/routes/zra/records.js';
import { checkResponse, documentedScopes } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, zraModule];
const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('iq.json', method, template, status, body), `${method} ${template}`).toEqual([]);
const enc = encodeURIComponent;

let t: TestEmulator;
let token: string;
let hookServer: Server;
const hooks: { headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  hookServer = createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      hooks.push({ headers: req.headers, body: data });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  const port = (hookServer.address() as AddressInfo).port;
  t = await startTestEmulator({ webhookUrl: `http://127.0.0.1:${port}/hooks` }, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => hookServer.close(resolve));
});

const allConversations = async () =>
  (await t.api('GET', '/v2/zra/conversations', { token, query: { page_size: 300 } })).json.conversations;

describe('zra conversations', () => {
  it('lists conversations per the documented schema, with token pagination', async () => {
    const first = await t.api('GET', '/v2/zra/conversations', { token, query: { page_size: 10 } });
    expect(first.status).toBe(200);
    fidelity('GET', '/zra/conversations', 200, first.json);
    expect(first.json.page_size).toBe(10);
    expect(first.json.conversations).toHaveLength(10);
    expect(first.json.next_page_token).not.toBe('');
    const second = await t.api('GET', '/v2/zra/conversations', {
      token,
      query: { page_size: 10, next_page_token: first.json.next_page_token },
    });
    expect(second.json.conversations[0].conversation_id).not.toBe(
      first.json.conversations[0].conversation_id,
    );
    const third = await t.api('GET', '/v2/zra/conversations', {
      token,
      query: { page_size: 10, next_page_token: second.json.next_page_token },
    });
    expect(third.json.conversations).toHaveLength(5);
    expect(third.json.next_page_token).toBe('');
    const forged = await t.api('GET', '/v2/zra/conversations', {
      token,
      query: { next_page_token: 'forged' },
    });
    expect(forged.status).toBe(400);
    expect(forged.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
    const big = await t.api('GET', '/v2/zra/conversations', { token, query: { page_size: 300 } });
    expect(big.json.page_size).toBe(300);
    const tooBig = await expectViolation({ where: 'query', name: 'page_size', rule: 'maximum 300' }, () =>
      t.api('GET', '/v2/zra/conversations', { token, query: { page_size: 1000 } }),
    );
    expect(tooBig.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [{ field: 'page_size', message: 'Invalid field.' }],
    });
  });

  it('filters by type, deal, host and time, and rejects a bad time or unknown ids', async () => {
    const all = await allConversations();
    expect(all.length).toBe(25);
    const phone = await t.api('GET', '/v2/zra/conversations', {
      token,
      query: { conversation_type: 'phone' },
    });
    expect(phone.json.conversations.length).toBeGreaterThan(0);
    for (const c of phone.json.conversations) expect(c.conversation_type).toBe('phone');
    const dealId = all.find((c: any) => c.deal_id).deal_id;
    const byDeal = await t.api('GET', '/v2/zra/conversations', { token, query: { deal_id: dealId } });
    expect(byDeal.json.conversations.length).toBeGreaterThanOrEqual(1);
    for (const c of byDeal.json.conversations) expect(c.deal_id).toBe(dealId);
    const me = (await t.api('GET', '/v2/users/me', { token })).json.id;
    const mine = await t.api('GET', '/v2/zra/conversations', { token, query: { host_id: me } });
    expect(mine.json.conversations.length).toBeGreaterThan(0);
    for (const c of mine.json.conversations) expect(c.host_id).toBe(me);
    const from = new Date(Date.now() - 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const to = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const week = await t.api('GET', '/v2/zra/conversations', { token, query: { from, to } });
    fidelity('GET', '/zra/conversations', 200, week.json);
    expect(week.json).toMatchObject({ from, to });
    expect(week.json.conversations.length).toBeGreaterThan(0);
    expect(week.json.conversations.length).toBeLessThan(all.length);
    for (const c of week.json.conversations)
      expect(c.meeting_start_time >= from && c.meeting_start_time <= to).toBe(true);

    const badTime = await t.api('GET', '/v2/zra/conversations', { token, query: { from: 'last week' } });
    expect(badTime.status).toBe(400);
    expect(badTime.json).toEqual({ code: 1001, message: 'The from or to time is invalid.' });
    const badType = await expectViolation({ where: 'query', name: 'conversation_type' }, () =>
      t.api('GET', '/v2/zra/conversations', { token, query: { conversation_type: 'video' } }),
    );
    expect(badType.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [{ field: 'conversation_type', message: 'Invalid field.' }],
    });
    const noDeal = await t.api('GET', '/v2/zra/conversations', { token, query: { deal_id: 'nope' } });
    expect(noDeal.status).toBe(404);
    expect(noDeal.json).toEqual({ code: 1005, message: 'Deal does not exist: nope' });
  });

  it('gets every conversation by its (encoded) id, and 404s an unknown one', async () => {
    const all = await allConversations();
    expect(all.some((c: any) => c.conversation_id.includes('/'))).toBe(true);
    for (const item of all) {
      const r = await t.api('GET', `/v2/zra/conversations/${enc(item.conversation_id)}`, { token });
      expect(r.status, item.conversation_id).toBe(200);
      fidelity('GET', '/zra/conversations/{conversationId}', 200, r.json);
      expect(r.json.conversation_id).toBe(item.conversation_id);
      expect(r.json.participants.map((x: any) => x.type)).toEqual(
        expect.arrayContaining(['rep', 'customer']),
      );
    }
    const double = all.find((c: any) => c.conversation_id.includes('/'));
    const twice = await t.api('GET', `/v2/zra/conversations/${enc(enc(double.conversation_id))}`, { token });
    expect(twice.json.conversation_id).toBe(double.conversation_id);
    const missing = await t.api('GET', '/v2/zra/conversations/nope', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 1005, message: 'Conversation does not exist: nope.' });
  });

  it('returns content analysis for every analysis_type, and requires one', async () => {
    const all = await allConversations();
    const id = enc(all.find((c: any) => c.deal_id).conversation_id);
    const keys: Record<string, string> = {
      topics: 'topics',
      nextSteps: 'next_steps',
      engagingQuestions: 'good_questions',
      indicators: 'indicators',
      smartChapters: 'smart_chapters',
      dealMemo: 'deal_memo',
      playbooks: 'playbooks',
    };
    const everything = await t.api('GET', `/v2/zra/conversations/${id}/content_analysis`, {
      token,
      query: { analysis_type: 'all' },
    });
    for (const [type, key] of Object.entries(keys)) {
      const r = await t.api('GET', `/v2/zra/conversations/${id}/content_analysis`, {
        token,
        query: { analysis_type: type },
      });
      expect(r.status, type).toBe(200);
      fidelity('GET', '/zra/conversations/{conversationId}/content_analysis', 200, r.json);
      // One part, with content, and the same part the whole analysis has.
      expect(Object.keys(r.json[key] ?? {}).length, type).toBeGreaterThan(0);
      expect(r.json[key], type).toEqual(everything.json[key]);
      for (const other of Object.values(keys).filter((k) => k !== key))
        expect(r.json[other], `${type} ${other}`).toBeUndefined();
    }
    fidelity('GET', '/zra/conversations/{conversationId}/content_analysis', 200, everything.json);
    expect(Object.keys(everything.json)).toEqual(
      expect.arrayContaining([
        'summary',
        'topics',
        'next_steps',
        'good_questions',
        'smart_chapters',
        'deal_memo',
      ]),
    );
    expect(everything.json.smart_chapters.length).toBe(4);
    const missing = await expectViolation({ where: 'query', name: 'analysis_type', rule: 'required' }, () =>
      t.api('GET', `/v2/zra/conversations/${id}/content_analysis`, { token }),
    );
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ code: 1001, message: 'Invalid request parameter.' });
  });
});

describe('zra comments', () => {
  it('lists seeded comments, adds one (201) that reads back, and emits the webhook', async () => {
    const all = await allConversations();
    let withComments: any;
    for (const c of all) {
      const r = await t.api('GET', `/v2/zra/conversations/${enc(c.conversation_id)}/comments`, { token });
      fidelity('GET', '/zra/conversations/{conversationId}/comments', 200, r.json);
      if (r.json.comments.length) {
        withComments = { id: c.conversation_id, comments: r.json.comments };
        break;
      }
    }
    expect(withComments.comments[1].parent_comment_id).toBe(withComments.comments[0].id);
    const me = (await t.api('GET', '/v2/users/me', { token })).json;
    const created = await t.api('POST', `/v2/zra/conversations/${enc(withComments.id)}/comments`, {
      token,
      body: {
        comment: 'Strong close. Send the recap today.',
        parent_comment_id: withComments.comments[0].id,
        mention_user_ids: [me.id],
        time_in_recording: '00:01:30',
      },
    });
    expect(created.status).toBe(201);
    fidelity('POST', '/zra/conversations/{conversationId}/comments', 201, created.json);
    expect(created.json).toMatchObject({
      comment: 'Strong close. Send the recap today.',
      parent_comment_id: withComments.comments[0].id,
      user_email: me.email,
      mention_users: [{ user_id: me.id, user_name: 'Avery Quinn' }],
      is_private: false,
      time_in_recording: '00:01:30',
    });
    const list = await t.api('GET', `/v2/zra/conversations/${enc(withComments.id)}/comments`, { token });
    expect(list.json.comments.at(-1)).toEqual(created.json);

    for (let i = 0; i < 40 && !hooks.some((h) => h.body.includes(created.json.id)); i++)
      await new Promise((r) => setTimeout(r, 25));
    const hook = hooks.find((h) => h.body.includes(created.json.id));
    expect(hook).toBeDefined();
    const event = JSON.parse(hook!.body);
    expect(event).toMatchObject({
      event: 'revenue_accelerator.post_comment_completed',
      payload: {
        operator_id: me.id,
        operator: me.email,
        object: {
          comment_id: created.json.id,
          conversation_id: withComments.id,
          text: 'Strong close. Send the recap today.',
        },
      },
    });
    expect(Object.keys(event.payload).sort()).toEqual(['account_id', 'object', 'operator', 'operator_id']);
    // The platform's documented scheme: v0= and the hex HMAC-SHA256 of `v0:{timestamp}:{body}`
    // under the app's secret token (computed here, not with the emulator's signer).
    const ts = String(hook!.headers['x-zm-request-timestamp']);
    expect(ts).toMatch(/^\d{10}$/); // unix seconds
    expect(hook!.headers['x-zm-signature']).toBe(
      `v0=${createHmac('sha256', 'sandbox-webhook-secret').update(`v0:${ts}:${hook!.body}`).digest('hex')}`,
    );
  });

  it('validates the comment body', async () => {
    const id = enc((await allConversations())[0].conversation_id);
    const empty = await expectViolation({ where: 'body' }, () =>
      t.api('POST', `/v2/zra/conversations/${id}/comments`, { token, body: { is_private: 'yes' } }),
    );
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({
      code: 300,
      message: 'Validation Failed.',
      errors: [
        { field: 'comment', message: 'Invalid field.' },
        { field: 'is_private', message: 'Invalid field.' },
      ],
    });
    const orphan = await t.api('POST', `/v2/zra/conversations/${id}/comments`, {
      token,
      body: { comment: 'x', parent_comment_id: 'nope' },
    });
    expect(orphan.json).toEqual({ code: 1001, message: 'Invalid request param' });
    const late = await t.api('POST', `/v2/zra/conversations/${id}/comments`, {
      token,
      body: { comment: 'x', time_in_recording: '09:00:00' },
    });
    expect(late.json.code).toBe(1001);
    const gone = await t.api('POST', '/v2/zra/conversations/nope/comments', {
      token,
      body: { comment: 'x' },
    });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ code: 1005, message: 'Conversation does not exist: nope' });
  });
});

describe('zra deals', () => {
  it('lists deals across the sales businesses, paginated, and filters them', async () => {
    const first = await t.api('GET', '/v2/zra/deals', { token, query: { page_size: 5 } });
    expect(first.status).toBe(200);
    fidelity('GET', '/zra/deals', 200, first.json);
    expect(first.json.deals).toHaveLength(5);
    const second = await t.api('GET', '/v2/zra/deals', {
      token,
      query: { page_size: 5, next_page_token: first.json.next_page_token },
    });
    expect(second.json.deals[0].deal_id).not.toBe(first.json.deals[0].deal_id);
    const all = (await t.api('GET', '/v2/zra/deals', { token })).json.deals;
    expect(all).toHaveLength(12);
    const accounts = all.map((d: any) => d.deal_name).join(' ');
    for (const word of ['Lead Program', 'Line of Credit', 'Refinance', 'Memphis Lane'])
      expect(accounts).toContain(word);
    expect(all.reduce((n: number, d: any) => n + d.number_of_conversations, 0)).toBe(24);
    const big = await t.api('GET', '/v2/zra/deals', { token, query: { min_deal_amount: 500000 } });
    expect(big.json.deals.length).toBeGreaterThan(0);
    expect(big.json.deals.length).toBeLessThan(all.length);
    for (const d of big.json.deals) expect(d.deal_amount).toBeGreaterThanOrEqual(500000);
    const won = await t.api('GET', '/v2/zra/deals', { token, query: { deal_stage: 'Closed Won' } });
    expect(won.json.deals.length).toBeGreaterThan(0);
    for (const d of won.json.deals) expect([d.deal_stage, d.deal_is_closed]).toEqual(['Closed Won', true]);
    const owner = await t.api('GET', '/v2/zra/deals', { token, query: { owner_id: 'nobody' } });
    expect(owner.json).toEqual({ code: 1005, message: 'Owner does not exist: nobody' });
  });

  it('gets a deal and its activities, and 404s an unknown deal', async () => {
    const all = (await t.api('GET', '/v2/zra/deals', { token })).json.deals;
    for (const d of all) {
      const got = await t.api('GET', `/v2/zra/deals/${d.deal_id}`, { token });
      fidelity('GET', '/zra/deals/{dealId}', 200, got.json);
      expect(got.json.contacts.length).toBeGreaterThan(0);
      const acts = await t.api('GET', `/v2/zra/deals/${d.deal_id}/activities`, { token });
      fidelity('GET', '/zra/deals/{dealId}/activities', 200, acts.json);
      expect(acts.json.activities.filter((a: any) => a.conversation_id)).toHaveLength(
        d.number_of_conversations,
      );
    }
    const types = new Set<string>();
    for (const d of all)
      for (const a of (await t.api('GET', `/v2/zra/deals/${d.deal_id}/activities`, { token })).json
        .activities)
        types.add(a.activity_type);
    expect([...types].sort()).toEqual(['call', 'email', 'meeting']);
    const missing = await t.api('GET', '/v2/zra/deals/0065g00000XXXXXAAA', { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 1005, message: 'Deal does not exist: 0065g00000XXXXXAAA.' });
    const noActs = await t.api('GET', '/v2/zra/deals/nope/activities', { token });
    expect(noActs.json).toEqual({ code: 1005, message: 'Deal does not exist: nope.' });
  });
});

describe('zra scopes', () => {
  it('accepts every scope the spec lists for each operation', () => {
    const ops: [keyof typeof ZRA_SCOPES, string, string][] = [
      ['listConversations', 'GET', '/zra/conversations'],
      ['conversation', 'GET', '/zra/conversations/{conversationId}'],
      ['analysis', 'GET', '/zra/conversations/{conversationId}/content_analysis'],
      ['comments', 'GET', '/zra/conversations/{conversationId}/comments'],
      ['addComment', 'POST', '/zra/conversations/{conversationId}/comments'],
      ['deals', 'GET', '/zra/deals'],
      ['deal', 'GET', '/zra/deals/{dealId}'],
      ['activities', 'GET', '/zra/deals/{dealId}/activities'],
    ];
    for (const [key, method, path] of ops)
      expect(ZRA_SCOPES[key], path).toEqual(
        expect.arrayContaining(documentedScopes('iq.json', method, path)),
      );
  });

  it('admits a token holding one granular scope and refuses the rest', async () => {
    const narrow = await startTestEmulator({ scopes: ['zra:read:list_deals'] }, MODULES);
    try {
      const tok = (await narrow.userToken()).access_token;
      expect((await narrow.api('GET', '/v2/zra/deals', { token: tok })).status).toBe(200);
      const r = await narrow.api('GET', '/v2/zra/conversations', { token: tok });
      expect(r.status).toBe(400);
      expect(r.json).toEqual({
        code: 4711,
        message: 'Invalid access token, does not contain scopes:[zra:read:list_conversations].',
      });
    } finally {
      await narrow.close();
    }
  });
});
