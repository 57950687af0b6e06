/**
 * Zoom Docs ("hub content"): the demo user's My Docs tree (two folders of playbooks and meeting
 * notes, plus a brand guide and a data table), file metadata, Markdown content, create, import
 * from Markdown, rename, delete, children and search. The platform documents no webhooks for
 * these operations, so none are sent. This file registers the module; the records, seed, search
 * parsing, state helpers and routes are in docs/.
 */
import { defineModule } from '../context.js';
import type { EmulatorContext } from '../context.js';
import type { DocsSlice } from './docs/records.js';
import { registerFileRoutes } from './docs/routes-files.js';
import { registerSearchRoute } from './docs/routes-search.js';
import { seedDocs } from './docs/seed.js';
import { docsStore } from './docs/store.js';

export type { DocFileRec, DocFileType, DocsSlice } from './docs/records.js';

export const docsModule = defineModule<DocsSlice>({
  name: 'docs',
  seed: seedDocs,
  register(ctx: EmulatorContext) {
    const store = docsStore(ctx);
    registerFileRoutes(ctx, store);
    registerSearchRoute(ctx, store);
  },
});
