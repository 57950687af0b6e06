/**
 * Reads a Docs file-search body: the filters, page size and page token, validated the platform's
 * way (400 code 300 naming each offending field).
 */
import { zerr } from '../../context.js';

const SEARCH_TYPES = [
  'paper_doc',
  'presentation',
  'spreadsheet',
  'doc',
  'data_table',
  'note',
  'meeting_summary',
  'meeting_agenda',
];

export interface SearchFilters {
  query?: string;
  created_by?: string;
  owner_id?: string;
  ancestor_ids?: string[];
  file_types?: string[];
  created_time_from?: number;
  created_time_to?: number;
  modified_time_from?: number;
  modified_time_to?: number;
}

/** Validates a search body the platform's way (400 code 300 with the offending fields). */
export function readSearch(b: Record<string, unknown>): {
  filters: SearchFilters;
  pageSize?: number;
  token?: string;
} {
  const errors: { field: string; message: string }[] = [];
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  const f: SearchFilters = {};
  const str = (k: 'query' | 'created_by' | 'owner_id', max = 256) => {
    if (!(k in b)) return;
    const v = b[k];
    if (typeof v === 'string' && v.length >= 1 && v.length <= max) f[k] = v;
    else bad(k);
  };
  str('query', 100);
  str('created_by');
  str('owner_id');
  if ('ancestor_ids' in b) {
    const v = b['ancestor_ids'];
    if (Array.isArray(v) && v.length >= 1 && v.length <= 20 && v.every((x) => typeof x === 'string'))
      f.ancestor_ids = v;
    else bad('ancestor_ids');
  }
  if ('file_types' in b) {
    const v = b['file_types'];
    if (
      Array.isArray(v) &&
      v.length >= 1 &&
      v.length <= 8 &&
      new Set(v).size === v.length &&
      v.every((x) => typeof x === 'string' && SEARCH_TYPES.includes(x))
    ) {
      f.file_types = v as string[];
    } else bad('file_types');
  }
  for (const k of [
    'created_time_from',
    'created_time_to',
    'modified_time_from',
    'modified_time_to',
  ] as const) {
    if (!(k in b)) continue;
    const v = b[k];
    const t =
      typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v)
        ? Date.parse(v)
        : NaN;
    if (Number.isNaN(t)) bad(k);
    else f[k] = t;
  }
  const created = f.created_time_from !== undefined || f.created_time_to !== undefined;
  const modified = f.modified_time_from !== undefined || f.modified_time_to !== undefined;
  if (created && modified) bad('modified_time_from');
  if (
    f.created_time_from !== undefined &&
    f.created_time_to !== undefined &&
    f.created_time_from > f.created_time_to
  )
    bad('created_time_from');
  if (
    f.modified_time_from !== undefined &&
    f.modified_time_to !== undefined &&
    f.modified_time_from > f.modified_time_to
  )
    bad('modified_time_from');
  let pageSize: number | undefined;
  if ('page_size' in b) {
    const v = b['page_size'];
    if (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 50) pageSize = v as number;
    else bad('page_size');
  }
  let token: string | undefined;
  if ('next_page_token' in b) {
    if (typeof b['next_page_token'] === 'string') token = b['next_page_token'];
    else bad('next_page_token');
  }
  if (errors.length) throw zerr.validation(errors);
  return {
    filters: f,
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(token !== undefined ? { token } : {}),
  };
}
