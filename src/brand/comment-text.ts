/**
 * Token descriptions on their way into generated code. A `$description` is text from the brand
 * folder, and every format but JSON writes it into a comment: in CSS, Sass, JS, TS, Swift and
 * Kotlin block or line comments and in XML comments. One rendering is safe in all of them, so
 * nothing a description says can end its comment and land in code an app compiles.
 *
 * Descriptions are also kept away from Style Dictionary itself: it resolves `{…}` references in
 * every string of a token, descriptions included, so "see {colors.brand.primary}" would be
 * rewritten and "{not a token}" would fail the whole build.
 */

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One line of text safe inside any comment we write: line breaks of every kind (JavaScript counts
 * U+2028 and U+2029) become spaces, characters XML forbids go, and no comment end (star-slash),
 * comment start (slash-star: Swift and Kotlin block comments nest) or double hyphen (XML) is left.
 */
export function commentText(text: string): string {
  return (
    text
      // Characters XML 1.0 does not allow anywhere, and the BOM/non-characters.
      // eslint-disable-next-line no-control-regex -- those control characters are what it removes
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufeff\ufffe\uffff]/g, ' ')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ' ')
      .replace(/[\s\u0085\u2028\u2029]+/g, ' ')
      .replace(/\*\//g, '* /')
      .replace(/\/\*/g, '/ *')
      .replace(/-(?=-)/g, '- ')
      .trim()
  );
}

/** A DTCG tree without any `$description`, and the tokens' descriptions by dotted path. */
export function splitDescriptions(tree: unknown): { tokens: unknown; descriptions: Map<string, string> } {
  const descriptions = new Map<string, string>();
  const walk = (node: unknown, at: string[]): unknown => {
    if (!isObj(node)) return node;
    const out: Obj = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$description') {
        if ('$value' in node && typeof v === 'string' && commentText(v)) descriptions.set(at.join('.'), v);
        continue;
      }
      out[k] = k.startsWith('$') ? v : walk(v, [...at, k]);
    }
    return out;
  };
  return { tokens: walk(tree, []), descriptions };
}
