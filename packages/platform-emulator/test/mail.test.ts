import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef, EmulatorContext, EmulatorModule } from '../src/context.js';
import { mailModule } from '../src/routes/mail.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import { checkResponse, documentedScopes, itWithSpecs, publishedSpec } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, mailModule] as EmulatorModule[];
const DEMO = 'avery.quinn@meridianfleet.example';
const BOX = '/v2/emails/mailboxes/me';

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('mail.json', method, template, status, body), `${method} ${template}`).toEqual([]);
const T = (suffix: string) => `/emails/mailboxes/{email}${suffix}`;

const raw = (lines: string[]) => Buffer.from(lines.join('\r\n')).toString('base64url');
const header = (msg: { payload: { headers: { name: string; value: string }[] } }, name: string) =>
  msg.payload.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
const plainText = (msg: { payload: { parts: { mimeType: string; body: { data: string } }[] } }) =>
  Buffer.from(msg.payload.parts.find((x) => x.mimeType === 'text/plain')!.body.data, 'base64url').toString(
    'utf8',
  );

describe('mail routes', () => {
  itWithSpecs('declare every documented scope and the documented rate-limit label', () => {
    const defs: RouteDef[] = [];
    mailModule.register({ route: (d: RouteDef) => defs.push(d) } as unknown as EmulatorContext);
    const spec = publishedSpec('mail.json');
    expect(defs).toHaveLength(12);
    for (const d of defs) {
      const template = d.url.replace(/:(\w+)/g, '{$1}');
      const scopes = documentedScopes('mail.json', d.method, template);
      expect(scopes.length).toBeGreaterThan(0);
      expect(d.scopes, `${d.method} ${template}`).toEqual(expect.arrayContaining(scopes));
      const description = spec.paths[template][d.method.toLowerCase()].description as string;
      expect(description).toContain(`\`${d.label}\``);
    }
  });

  it('admits a token holding only one documented granular scope', async () => {
    const narrow = await startTestEmulator({ scopes: ['email:read:list_msgs'] }, MODULES);
    try {
      const tok = (await narrow.userToken()).access_token;
      expect((await narrow.api('GET', `${BOX}/messages`, { token: tok })).status).toBe(200);
      const denied = await narrow.api('GET', `${BOX}/profile`, { token: tok });
      expect(denied.status).toBe(400);
      expect(denied.json.code).toBe(4711);
    } finally {
      await narrow.close();
    }
  });
});

describe('mailbox', () => {
  it('serves the profile for me or the address; another mailbox is 404 "Not Found."', async () => {
    const r = await t.api('GET', `${BOX}/profile`, { token });
    expect(r.status).toBe(200);
    fidelity('GET', T('/profile'), 200, r.json);
    expect(r.json).toMatchObject({ emailAddress: DEMO, status: 'active', encryptionEnabled: false });
    expect(r.json.messagesTotal).toBeGreaterThanOrEqual(30);
    expect(r.json.threadsTotal).toBeGreaterThanOrEqual(12);
    expect((await t.api('GET', `/v2/emails/mailboxes/${DEMO}/profile`, { token })).status).toBe(200);
    const other = await t.api('GET', '/v2/emails/mailboxes/someone@else.example/profile', { token });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ code: 404, message: 'Not Found.' });
    const noAuth = await t.api('GET', `${BOX}/profile`);
    expect(noAuth.status).toBe(401);
  });
});

describe('messages', () => {
  it('lists messages newest first, with maxResults / pageToken paging', async () => {
    const r = await t.api('GET', `${BOX}/messages`, { token });
    expect(r.status).toBe(200);
    fidelity('GET', T('/messages'), 200, r.json);
    expect(r.json.resultSizeEstimate).toBeGreaterThanOrEqual(30);
    expect(r.json.nextPageToken).toBeUndefined();
    const first = await t.api('GET', `${BOX}/messages`, { token, query: { maxResults: 10 } });
    expect(first.json.messages).toHaveLength(10);
    expect(first.json.nextPageToken).toBeTruthy();
    const second = await t.api('GET', `${BOX}/messages`, {
      token,
      query: { maxResults: 10, pageToken: first.json.nextPageToken },
    });
    fidelity('GET', T('/messages'), 200, second.json);
    expect(second.json.messages[0].id).toBe(r.json.messages[10].id);
    const forged = await t.api('GET', `${BOX}/messages`, { token, query: { pageToken: 'forged' } });
    expect(forged.status).toBe(400);
    expect(forged.json.code).toBe(300);
    const bad = await t.api('GET', `${BOX}/messages`, { token, query: { maxResults: 'lots' } });
    expect(bad.json).toEqual({ code: 400, message: 'Invalid Request.' });
  });

  it('filters by labelIds, q and includeSpamTrash', async () => {
    const unread = await t.api('GET', `${BOX}/messages`, { token, query: { labelIds: 'UNREAD' } });
    expect(unread.json.messages.length).toBeGreaterThan(3);
    for (const m of unread.json.messages.slice(0, 3)) {
      const got = await t.api('GET', `${BOX}/messages/${m.id}`, { token, query: { format: 'minimal' } });
      expect(got.json.labelIds).toContain('UNREAD');
    }
    const sent = await t.api('GET', `${BOX}/messages`, { token, query: { labelIds: 'SENT' } });
    expect(sent.json.messages.length).toBeGreaterThanOrEqual(10);
    const lakeshore = await t.api('GET', `${BOX}/messages`, { token, query: { q: 'lakeshore' } });
    expect(lakeshore.json.resultSizeEstimate).toBeGreaterThanOrEqual(3);
    const fromDana = await t.api('GET', `${BOX}/messages`, { token, query: { q: 'from:dana is:unread' } });
    expect(fromDana.json.messages).toHaveLength(1);
    const all = await t.api('GET', `${BOX}/messages`, { token, query: { maxResults: 500 } });
    const withSpam = await t.api('GET', `${BOX}/messages`, {
      token,
      query: { maxResults: 500, includeSpamTrash: 'true' },
    });
    expect(withSpam.json.resultSizeEstimate).toBe(all.json.resultSizeEstimate + 1);
  });

  it('gets a message in full, metadata, minimal and raw formats', async () => {
    const list = await t.api('GET', `${BOX}/messages`, { token, query: { q: 'subject:"credit memo"' } });
    const id = list.json.messages.at(-1).id as string;
    const full = await t.api('GET', `${BOX}/messages/${id}`, { token });
    expect(full.status).toBe(200);
    fidelity('GET', T('/messages/{messageId}'), 200, full.json);
    expect(header(full.json, 'Subject')).toBe('Harbor Street duplexes - credit memo draft');
    expect(header(full.json, 'From')).toBe('Sam Okafor <sam.okafor@meridianfleet.example>');
    expect(header(full.json, 'To')).toContain(DEMO);
    expect(Date.parse(header(full.json, 'Date')!)).toBe(
      Math.floor(Number(full.json.internalDate) / 1000) * 1000,
    );
    expect(plainText(full.json)).toContain('DSCR is 1.31');
    expect(full.json.snippet).toMatch(/^Avery, First draft of the credit memo/);
    const meta = await t.api('GET', `${BOX}/messages/${id}`, {
      token,
      query: { format: 'metadata', metadataHeaders: 'Subject' },
    });
    fidelity('GET', T('/messages/{messageId}'), 200, meta.json);
    expect(meta.json.payload.headers).toEqual([
      { name: 'Subject', value: 'Harbor Street duplexes - credit memo draft' },
    ]);
    const minimal = await t.api('GET', `${BOX}/messages/${id}`, { token, query: { format: 'minimal' } });
    fidelity('GET', T('/messages/{messageId}'), 200, minimal.json);
    expect(minimal.json.payload).toBeUndefined();
    const rawMsg = await t.api('GET', `${BOX}/messages/${id}`, { token, query: { format: 'raw' } });
    fidelity('GET', T('/messages/{messageId}'), 200, rawMsg.json);
    expect(Buffer.from(rawMsg.json.raw, 'base64url').toString()).toContain(
      'Subject: Harbor Street duplexes - credit memo draft\r\n',
    );
    const missing = await t.api('GET', `${BOX}/messages/89f1000000000000_e856432f45a75bea_001`, { token });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ code: 404, message: 'Not Found.' });
    const html = await expectViolation({ where: 'query', name: 'format' }, () =>
      t.api('GET', `${BOX}/messages/${id}`, { token, query: { format: 'html' } }),
    );
    expect(html.json).toEqual({ code: 400, message: 'Invalid Request.' });
  });

  it('sends base64url RFC 2822 (200 with SENT) and stores its subject, recipients and text', async () => {
    const r = await t.api('POST', `${BOX}/messages/send`, {
      token,
      body: {
        raw: raw([
          'From: Avery Quinn <avery.quinn@meridianfleet.example>',
          'To: "Whitfield, Dana" <dana.whitfield@lakeshorelogistics.example>, marcus.bell@meridianfleet.example',
          'Subject: =?UTF-8?B?UGlsb3Qgd2VlayAx4oCUcGxhbg==?=',
          'Content-Type: text/plain; charset="UTF-8"',
          '',
          'Dana,',
          '',
          'Week 1 of the pilot starts Monday with 12 loads.',
        ]),
      },
    });
    expect(r.status).toBe(200);
    fidelity('POST', T('/messages/send'), 200, r.json);
    expect(r.json.labelIds).toEqual(['SENT']);
    expect(r.json.threadId).toBe(r.json.id);
    const got = await t.api('GET', `${BOX}/messages/${r.json.id}`, { token });
    expect(header(got.json, 'Subject')).toBe('Pilot week 1\u2014plan');
    expect(header(got.json, 'To')).toBe(
      '"Whitfield, Dana" <dana.whitfield@lakeshorelogistics.example>, marcus.bell@meridianfleet.example',
    );
    expect(plainText(got.json)).toBe('Dana,\n\nWeek 1 of the pilot starts Monday with 12 loads.\r\n');
    const sent = await t.api('GET', `${BOX}/messages`, { token, query: { labelIds: 'SENT', maxResults: 1 } });
    expect(sent.json.messages[0].id).toBe(r.json.id);

    // A reply carrying In-Reply-To joins the original thread.
    const original = header(got.json, 'Message-ID')!;
    const reply = await t.api('POST', `${BOX}/messages/send`, {
      token,
      body: {
        raw: raw([
          'To: dana.whitfield@lakeshorelogistics.example',
          'Subject: Re: Pilot week 1',
          `In-Reply-To: ${original}`,
          '',
          'One more thing.',
        ]),
      },
    });
    expect(reply.json.threadId).toBe(r.json.id);
  });

  it('rejects a missing or invalid raw, or one without recipients, with 400 "Invalid Request."', async () => {
    // The first two break the document (refused before the mailbox reads them), the rest only the mailbox's rules.
    for (const [i, b] of [
      {},
      { raw: 42 },
      { raw: '***not base64***' },
      { raw: raw(['Subject: nobody', '', 'text']) },
      { raw: raw(['To: not-an-address', '', 'x']) },
    ].entries()) {
      const send = () => t.api('POST', `${BOX}/messages/send`, { token, body: b });
      const r = i < 2 ? await expectViolation({ where: 'body', name: 'raw' }, send) : await send();
      expect(r.status, JSON.stringify(b)).toBe(400);
      expect(r.json).toEqual({ code: 400, message: 'Invalid Request.' });
    }
  });
});

describe('drafts', () => {
  it('creates, lists, gets, updates, sends and deletes drafts', async () => {
    const created = await t.api('POST', `${BOX}/drafts`, {
      token,
      body: {
        message: {
          raw: raw([
            'To: sam.okafor@meridianfleet.example',
            'Subject: Fuel invoice check',
            '',
            'Sam, did INV-88213 clear?',
          ]),
        },
      },
    });
    expect(created.status).toBe(200);
    fidelity('POST', T('/drafts'), 200, created.json);
    expect(created.json.message.labelIds).toEqual(['DRAFT']);
    const draftId = created.json.id as string;

    const list = await t.api('GET', `${BOX}/drafts`, { token });
    expect(list.status).toBe(200);
    fidelity('GET', T('/drafts'), 200, list.json);
    expect(list.json.resultSizeEstimate).toBe(3);
    expect(list.json.drafts[0]).toEqual({
      id: draftId,
      message: { id: created.json.message.id, threadId: created.json.message.threadId },
    });

    const got = await t.api('GET', `${BOX}/drafts/${draftId}`, { token });
    expect(got.status).toBe(200);
    fidelity('GET', T('/drafts/{draftId}'), 200, got.json);
    expect(header(got.json.message, 'Subject')).toBe('Fuel invoice check');

    const updated = await t.api('PUT', `${BOX}/drafts/${draftId}`, {
      token,
      body: {
        message: {
          raw: raw([
            'To: sam.okafor@meridianfleet.example',
            'Cc: priya.natarajan@meridianfleet.example',
            'Subject: Fuel invoice INV-88213',
            '',
            'Sam, did it clear?',
          ]),
        },
      },
    });
    expect(updated.status).toBe(200);
    fidelity('PUT', T('/drafts/{draftId}'), 200, updated.json);
    const reread = await t.api('GET', `${BOX}/drafts/${draftId}`, { token });
    expect(header(reread.json.message, 'Subject')).toBe('Fuel invoice INV-88213');
    expect(header(reread.json.message, 'Cc')).toBe('priya.natarajan@meridianfleet.example');
    const noMessage = await expectViolation({ where: 'body', name: 'message', rule: 'required' }, () =>
      t.api('PUT', `${BOX}/drafts/${draftId}`, { token, body: {} }),
    );
    expect(noMessage.status).toBe(400);

    const sent = await t.api('POST', `${BOX}/drafts/send`, { token, body: { id: draftId } });
    expect(sent.status).toBe(200);
    fidelity('POST', T('/drafts/send'), 200, sent.json);
    expect(sent.json).toEqual({
      id: created.json.message.id,
      threadId: created.json.message.threadId,
      labelIds: ['SENT'],
    });
    expect((await t.api('GET', `${BOX}/drafts/${draftId}`, { token })).status).toBe(404);
    const asSent = await t.api('GET', `${BOX}/messages/${sent.json.id}`, {
      token,
      query: { format: 'minimal' },
    });
    expect(asSent.json.labelIds).toEqual(['SENT']);

    const empty = await t.api('POST', `${BOX}/drafts`, { token, body: {} });
    expect(empty.status).toBe(200);
    const cannotSend = await t.api('POST', `${BOX}/drafts/send`, { token, body: { id: empty.json.id } });
    expect(cannotSend.json).toEqual({ code: 400, message: 'Invalid Request.' });
    const del = await t.api('DELETE', `${BOX}/drafts/${empty.json.id}`, { token });
    expect(del.status).toBe(204);
    expect((await t.api('GET', `${BOX}/drafts/${empty.json.id}`, { token })).json).toEqual({
      code: 404,
      message: 'Not Found.',
    });
    expect((await t.api('POST', `${BOX}/drafts/send`, { token, body: { id: 'nope' } })).status).toBe(404);
    const noId = await expectViolation({ where: 'body', name: 'id', rule: 'required' }, () =>
      t.api('POST', `${BOX}/drafts/send`, { token, body: {} }),
    );
    expect(noId.status).toBe(400);
  });
});

describe('threads', () => {
  it('lists threads with their names and gets one with its messages in order', async () => {
    const r = await t.api('GET', `${BOX}/threads`, { token });
    expect(r.status).toBe(200);
    fidelity('GET', T('/threads'), 200, r.json);
    expect(r.json.resultSizeEstimate).toBeGreaterThanOrEqual(12);
    const lanes = r.json.threads.find(
      (x: { threadName: string }) => x.threadName === 'Q3 lane rates - Lakeshore Logistics',
    );
    expect(lanes.snippet).toMatch(/^Avery, 1.5% with the pilot commitment/);
    const page = await t.api('GET', `${BOX}/threads`, { token, query: { maxResults: 5 } });
    expect(page.json.threads).toHaveLength(5);
    const page2 = await t.api('GET', `${BOX}/threads`, {
      token,
      query: { maxResults: 5, pageToken: page.json.nextPageToken },
    });
    expect(page2.json.threads[0].id).toBe(r.json.threads[5].id);
    const unread = await t.api('GET', `${BOX}/threads`, { token, query: { labelIds: 'UNREAD' } });
    expect(unread.json.threads.length).toBeLessThan(r.json.threads.length);

    const got = await t.api('GET', `${BOX}/threads/${lanes.id}`, { token });
    expect(got.status).toBe(200);
    fidelity('GET', T('/threads/{threadId}'), 200, got.json);
    expect(got.json.messages).toHaveLength(3);
    expect(got.json.messages.map((m: { labelIds: string[] }) => m.labelIds[0])).toEqual([
      'INBOX',
      'SENT',
      'INBOX',
    ]);
    expect(header(got.json.messages[2], 'In-Reply-To')).toBe(header(got.json.messages[1], 'Message-ID'));
    const minimal = await t.api('GET', `${BOX}/threads/${lanes.id}`, { token, query: { format: 'minimal' } });
    fidelity('GET', T('/threads/{threadId}'), 200, minimal.json);
    const missing = await t.api('GET', `${BOX}/threads/6ddf401500000000_e858101177b8152c_001`, { token });
    expect(missing.json).toEqual({ code: 404, message: 'Not Found.' });
  });
});
