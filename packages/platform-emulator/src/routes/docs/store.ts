/**
 * The Docs routes' view of the emulator's state: the docs slice, file links and metadata, lookups
 * that 404 the platform's way, the tree walk, and the parent checks and timestamps a new or
 * removed file needs.
 */
import { zerr } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { LINK_KIND, notFound } from './records.js';
import type { DocFileRec, DocFileType, DocsSlice } from './records.js';

export type DocsStore = ReturnType<typeof docsStore>;

export function docsStore(ctx: EmulatorContext) {
  const slice = () => ctx.slice<DocsSlice>('docs');
  const link = (f: DocFileRec) => `${ctx.baseUrl}/docs/${LINK_KIND[f.file_type]}/${f.file_id}`;
  const meta = (f: DocFileRec) => ({
    file_id: f.file_id,
    file_name: f.file_name,
    file_type: f.file_type,
    file_link: link(f),
    created_time: f.created_time,
    modified_time: f.modified_time,
  });
  const find = (id: string, message: string) => {
    const f = slice().files.find((x) => x.file_id === id);
    if (!f) throw notFound(message);
    return f;
  };
  /** `root`, the root id, or an existing file; undefined when nothing matches. */
  const parentOf = (id: string | undefined): string | DocFileRec | undefined => {
    const s = slice();
    if (id === undefined || id === 'root' || id === s.rootId) return s.rootId;
    return s.files.find((x) => x.file_id === id);
  };
  const descendants = (id: string): DocFileRec[] => {
    const out: DocFileRec[] = [];
    const walk = (pid: string) => {
      for (const f of slice().files.filter((x) => x.parent_id === pid)) {
        out.push(f);
        walk(f.file_id);
      }
    };
    walk(id);
    return out;
  };
  const newFileId = () => ctx.newId('alnum', 22) as string;
  /** Reads an optional parent for a new file: 404 when unknown, 400 for a folder under a doc. */
  const readParent = (raw: unknown, type: DocFileType): string => {
    if (raw !== undefined && typeof raw !== 'string')
      throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
    const parent = parentOf(raw);
    if (parent === undefined) throw notFound('File not found.');
    if (typeof parent === 'string') return parent;
    if (type === 'folder' && parent.file_type !== 'folder')
      throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
    if (parent.file_type === 'data_table')
      throw zerr.validation([{ field: 'parent_id', message: 'Invalid field.' }]);
    return parent.file_id;
  };
  const touch = (parentId: string) => {
    const parent = slice().files.find((x) => x.file_id === parentId);
    if (parent) parent.modified_time = zoomTime(ctx.now());
  };
  return { slice, link, meta, find, parentOf, descendants, newFileId, readParent, touch };
}
