/**
 * The Docs emulator's records (files and folders under the demo user's My Docs root), the scopes
 * each operation accepts, its limits and its not-found error.
 */
import { ZoomError } from '../../context.js';

export type DocFileType = 'doc' | 'folder' | 'data_table';

export interface DocFileRec {
  file_id: string;
  file_name: string;
  file_type: DocFileType;
  /** The folder or doc it sits under; the user's root id for My Docs. */
  parent_id: string;
  owner_id: string;
  created_time: string;
  modified_time: string;
  /** Markdown; empty for folders. */
  content: string;
}

export interface DocsSlice {
  rootId: string;
  files: DocFileRec[];
}

export const DOC_SCOPES = {
  create: ['docs:write:file', 'docs:write:file:admin', 'docs:write', 'docs:write:admin'],
  import: ['docs:write:import', 'docs_import:write'],
  get: ['docs:read:file', 'docs:read:file:admin', 'docs:read', 'docs:read:admin'],
  content: ['docs:read:export', 'docs_export:read'],
  update: ['docs:update:file', 'docs:update:file:admin', 'docs:write', 'docs:write:admin'],
  delete: ['docs:delete:file', 'docs:delete:file:admin', 'docs:delete', 'docs:delete:admin'],
  children: ['docs:read:list_children', 'docs:read:list_children:admin', 'docs:read', 'docs:read:admin'],
  root: ['docs:read:file:admin', 'docs:read:admin'],
  search: ['canvas:write:file_search', 'canvas_file_search:write'],
};

/** The import endpoint's documented limit: 100 KB of Markdown. */
export const IMPORT_LIMIT_BYTES = 100 * 1024;
export const FILE_TYPES: readonly DocFileType[] = ['doc', 'folder', 'data_table'];

/**
 * The Docs service documents 404s by message only; its block endpoints give code 4000 for a file
 * that is not found, so that code is used with each endpoint's own message.
 */
export const notFound = (message: string) => new ZoomError(404, 4000, message);

/** The path segment of each file type in a file link. */
export const LINK_KIND: Record<DocFileType, string> = { doc: 'doc', folder: 'folder', data_table: 'table' };
