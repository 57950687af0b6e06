/**
 * The emulator refuses what the published documents refuse, at run time and without them (its
 * committed rules, src/contract/rules.json), in the platform's words: a parameter out of its
 * documented range is "Invalid parameter", a body field "Validation Failed." naming it; an
 * undeclared query parameter is only noted, as the platform ignores it. Every violation is kept
 * for GET /_sandbox/contract, which a suite reads from an emulator it runs as a child process.
 * The checker itself is held here to small rules of its own, documents or none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectViolation } from './helpers/contract.js';
import { checkRequest, findOperation, type PlatformRequest } from '../src/contract/check.js';
import type { OperationRule } from '../src/contract/rules.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';

let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator();
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const contract = async () =>
  (await t.api('GET', '/_sandbox/contract')).json as {
    total: number;
    violations: { rule: string; name: string; refuse: boolean }[];
  };

describe('the emulator holds requests to the published contract', () => {
  it("refuses a clips page_size below the documented minimum, with the platform's answer", async () => {
    const before = (await contract()).total;
    const r = await expectViolation({ where: 'query', name: 'page_size', rule: 'minimum 30' }, () =>
      t.api('GET', '/v2/clips', { token, query: { page_size: 1 } }),
    );
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: 300, message: 'Invalid parameter: page_size.' });
    const after = await contract();
    expect(after.total).toBe(before + 1);
    expect(after.violations.at(-1)).toMatchObject({
      surface: 'rest',
      request: 'GET /v2/clips?page_size=1',
      document: 'clips.json',
      operation: 'GET /clips (GetUserClips)',
      where: 'query',
      name: 'page_size',
      rule: 'minimum 30',
      refuse: true,
    });
    expect((await t.api('GET', '/v2/clips', { token, query: { page_size: 30 } })).status).toBe(200);
  });

  it('refuses a body that breaks the request schema, naming the fields', async () => {
    const r = await expectViolation({ where: 'body' }, () =>
      t.api('POST', '/v2/users/me/meetings', { token, body: { topic: 'x', type: 9, duration: 'long' } }),
    );
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(300);
    expect(r.json.message).toBe('Validation Failed.');
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['duration', 'type']);
  });

  it('notes an undeclared query parameter without refusing it, as the platform ignores it', async () => {
    const r = await expectViolation({ where: 'query', name: 'colour', rule: 'declared' }, () =>
      t.api('GET', '/v2/users/me', { token, query: { colour: 'blue' } }),
    );
    expect(r.status).toBe(200);
    expect((await contract()).violations.at(-1)).toMatchObject({ name: 'colour', refuse: false });
  });

  it('takes a bodiless DELETE that says Content-Type: application/json, as the platform does', async () => {
    const created = await t.api('POST', '/v2/users/me/meetings', {
      token,
      body: { topic: 'Empty JSON delete', type: 2, start_time: '2030-03-04T15:00:00Z', duration: 30 },
    });
    const res = await fetch(`${t.base}/v2/meetings/${created.json.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(204);
  });
});

describe('the request checker', () => {
  const rule: OperationRule = {
    method: 'POST',
    path: '/v2/things/{thingId}',
    document: 'test.json',
    template: '/things/{thingId}',
    operationId: 'thing',
    pathParams: [{ name: 'thingId', required: true, schema: { type: 'integer', format: 'int64' } }],
    query: [
      { name: 'page_size', required: false, schema: { type: 'integer', minimum: 30, maximum: 300 } },
      { name: 'kind', required: true, schema: { type: 'string', enum: ['a', 'b'] } },
      { name: 'day', required: false, schema: { type: 'string', format: 'date' } },
      { name: 'on', required: false, schema: { type: 'boolean' } },
    ],
    body: {
      required: true,
      media: ['application/json'],
      schema: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 3 },
          tags: { type: 'array', items: { type: 'string', enum: ['x'] } },
        },
      },
    },
  };
  const req = (over: Partial<PlatformRequest>): PlatformRequest => ({
    method: 'POST',
    path: '/v2/things/12',
    query: { kind: 'a' },
    contentType: 'application/json',
    hasBody: true,
    body: { name: 'abc' },
    ...over,
  });
  const rules = (r: PlatformRequest) => checkRequest(rule, r).map((v) => `${v.where} ${v.name} ${v.rule}`);

  it('passes a request that keeps every rule', () => {
    expect(rules(req({ query: { kind: 'b', page_size: '30', day: '2030-01-31', on: 'true' } }))).toEqual([]);
  });

  it('names each broken rule', () => {
    expect(rules(req({ path: '/v2/things/twelve' }))).toEqual(['path thingId type integer']);
    expect(rules(req({ query: { kind: 'a', page_size: '1' } }))).toEqual(['query page_size minimum 30']);
    expect(rules(req({ query: { kind: 'a', page_size: '301' } }))).toEqual(['query page_size maximum 300']);
    expect(rules(req({ query: { kind: 'c' } }))).toEqual(['query kind enum ["a","b"]']);
    expect(rules(req({ query: {} }))).toEqual(['query kind required']);
    expect(rules(req({ query: { kind: 'a', day: '2030-02-31' } }))).toEqual(['query day format date']);
    expect(rules(req({ query: { kind: 'a', on: 'yes' } }))).toEqual(['query on type boolean']);
    expect(rules(req({ query: { kind: ['a', 'b'] } }))).toEqual(['query kind single value']);
    expect(rules(req({ query: { kind: 'a', extra: '1' } }))).toEqual(['query extra declared']);
    expect(rules(req({ body: {} }))).toEqual(['body name required']);
    expect(rules(req({ body: { name: 'abcd', tags: ['y'] } }))).toEqual([
      'body name maxLength 3',
      'body tags[0] enum ["x"]',
    ]);
    expect(rules(req({ body: { name: 'a', colour: 1 } }))).toEqual(['body colour declared']);
    expect(rules(req({ hasBody: false, body: undefined }))).toEqual(['body (body) required']);
    expect(rules(req({ body: undefined }))).toEqual(['body (body) json']);
    expect(rules(req({ contentType: 'text/plain' }))).toEqual(['body (body) media application/json']);
  });

  it('finds the most specific operation for a path', () => {
    const summaries = { ...rule, method: 'GET', path: '/v2/things/summaries', template: '/things/summaries' };
    const one = { ...rule, method: 'GET' };
    expect(findOperation([one, summaries], 'GET', '/v2/things/summaries')).toBe(summaries);
    expect(findOperation([one, summaries], 'GET', '/v2/things/7')).toBe(one);
    expect(findOperation([one, summaries], 'DELETE', '/v2/things/7')).toBeUndefined();
  });
});

describe('an account-level token', () => {
  it('may not say `me`: it names users by id or email (a violation, answered 404 as an unknown user)', async () => {
    const basicAuth = `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`;
    const res = await fetch(`${t.base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basicAuth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'account_credentials',
        account_id: t.emulator.context.demo.accountId,
      }),
    });
    const account = ((await res.json()) as { access_token: string }).access_token;
    const me = await expectViolation({ where: 'path', name: 'me', rule: 'no me with an account token' }, () =>
      t.api('GET', '/v2/chat/users/me/contacts', { token: account }),
    );
    expect(me.json).toEqual({ code: 1001, message: 'User does not exist: me.' });
    expect((await contract()).violations.at(-1)).toMatchObject({ fromDocuments: false, name: 'me' });
    const byId = await t.api('GET', `/v2/users/${t.emulator.context.demo.id}`, { token: account });
    expect(byId.status).toBe(200);
  });
});

describe('the surfaces no document describes', () => {
  it('OAuth: a token request outside the OAuth reference is a violation, whatever its answer', async () => {
    const noBasic = await expectViolation({ name: 'Authorization' }, () =>
      fetch(`${t.base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials' }),
      }),
    );
    expect(noBasic.status).toBe(401);
    const json = await expectViolation({ name: 'Content-Type' }, () =>
      fetch(`${t.base}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from('sandbox-client:sandbox-secret').toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      }),
    );
    expect(json.status).toBe(200);
    expect((await contract()).violations.at(-1)).toMatchObject({ surface: 'oauth', fromDocuments: false });
  });

  it('the hosted MCP: a tools/call outside its tool input schema is a violation', async () => {
    const call = (body: unknown, contentType = 'application/json') =>
      fetch(`${t.base}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'search_meetings',
        },
        body: JSON.stringify(body),
      });
    const bad = await expectViolation(
      { name: 'search_meetings.page_size', rule: 'tool input too_small' },
      () =>
        call({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'search_meetings',
            arguments: { q: 'x', page_size: 0 },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            },
          },
        }),
    );
    expect(bad.status).toBeLessThan(500);
    const plain = await expectViolation({ rule: 'media application/json' }, () =>
      call({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, 'text/plain'),
    );
    expect(plain.status).toBe(415);
    expect((await contract()).violations.at(-1)).toMatchObject({ surface: 'mcp', fromDocuments: false });
  });
});
