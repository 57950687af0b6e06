/**
 * Zoom Clips: the demo user's clips (list with the platform's filters and its default window of
 * "today" when no from/to is given, get, soft delete) and their comments. Served under /v2 like
 * the rest of the API. Chapters and analytics have no public endpoint, so none is emulated.
 */
export type { ClipRec, ClipsSlice, CommentRec } from './clips/records.js';
export { clipsModule } from './clips/module.js';
