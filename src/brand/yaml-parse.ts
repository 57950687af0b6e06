/**
 * The YAML parser on its own, so read-brand-folder.ts can load it only when a front matter is
 * not in the cache (a static named import also gets the CommonJS interop right in the bundle).
 */
export { parse } from 'yaml';
