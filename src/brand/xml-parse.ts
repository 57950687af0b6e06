/**
 * The XML parser on its own, so svg-check.ts can load it only when an SVG is not in the cache (a
 * static named import also gets the CommonJS interop right in the bundle).
 */
export { DOMParser } from '@xmldom/xmldom';
