/**
 * Whether a brand-folder SVG may be served: parsed as XML (@xmldom/xmldom) and held to an
 * allow-list of SVG elements and attributes, names resolved by namespace URI rather than prefix
 * (so `<x:script xmlns:x="http://www.w3.org/2000/svg">` is a script), values read after the
 * parser decoded their entities (so `&#106;avascript:` is `javascript:`). Some of these files are
 * served as they are, so anything that could run, load or link elsewhere is refused: scripts,
 * event handlers, foreign content, links other than to a fragment of the same file, and styles
 * that import or fetch. A file's verdict is kept in the build cache by its text, so a restart
 * with unchanged SVGs neither loads the parser nor runs it.
 */
import type { Attr, Document, Element, Node } from '@xmldom/xmldom';
import { buildId, cacheKey, type DiskCache } from './disk-cache.js';
import type * as XmlParse from './xml-parse.js';

const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';
const XML = 'http://www.w3.org/XML/1998/namespace';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** The drawing set: shapes, text, paint servers, clipping, masks, filters and simple animation. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'style',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'marker',
  'image',
  'filter',
  'feBlend',
  'feColorMatrix',
  'feComponentTransfer',
  'feComposite',
  'feDropShadow',
  'feFlood',
  'feFuncA',
  'feFuncB',
  'feFuncG',
  'feFuncR',
  'feGaussianBlur',
  'feMerge',
  'feMergeNode',
  'feMorphology',
  'feOffset',
  'animate',
  'animateTransform',
  'set',
]);

/** Geometry and presentation attributes an animation may target (never href, style or on*). */
const PRESENTATION = [
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'dx',
  'dy',
  'd',
  'points',
  'width',
  'height',
  'transform',
  'rotate',
  'offset',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'color',
  'display',
  'visibility',
  'overflow',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'marker-start',
  'marker-mid',
  'marker-end',
  'font-family',
  'font-size',
  'font-size-adjust',
  'font-style',
  'font-variant',
  'font-weight',
  'font-stretch',
  'letter-spacing',
  'word-spacing',
  'text-anchor',
  'text-decoration',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'writing-mode',
  'stop-color',
  'stop-opacity',
  'flood-color',
  'flood-opacity',
  'lighting-color',
  'color-interpolation',
  'color-interpolation-filters',
  'shape-rendering',
  'text-rendering',
  'image-rendering',
  'vector-effect',
  'paint-order',
  'mix-blend-mode',
  'isolation',
  'stdDeviation',
  'values',
];
const ANIMATABLE = new Set(PRESENTATION);

/** Attributes without a namespace; href is checked on its own (below). */
const ATTRIBUTES = new Set([
  ...PRESENTATION,
  'id',
  'class',
  'style',
  'lang',
  'version',
  'viewBox',
  'preserveAspectRatio',
  'role',
  'aria-label',
  'aria-labelledby',
  'aria-describedby',
  'aria-hidden',
  'focusable',
  'tabindex',
  'href',
  'pathLength',
  'textLength',
  'lengthAdjust',
  'startOffset',
  'method',
  'spacing',
  'side',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'markerUnits',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'filterUnits',
  'primitiveUnits',
  'in',
  'in2',
  'result',
  'mode',
  'type',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'radius',
  'tableValues',
  'slope',
  'intercept',
  'amplitude',
  'exponent',
  'media',
  'attributeName',
  'attributeType',
  'from',
  'to',
  'by',
  'begin',
  'end',
  'dur',
  'repeatCount',
  'repeatDur',
  'calcMode',
  'keyTimes',
  'keySplines',
  'additive',
  'accumulate',
  'restart',
  'min',
  'max',
]);

/** A raster picture inlined in an <image>: nothing that can hold a script or fetch more. */
const RASTER_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i;
const SCRIPT_SCHEME = /^(?:javascript|vbscript|data):/i;

/** CSS (a <style> or a style attribute) that fetches, imports or escapes past this check. */
function cssProblem(css: string): string | undefined {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // Escapes could spell any of the words below; the brand's own styles need none.
  if (text.includes('\\')) return 'a CSS escape (\\)';
  if (/@import/i.test(text)) return '@import';
  if (/expression\s*\(|javascript:|-moz-binding|behavior\s*:/i.test(text)) return 'scripted CSS';
  for (const m of text.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!(m[2] ?? '').startsWith('#')) return `url(${m[2] ?? ''}) (only url(#id) in the same file)`;
  }
  if (/url\s*\(/i.test(text.replace(/url\s*\(\s*(['"]?)#[^'")]*\1\s*\)/gi, ''))) return 'an unreadable url(';
  return undefined;
}

const ELEMENT = 1;
const isElement = (n: Node): n is Element => n.nodeType === ELEMENT;
const PROCESSING_INSTRUCTION = 7;
const DOCUMENT_TYPE = 10;

function checkAttribute(el: Element, a: Attr, refused: string[]): void {
  const where = `on <${el.nodeName}>`;
  if (a.namespaceURI === XMLNS || a.name === 'xmlns') return; // declarations: names are checked by URI
  const local = a.localName ?? a.name;
  if (/^on/i.test(local)) {
    refused.push(`attribute ${a.name} ${where}: event handlers are not allowed`);
    return;
  }
  const href = local === 'href' && (a.namespaceURI === null || a.namespaceURI === XLINK);
  if (a.namespaceURI === XML ? !['space', 'lang'].includes(local) : a.namespaceURI !== null && !href) {
    refused.push(`attribute ${a.name} ${where} (namespace ${a.namespaceURI}): not in the SVG allow-list`);
    return;
  }
  if (a.namespaceURI === null && !ATTRIBUTES.has(local)) {
    refused.push(`attribute ${a.name} ${where}: not in the SVG allow-list`);
    return;
  }
  const value = a.value.trim();
  if (href) {
    const ok = value.startsWith('#') || (el.localName === 'image' && RASTER_DATA.test(value));
    if (!ok)
      refused.push(
        `${a.name}="${value.slice(0, 60)}" ${where}: links may only point at #id in the same file` +
          (el.localName === 'image' ? ' or a PNG, JPEG, GIF or WebP data: URL' : ''),
      );
    return;
  }
  // eslint-disable-next-line no-control-regex -- what a URL parser drops before the scheme
  if (SCRIPT_SCHEME.test(value.replace(/[\s\u0000-\u001f]/g, ''))) {
    refused.push(`attribute ${a.name}="${value.slice(0, 60)}" ${where}: a script or data: URL`);
    return;
  }
  if (local === 'attributeName' && !ANIMATABLE.has(value)) {
    refused.push(
      `<${el.nodeName} attributeName="${value}">: animations may only change presentation attributes, never on*, href or style`,
    );
    return;
  }
  const css = local === 'style' ? cssProblem(value) : /url\s*\(/i.test(value) ? cssProblem(value) : undefined;
  if (css) refused.push(`${css} in attribute ${a.name} ${where}`);
}

function walk(node: Node, refused: string[]): void {
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes.item(i);
    if (!child) continue;
    if (child.nodeType === DOCUMENT_TYPE) refused.push('a DOCTYPE (no DTDs or entities)');
    else if (child.nodeType === PROCESSING_INSTRUCTION && child.nodeName !== 'xml')
      refused.push(`the processing instruction <?${child.nodeName}?>`);
    if (!isElement(child)) continue;
    const name = child.localName ?? child.nodeName;
    if (child.namespaceURI !== SVG || !ELEMENTS.has(name)) {
      refused.push(
        `element <${child.nodeName}>${child.namespaceURI === SVG ? '' : ` (namespace ${child.namespaceURI ?? 'none'})`}: not in the SVG allow-list`,
      );
      continue;
    }
    for (let j = 0; j < child.attributes.length; j++) {
      const a = child.attributes.item(j);
      if (a) checkAttribute(child, a, refused);
    }
    if (name === 'style') {
      const css = cssProblem(child.textContent ?? '');
      if (css) refused.push(`${css} in <style>`);
      continue;
    }
    walk(child, refused);
  }
}

type Parser = typeof XmlParse;

/** What in an SVG document is refused (empty: it may be served), each said as "what: why". */
function svgProblems({ DOMParser }: Parser, svg: string): string[] {
  let doc: Document;
  let first: string | undefined;
  try {
    // Warnings too: what a lenient parser would guess at, a browser might read otherwise.
    doc = new DOMParser({
      onError: (_level, msg) => {
        first ??= msg;
        throw new Error(msg);
      },
    }).parseFromString(svg, 'text/xml');
  } catch (err) {
    return [`is not well-formed XML: ${(first ?? (err as Error).message).split('\n')[0] ?? ''}`];
  }
  const root = doc.documentElement;
  if (root?.namespaceURI !== SVG || root.localName !== 'svg')
    return ['is not an SVG document (the root must be <svg xmlns="http://www.w3.org/2000/svg">)'];
  const refused: string[] = [];
  walk(doc, refused);
  return refused.map((r) => `refused ${r}`);
}

/** svgProblems through the build cache: `check(svg)` parses only a text it has not seen. */
export function svgChecker(cache: DiskCache | undefined): (svg: string) => Promise<string[]> {
  let parser: Promise<Parser> | undefined;
  let build: string | undefined;
  return async (svg) => {
    const key = cache
      ? `${cacheKey((build ??= buildId(import.meta.url, '@xmldom/xmldom')), svg)}.svgcheck`
      : undefined;
    const hit = key ? cache?.getSync(key) : undefined;
    if (hit) return JSON.parse(hit.toString('utf8')) as string[];
    parser ??= import('./xml-parse.js');
    const problems = svgProblems(await parser, svg);
    if (key) cache?.setSync(key, Buffer.from(JSON.stringify(problems)));
    return problems;
  };
}
