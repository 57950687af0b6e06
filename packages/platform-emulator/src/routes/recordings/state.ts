/** Recordings slice: what the API changed (trashed and deleted recordings and files), and its accessor. */
import type { EmulatorContext } from '../../context.js';

export interface RecordingsSlice {
  /** Meeting UUID → when the whole recording went to the trash. */
  trashed: Record<string, string>;
  /** File id → when that file went to the trash. */
  trashedFiles: Record<string, string>;
  /** Meeting UUIDs whose recording was deleted for good. */
  deleted: string[];
  /** File ids deleted for good (a deleted transcript is one of them). */
  deletedFiles: string[];
}

export const slice = (ctx: EmulatorContext) => ctx.slice<RecordingsSlice>('recordings');
