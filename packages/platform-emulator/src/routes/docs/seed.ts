/**
 * The Docs emulator's seed: the demo user's My Docs tree (two folders of playbooks and meeting
 * notes, plus a brand guide and a data table), with dates relative to the seed's clock.
 */
import type { SeedContext } from '../../context.js';
import type { DocFileRec, DocFileType, DocsSlice } from './records.js';
import { DOC_FILES, type SeedText } from './seed-data.js';

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function seedDocs(s: SeedContext): DocsSlice {
  const rootId = s.rng.id(22, ID_ALPHABET);
  const files: DocFileRec[] = [];
  const add = (
    name: string,
    type: DocFileType,
    parent: string,
    createdDay: number,
    modifiedDay: number,
    content: string,
  ) => {
    const f: DocFileRec = {
      file_id: s.rng.id(22, ID_ALPHABET),
      file_name: name,
      file_type: type,
      parent_id: parent,
      owner_id: s.demo.id,
      created_time: s.at(createdDay, s.rng.int(13, 21), s.rng.pick([0, 15, 30, 45])),
      modified_time: s.at(modifiedDay, s.rng.int(13, 21), s.rng.pick([0, 15, 30, 45])),
      content,
    };
    files.push(f);
    return f.file_id;
  };
  const date = (days: number) => s.at(days).slice(0, 10);

  const playbooks = add('Playbooks', 'folder', rootId, -180, -6, '');
  const notes = add('Meeting notes', 'folder', rootId, -150, -1, '');

  const parents = { root: rootId, playbooks, notes };
  const text = (x: SeedText) => (typeof x === 'string' ? x : x(date));
  for (const f of DOC_FILES)
    add(text(f.name), f.type, parents[f.parent], f.created, f.modified, text(f.content));
  return { rootId, files };
}
