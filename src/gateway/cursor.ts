/**
 * Keyset cursors for the gateway's own lists (stored events, their search, registrations): an
 * opaque base64url token of the last item's key plus a short digest of the list and filter it
 * was made under, so a cursor only continues the list that made it. Not signed: a cursor is a
 * position and nothing more, so an edited one can only start the same list somewhere else.
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { AppError } from '../core/errors.js';

/** Longest token accepted (keys are short; this only stops junk early). */
export const CURSOR_MAX_LENGTH = 512;

const VERSION = 1;

/** The `cursor` query parameter of a keyset-paged list. */
export const cursorParam = z
  .string()
  .min(1)
  .max(CURSOR_MAX_LENGTH)
  .optional()
  .describe('nextCursor of the previous page, with the same filters (opaque)');

/**
 * A short, stable digest of a list and what it is filtered by; undefined fields are left out
 * and keys sorted, so the same filter written another way gives the same tag.
 */
export function filterTag(list: string, filter: Record<string, string | number | undefined>): string {
  const fields = Object.entries(filter)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256')
    .update(JSON.stringify([list, fields]))
    .digest('base64url')
    .slice(0, 12);
}

/** The cursor after an item with this key, in the list `tag` names. */
export function encodeCursor(tag: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify([VERSION, tag, ...key])).toString('base64url');
}

const invalid = (why: string) =>
  new AppError(
    400,
    'invalid_cursor',
    `cursor is not a nextCursor of this list with these filters (${why}); start again without cursor.`,
  );

/**
 * The key a cursor holds, checked to be well formed, made for `tag` and shaped as `key`;
 * anything else is 400 invalid_cursor.
 */
export function decodeCursor<K extends z.ZodType<readonly unknown[]>>(
  token: string,
  tag: string,
  key: K,
): z.output<K> {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid('malformed');
  }
  if (!Array.isArray(parsed) || parsed[0] !== VERSION) throw invalid('malformed');
  if (parsed[1] !== tag) throw invalid('made for another list or other filters');
  const r = key.safeParse(parsed.slice(2));
  if (!r.success) throw invalid('malformed');
  return r.data;
}
