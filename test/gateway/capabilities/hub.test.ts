/**
 * hub (docs) operations against the emulator: listing My Docs, reading a document as Markdown,
 * a folder's children, search, creating from Markdown and renaming.
 */
import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/gateway/capabilities/catalog.js';
import type { Operation } from '../../../src/gateway/capabilities/operation.js';
import { hubOps } from '../../../src/gateway/capabilities/ops/hub.js';
import { parseInput } from '../../../src/gateway/capabilities/registry.js';
import { expectOutput } from '../../helpers/op-output.js';
import { linkedGateway } from './fixture.js';

const e = linkedGateway();

const op = (name: string) => {
  const o = hubOps.find((x) => x.name === name);
  if (!o) throw new Error(`no op ${name}`);
  return o as unknown as Operation;
};
/** Runs an operation and holds its answer to its declared output. */
const run = async (name: string, input: unknown): Promise<any> => {
  const r = await op(name).run(await e.gateway.opContext(), parseInput(op(name).input, input));
  expectOutput('hub', name, r);
  return r;
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

describe('hub', () => {
  it('matches the catalog', () => {
    const names = CAPABILITIES.filter((c) => c.group === 'hub').map((c) => c.name);
    expect(hubOps.map((o) => o.name).sort()).toEqual([...names].sort());
    for (const o of hubOps) expect(o.group).toBe('hub');
    for (const o of hubOps) expect(o.output, o.name).toBeDefined();
  });

  it('read_content without file_id lists the top of My Docs, with paging', async () => {
    const first = await run('read_content', { limit: '2' });
    expect(first.items).toHaveLength(2);
    expect(first.items[0]).toEqual(
      expect.objectContaining({
        file_id: expect.any(String),
        file_name: expect.any(String),
        file_type: 'folder',
        file_link: expect.stringContaining('http'),
      }),
    );
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await run('read_content', { limit: 2, cursor: first.nextCursor });
    expect(second.items.length).toBeGreaterThan(0);
    expect(second.items.map((f: any) => f.file_id)).not.toContain(first.items[0].file_id);
    expect((await run('read_content', { file_id: 'root', limit: 2 })).items).toEqual(first.items);
  });

  it('read_content of a folder gives its children; of a document, its Markdown', async () => {
    const top = await run('read_content', {});
    const playbooks = top.items.find((f: any) => f.file_name === 'Playbooks');
    const folder = await run('read_content', { file_id: playbooks.file_id, limit: 50 });
    expect(folder).toMatchObject({ file_id: playbooks.file_id, file_type: 'folder', markdown: null });
    expect(folder.children.items.length).toBeGreaterThanOrEqual(5);
    const doc = folder.children.items.find((f: any) => f.file_name.includes('rate-lock'));
    const read = await run('read_content', { file_id: doc.file_id });
    expect(read).toMatchObject({ file_id: doc.file_id, file_type: 'doc', file_name: doc.file_name });
    expect(read.markdown).toContain('# Meridian Mortgage rate-lock playbook');
    expect(read.created_time).toEqual(expect.any(String));
  });

  it('read_content with q searches, optionally within a folder', async () => {
    const r = await run('read_content', { q: 'detention' });
    expect(r.items.length).toBeGreaterThan(0);
    expect(r.items[0].file_name).toContain('detention');
    const top = await run('read_content', {});
    const notes = top.items.find((f: any) => f.file_name === 'Meeting notes');
    const inNotes = await run('read_content', { q: 'detention', file_id: notes.file_id });
    expect(inNotes.items.map((f: any) => f.file_id)).not.toContain(r.items[0].file_id);
    const paged = await run('read_content', { q: 'the', limit: 1 });
    expect(paged.items).toHaveLength(1);
    const next = await run('read_content', { q: 'the', limit: 1, cursor: paged.nextCursor });
    expect(next.items[0].file_id).not.toBe(paged.items[0].file_id);
    expect(await run('read_content', { q: 'xylophone' })).toEqual({ items: [], nextCursor: null });
  });

  it('read_content validates and maps not found', async () => {
    const bad = await failure(run('read_content', { limit: 51, q: 'x'.repeat(101), file_id: 'a b' }));
    expect(bad.code).toBe('validation_failed');
    expect(bad.details.issues.map((i: any) => i.path).sort()).toEqual(['file_id', 'limit', 'q']);
    const missing = await failure(run('read_content', { file_id: 'NoSuchFile000000000000' }));
    expect(missing).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('write_content creates a document from Markdown that reads back on both sides', async () => {
    const top = await run('read_content', {});
    const notes = top.items.find((f: any) => f.file_name === 'Meeting notes');
    const markdown = '# Dock team sync\n\n- Move the Joliet pickup to 05:00.\n- Review detention weekly.\n';
    const made = await run('write_content', {
      title: 'Dock team sync notes',
      markdown,
      parent_id: notes.file_id,
    });
    expect(made).toEqual({
      file_id: expect.any(String),
      file_name: 'Dock team sync notes',
      file_link: expect.stringContaining(made.file_id),
    });
    const read = await run('read_content', { file_id: made.file_id });
    expect(read).toMatchObject({ file_name: 'Dock team sync notes', markdown });
    const children = await run('read_content', { file_id: notes.file_id, limit: 50 });
    expect(children.children.items.map((f: any) => f.file_id)).toContain(made.file_id);
    const direct = await e.emu.api('GET', `/v2/docs/files/${made.file_id}/content`, {
      token: await emuToken(),
    });
    expect(direct.json).toEqual({ file_name: 'Dock team sync notes', file_content: markdown });

    const renamed = await run('write_content', { file_id: made.file_id, title: 'Dock team sync (final)' });
    expect(renamed).toMatchObject({
      file_id: made.file_id,
      file_name: 'Dock team sync (final)',
      renamed: true,
    });
    const meta = await e.emu.api('GET', `/v2/docs/files/${made.file_id}`, { token: await emuToken() });
    expect(meta.json.file_name).toBe('Dock team sync (final)');
  });

  it('write_content validates its input and maps platform errors', async () => {
    const noBody = await failure(run('write_content', { title: 'x' }));
    expect(noBody.details.issues).toEqual([expect.objectContaining({ path: 'markdown' })]);
    const tooBig = await failure(run('write_content', { title: 'x', markdown: 'é'.repeat(60 * 1024) }));
    expect(tooBig.details.issues[0].path).toBe('markdown');
    const long = await failure(run('write_content', { title: 't'.repeat(201), markdown: '' }));
    expect(long.details.issues[0].path).toBe('title');
    const both = await failure(run('write_content', { file_id: 'abc', title: 'x', markdown: '# x' }));
    expect(both.details.issues[0].path).toBe('markdown');
    const missingParent = await failure(
      run('write_content', { title: 'x', markdown: '# x', parent_id: 'NoSuchFolder0000000000' }),
    );
    expect(missingParent).toMatchObject({ status: 404, code: 'not_found' });
    const missingFile = await failure(
      run('write_content', { file_id: 'NoSuchFile000000000000', title: 'x' }),
    );
    expect(missingFile).toMatchObject({ status: 404, code: 'not_found' });
  });
});
