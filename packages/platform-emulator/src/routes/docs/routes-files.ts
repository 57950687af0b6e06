/**
 * The Docs file routes: create, import from Markdown, metadata, content, rename, delete (a folder
 * with everything under it), children and the user's root id.
 */
import { body, p, zerr, ZoomError } from '../../context.js';
import type { EmulatorContext } from '../../context.js';
import { zoomTime } from '../../time.js';
import { DOC_SCOPES as SCOPES, FILE_TYPES, IMPORT_LIMIT_BYTES, notFound } from './records.js';
import type { DocFileRec, DocFileType } from './records.js';
import type { DocsStore } from './store.js';

export function registerFileRoutes(ctx: EmulatorContext, store: DocsStore): void {
  postFile(ctx, store);
  postImport(ctx, store);
  getFile(ctx, store);
  getFileContent(ctx, store);
  patchFile(ctx, store);
  deleteFile(ctx, store);
  getChildren(ctx, store);
  getRoot(ctx, store);
}

function postFile(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'POST',
    url: '/docs/files',
    scopes: SCOPES.create,
    label: 'MEDIUM',
    handler: (req, reply) => {
      const b = body(req);
      const errors: { field: string; message: string }[] = [];
      const name = b['file_name'] ?? 'Untitled';
      if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
        errors.push({ field: 'file_name', message: 'Invalid field.' });
      const type = b['file_type'] ?? 'doc';
      if (!FILE_TYPES.includes(type as DocFileType))
        errors.push({ field: 'file_type', message: 'Invalid field.' });
      if (b['user_id'] !== undefined && typeof b['user_id'] !== 'string')
        errors.push({ field: 'user_id', message: 'Invalid field.' });
      if (errors.length) throw zerr.validation(errors);
      if (typeof b['user_id'] === 'string') ctx.user(req, b['user_id']);
      const parentId = store.readParent(b['parent_id'], type as DocFileType);
      const now = zoomTime(ctx.now());
      const f: DocFileRec = {
        file_id: store.newFileId(),
        file_name: name as string,
        file_type: type as DocFileType,
        parent_id: parentId,
        owner_id: ctx.demo.id,
        created_time: now,
        modified_time: now,
        content: '',
      };
      store.slice().files.push(f);
      store.touch(parentId);
      ctx.changed();
      return reply.code(201).send({ file_id: f.file_id });
    },
  });
}

function postImport(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'POST',
    url: '/docs/import_content',
    scopes: SCOPES.import,
    label: 'HEAVY',
    handler: (req, reply) => {
      const b = body(req);
      const errors: { field: string; message: string }[] = [];
      const content = b['content'] ?? '';
      if (typeof content !== 'string') errors.push({ field: 'content', message: 'Invalid field.' });
      const rawName = b['file_name'];
      if (rawName !== undefined && (typeof rawName !== 'string' || rawName.length > 255))
        errors.push({ field: 'file_name', message: 'Invalid field.' });
      if (errors.length) throw zerr.validation(errors);
      const md = content as string;
      if (Buffer.byteLength(md, 'utf8') > IMPORT_LIMIT_BYTES)
        throw new ZoomError(400, 5109, 'The size of content exceeds the limit.');
      const parentId = store.readParent(b['parent_id'], 'doc');
      // Without a name the doc takes its first heading, or "Untitled" like the editor does.
      const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(md)?.[1];
      const name = typeof rawName === 'string' && rawName.trim() !== '' ? rawName : (heading ?? 'Untitled');
      const now = zoomTime(ctx.now());
      const f: DocFileRec = {
        file_id: store.newFileId(),
        file_name: name,
        file_type: 'doc',
        parent_id: parentId,
        owner_id: ctx.demo.id,
        created_time: now,
        modified_time: now,
        content: md,
      };
      store.slice().files.push(f);
      store.touch(parentId);
      ctx.changed();
      return reply.code(201).send({ file_id: f.file_id, file_link: store.link(f) });
    },
  });
}

function getFile(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'GET',
    url: '/docs/files/:fileId',
    scopes: SCOPES.get,
    label: 'LIGHT',
    handler: (req) => store.meta(store.find(p(req, 'fileId'), 'File Not Found/Deleted.')),
  });
}

function getFileContent(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'GET',
    url: '/docs/files/:fileId/content',
    scopes: SCOPES.content,
    label: 'HEAVY',
    handler: (req) => {
      const f = store.find(p(req, 'fileId'), 'File not found or deleted.');
      if (f.file_type === 'folder') throw zerr.badParam('fileId');
      return { file_name: f.file_name, file_content: f.content };
    },
  });
}

function patchFile(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'PATCH',
    url: '/docs/files/:fileId',
    scopes: SCOPES.update,
    label: 'MEDIUM',
    handler: (req, reply) => {
      const b = body(req);
      const name = b['file_name'];
      if (typeof name !== 'string' || name.trim() === '' || name.length > 255)
        throw zerr.validation([{ field: 'file_name', message: 'Invalid field.' }]);
      const f = store.find(p(req, 'fileId'), 'File Not Found/Deleted.');
      f.file_name = name;
      f.modified_time = zoomTime(ctx.now());
      ctx.changed();
      return reply.code(204).send();
    },
  });
}

function deleteFile(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'DELETE',
    url: '/docs/files/:fileId',
    scopes: SCOPES.delete,
    label: 'MEDIUM',
    handler: (req, reply) => {
      const f = store.find(p(req, 'fileId'), 'File Not Found/Deleted.');
      // Deleting a folder takes everything under it along.
      const gone = new Set([f.file_id, ...store.descendants(f.file_id).map((x) => x.file_id)]);
      const s = store.slice();
      s.files = s.files.filter((x) => !gone.has(x.file_id));
      store.touch(f.parent_id);
      ctx.changed();
      return reply.code(204).send();
    },
  });
}

function getChildren(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'GET',
    url: '/docs/files/:fileId/children',
    scopes: SCOPES.children,
    label: 'MEDIUM',
    handler: (req) => {
      const parent = store.parentOf(p(req, 'fileId'));
      if (parent === undefined) throw notFound('Parent not found.');
      const pid = typeof parent === 'string' ? parent : parent.file_id;
      // Folders first, then the most recently modified.
      const items = store
        .slice()
        .files.filter((x) => x.parent_id === pid)
        .sort(
          (a, b) =>
            Number(b.file_type === 'folder') - Number(a.file_type === 'folder') ||
            b.modified_time.localeCompare(a.modified_time) ||
            a.file_id.localeCompare(b.file_id),
        );
      const page = ctx.paginate(req, items, { defaultSize: 10, maxSize: 50 });
      return { files: page.items.map(store.meta), next_page_token: page.nextPageToken };
    },
  });
}

function getRoot(ctx: EmulatorContext, store: DocsStore): void {
  ctx.route({
    method: 'GET',
    url: '/docs/users/:userId/root',
    scopes: SCOPES.root,
    label: 'LIGHT',
    handler: (req) => {
      ctx.user(req, p(req, 'userId'));
      return { root_id: store.slice().rootId };
    },
  });
}
