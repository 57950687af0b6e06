/**
 * The project root, for files the service finds on disk (package.json, the native addon). This
 * module sits one level below the root both as source (src/) and once bundled (scripts/build.ts
 * puts every output file at the top of dist/), so keep it there.
 */
import path from 'node:path';

export const APP_ROOT = path.resolve(import.meta.dirname, '..');

/** Run from source (tsx, vitest) rather than from the bundle in dist/. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');
