import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsModule } from '../src/routes/docs.js';
import { meetingsModule } from '../src/routes/meetings.js';
import { usersModule } from '../src/routes/users.js';
import type { EmulatorModule } from '../src/context.js';
import { checkResponse, documentedScopes } from './helpers/openapi.js';
import { startTestEmulator, type TestEmulator } from './helpers/emulator.js';
import { expectViolation } from './helpers/contract.js';

const MODULES = [usersModule, meetingsModule, docsModule] as EmulatorModule[];
let t: TestEmulator;
let token: string;
beforeAll(async () => {
  t = await startTestEmulator({}, MODULES);
  token = (await t.userToken()).access_token;
});
afterAll(() => t.close());

const fidelity = (method: string, template: string, status: number, body: unknown) =>
  expect(checkResponse('canvas.json', method, template, status, body), `${method} ${template}`).toEqual([]);

const children = (id: string, query: Record<string, string | number> = {}) =>
  t.api('GET', `/v2/docs/files/${id}/children`, { token, query });

describe('docs', () => {
  it('serves My Docs: root id, two folders with playbooks and meeting notes, metadata and Markdown', async () => {
    const root = await t.api('GET', '/v2/docs/users/me/root', { token });
    expect(root.status).toBe(200);
    fidelity('GET', '/docs/users/{userId}/root', 200, root.json);
    const byEmail = await t.api('GET', '/v2/docs/users/avery.quinn@meridianfleet.example/root', { token });
    expect(byEmail.json.root_id).toBe(root.json.root_id);

    const top = await children('root');
    expect(top.status).toBe(200);
    fidelity('GET', '/docs/files/{fileId}/children', 200, top.json);
    expect(top.json.next_page_token).toBe('');
    expect(
      top.json.files
        .slice(0, 2)
        .map((f: { file_name: string }) => f.file_name)
        .sort(),
    ).toEqual(['Meeting notes', 'Playbooks']);
    expect((await children(root.json.root_id)).json.files).toEqual(top.json.files);

    const playbooks = top.json.files.find((f: { file_name: string }) => f.file_name === 'Playbooks');
    const inside = await children(playbooks.file_id);
    expect(inside.json.files.length).toBe(5);
    const doc = inside.json.files.find((f: { file_name: string }) => f.file_name.includes('rate-lock'));
    const meta = await t.api('GET', `/v2/docs/files/${doc.file_id}`, { token });
    fidelity('GET', '/docs/files/{fileId}', 200, meta.json);
    expect(meta.json).toEqual(doc);
    const content = await t.api('GET', `/v2/docs/files/${doc.file_id}/content`, { token });
    fidelity('GET', '/docs/files/{fileId}/content', 200, content.json);
    expect(content.json.file_name).toBe(doc.file_name);
    expect(content.json.file_content).toMatch(/^# Meridian Mortgage rate-lock playbook/);
  });

  it('pages children with opaque tokens; a forged token is a 400 code 300', async () => {
    const notes = (await children('root')).json.files.find(
      (f: { file_name: string }) => f.file_name === 'Meeting notes',
    );
    const first = await children(notes.file_id, { page_size: 2 });
    expect(first.json.files).toHaveLength(2);
    expect(first.json.next_page_token).not.toBe('');
    const second = await children(notes.file_id, {
      page_size: 2,
      next_page_token: first.json.next_page_token,
    });
    expect(second.json.files).toHaveLength(2);
    expect(second.json.files[0].file_id).not.toBe(first.json.files[0].file_id);
    const bad = await children(notes.file_id, { next_page_token: 'forged' });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ code: 300, message: 'The next page token is invalid or expired.' });
  });

  it('creates (201), renames (204) and deletes (204) a file; then it is not found', async () => {
    const folder = await t.api('POST', '/v2/docs/files', {
      token,
      body: { file_name: 'Board packs', file_type: 'folder' },
    });
    expect(folder.status).toBe(201);
    fidelity('POST', '/docs/files', 201, folder.json);
    const doc = await t.api('POST', '/v2/docs/files', { token, body: { parent_id: folder.json.file_id } });
    expect(doc.status).toBe(201);
    const meta = await t.api('GET', `/v2/docs/files/${doc.json.file_id}`, { token });
    expect(meta.json).toMatchObject({ file_name: 'Untitled', file_type: 'doc' });
    expect(
      (await children(folder.json.file_id)).json.files.map((f: { file_id: string }) => f.file_id),
    ).toEqual([doc.json.file_id]);

    const renamed = await t.api('PATCH', `/v2/docs/files/${doc.json.file_id}`, {
      token,
      body: { file_name: 'Q3 board pack' },
    });
    expect(renamed.status).toBe(204);
    expect(renamed.text).toBe('');
    expect((await t.api('GET', `/v2/docs/files/${doc.json.file_id}`, { token })).json.file_name).toBe(
      'Q3 board pack',
    );

    expect((await t.api('DELETE', `/v2/docs/files/${folder.json.file_id}`, { token })).status).toBe(204);
    const gone = await t.api('GET', `/v2/docs/files/${doc.json.file_id}`, { token });
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ code: 4000, message: 'File Not Found/Deleted.' });
    const noParent = await children(folder.json.file_id);
    expect(noParent.status).toBe(404);
    expect(noParent.json.message).toBe('Parent not found.');
    const underMissing = await t.api('POST', '/v2/docs/files', { token, body: { parent_id: 'nope' } });
    expect(underMissing.status).toBe(404);
  });

  it('imports Markdown (201) up to 100 KB and refuses more with code 5109', async () => {
    const md = '# Meridian Housing pet policy\n\n- Two pets per unit\n- $35 monthly pet rent\n';
    const created = await t.api('POST', '/v2/docs/import_content', { token, body: { content: md } });
    expect(created.status).toBe(201);
    fidelity('POST', '/docs/import_content', 201, created.json);
    expect(created.json.file_link).toContain(created.json.file_id);
    const back = await t.api('GET', `/v2/docs/files/${created.json.file_id}/content`, { token });
    expect(back.json).toEqual({ file_name: 'Meridian Housing pet policy', file_content: md });

    const big = await t.api('POST', '/v2/docs/import_content', {
      token,
      body: { file_name: 'Big', content: 'x'.repeat(100 * 1024 + 1) },
    });
    expect(big.status).toBe(400);
    expect(big.json).toEqual({ code: 5109, message: 'The size of content exceeds the limit.' });
  });

  it('searches titles and content with body paging, and validates the search body', async () => {
    const hit = await t.api('POST', '/v2/docs/file_search', { token, body: { query: 'detention' } });
    expect(hit.status).toBe(200);
    fidelity('POST', '/docs/file_search', 200, hit.json);
    // The playbook's title matches; the lane-planning notes mention it in the body.
    expect(hit.json.files[0].file_name).toBe('Meridian Freight detention and layover playbook');
    expect(
      hit.json.files.some((f: { file_name: string }) => f.file_name.startsWith('Freight lane planning')),
    ).toBe(true);

    const tables = await t.api('POST', '/v2/docs/file_search', {
      token,
      body: { file_types: ['data_table'] },
    });
    expect(tables.json.files.map((f: { file_name: string }) => f.file_name)).toEqual([
      'FleetWorks PM schedule',
    ]);

    const first = await t.api('POST', '/v2/docs/file_search', { token, body: { page_size: 3 } });
    expect(first.json.files).toHaveLength(3);
    const second = await t.api('POST', '/v2/docs/file_search', {
      token,
      body: { page_size: 3, next_page_token: first.json.next_page_token },
    });
    expect(second.status).toBe(200);
    expect(second.json.files[0].file_id).not.toBe(first.json.files[0].file_id);
    const changed = await t.api('POST', '/v2/docs/file_search', {
      token,
      body: { query: 'notes', next_page_token: first.json.next_page_token },
    });
    expect(changed.status).toBe(400);
    expect(changed.json.code).toBe(300);

    const bad = await expectViolation({ where: 'body' }, () =>
      t.api('POST', '/v2/docs/file_search', {
        token,
        body: { query: '', page_size: 51, file_types: ['pdf'] },
      }),
    );
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe(300);
    expect(bad.json.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'file_types[0]',
      'page_size',
      'query',
    ]);
    const both = await t.api('POST', '/v2/docs/file_search', {
      token,
      body: { created_time_from: '2026-01-01T00:00:00Z', modified_time_to: '2026-02-01T00:00:00Z' },
    });
    expect(both.status).toBe(400);
  });

  it('admits each call with any one documented scope', async () => {
    const ops: [string, string, string, (root: string, file: string) => { path: string; body?: unknown }][] =
      [
        ['POST', '/docs/files', 'docs:write:file', () => ({ path: '/v2/docs/files', body: {} })],
        [
          'POST',
          '/docs/import_content',
          'docs:write:import',
          () => ({ path: '/v2/docs/import_content', body: { content: '# x' } }),
        ],
        ['GET', '/docs/files/{fileId}', 'docs:read:file', (_r, f) => ({ path: `/v2/docs/files/${f}` })],
        [
          'GET',
          '/docs/files/{fileId}/content',
          'docs:read:export',
          (_r, f) => ({ path: `/v2/docs/files/${f}/content` }),
        ],
        [
          'PATCH',
          '/docs/files/{fileId}',
          'docs:update:file',
          (_r, f) => ({ path: `/v2/docs/files/${f}`, body: { file_name: 'Renamed' } }),
        ],
        [
          'GET',
          '/docs/files/{fileId}/children',
          'docs:read:list_children',
          (r) => ({ path: `/v2/docs/files/${r}/children` }),
        ],
        [
          'GET',
          '/docs/users/{userId}/root',
          'docs:read:file:admin',
          () => ({ path: '/v2/docs/users/me/root' }),
        ],
        [
          'POST',
          '/docs/file_search',
          'canvas:write:file_search',
          () => ({ path: '/v2/docs/file_search', body: {} }),
        ],
        ['DELETE', '/docs/files/{fileId}', 'docs:delete:file', (_r, f) => ({ path: `/v2/docs/files/${f}` })],
      ];
    // Every documented scope is one the emulator accepts for that call.
    const all = (await t.userToken()).scope.split(' ');
    for (const [method, template] of ops)
      for (const s of documentedScopes('canvas.json', method, template))
        expect(all, `${method} ${template}`).toContain(s);

    // Seeds are deterministic, so the seeded ids are the same in every emulator started here.
    const root = (await t.api('GET', '/v2/docs/users/me/root', { token })).json.root_id as string;
    const file = (await children('root')).json.files.find(
      (f: { file_name: string }) => f.file_name === 'Meridian Fleet brand voice guide',
    ).file_id as string;
    for (const [method, template, scope, call] of ops) {
      const only = await startTestEmulator({ scopes: [scope] }, MODULES);
      try {
        const tok = (await only.userToken()).access_token;
        const { path, body } = call(root, file);
        const r = await only.api(method, path, { token: tok, ...(body !== undefined ? { body } : {}) });
        expect(r.status, `${method} ${template} with only ${scope}: ${r.text}`).toBeLessThan(300);
        const other = scope.startsWith('docs:read:file')
          ? `/v2/docs/files/${file}/content`
          : `/v2/docs/files/${file}`;
        const denied = await only.api('GET', other, { token: tok });
        expect(denied.json?.code, `${scope} -> ${other}: ${denied.status} ${denied.text}`).toBe(4711);
      } finally {
        await only.close();
      }
    }
  });
});
