/**
 * fast-check generators for hostile HTTP input, driven by the app's own OpenAPI document: every
 * operation it lists gets path parameters, query strings, JSON bodies (shaped by its schema, with
 * hostile values mixed in) and content types. New routes are covered as soon as they document
 * themselves. Fuzz runs are seeded (FUZZ_SEED) and sized (FUZZ_RUNS) from the environment.
 */
import fc from 'fast-check';

/** Seeded and bounded: the same cases every run unless FUZZ_SEED says otherwise. */
export const FUZZ = {
  seed: Number(process.env['FUZZ_SEED'] ?? 20_260_601),
  scale: Number(process.env['FUZZ_SCALE'] ?? 1),
};
export const runs = (n: number) => Math.max(1, Math.round(n * FUZZ.scale));

type Schema = Record<string, unknown>;

export interface Operation {
  method: string;
  /** OpenAPI path with {param} placeholders. */
  path: string;
  params: { name: string; in: 'path' | 'query'; schema: Schema }[];
  body: Schema | undefined;
  auth: boolean;
}

export function operations(doc: Record<string, unknown>): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc['paths'] as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(methods)) {
      // The HTML pages (portal, dashboard forms) are for people, not the API fuzzed here.
      if ((op['tags'] as string[] | undefined)?.includes('pages')) continue;
      const params = ((op['parameters'] ?? []) as { name: string; in: string; schema?: Schema }[])
        .filter((p) => p.in === 'path' || p.in === 'query')
        .map((p) => ({ name: p.name, in: p.in as 'path' | 'query', schema: p.schema ?? {} }));
      const body = (op['requestBody'] as { content: Record<string, { schema: Schema }> } | undefined)
        ?.content['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        params,
        body,
        auth: ((op['security'] ?? []) as object[]).some((s) => 'apiKey' in s),
      });
    }
  }
  return out;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Strings that have broken parsers, validators, paths, dates, time zones and logs before. */
export const hostileString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  ...PROTO_KEYS,
  '.',
  '..',
  '../../../etc/passwd',
  '..%2f..%2f',
  '%00',
  '%',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  '2026-02-30T10:00:00Z',
  '2026-13-45T25:61:61Z',
  '2026-06-01T10:00:00+25:00',
  'not-a-date',
  '0000-00-00T00:00:00Z',
  '275760-09-13T00:00:00.001Z',
  'Mars/Olympus_Mons',
  'America/New_York\u0000',
  'Etc/GMT+99',
  '\uD800',
  '\u202Egnp.exe',
  '🙂'.repeat(40),
  'http://169.254.169.254/latest/meta-data/',
  '//evil.example/x',
  'file:///etc/passwd',
  'x'.repeat(5000),
);

/** encodeURIComponent that survives lone surrogates (sent as the invalid UTF-8 they would be). */
export const enc = (s: string): string =>
  [...s].map((c) => (/^[\uD800-\uDFFF]$/.test(c) ? '%ED%A0%80' : encodeURIComponent(c))).join('');

const json = (text: string): unknown => JSON.parse(text);

/** Values of the wrong type, out of range, or shaped to pollute prototypes. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom<unknown>(
    'x'.repeat(70_000),
    null,
    true,
    false,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    [],
    {},
    [[[[[]]]]],
    // JSON.parse makes `__proto__` an own key, as a request body does.
    json('{"__proto__":{"polluted":"yes"}}'),
    json('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  ),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A JSON value shaped by a (JSON Schema) input schema; `hostile` is the weight of bad values. */
export function fromSchema(schema: Schema, hostile: number, depth = 0): fc.Arbitrary<unknown> {
  const plausible = plausibleFor(schema, hostile, depth);
  return hostile > 0
    ? fc.oneof({ weight: 6, arbitrary: plausible }, { weight: hostile, arbitrary: hostileValue })
    : plausible;
}

function plausibleFor(s: Schema, hostile: number, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
  if ('const' in s) return fc.constant(s['const']);
  const alternatives = (s['anyOf'] ?? s['oneOf']) as Schema[] | undefined;
  if (alternatives?.length) return fc.oneof(...alternatives.map((a) => plausibleFor(a, hostile, depth)));
  const type = Array.isArray(s['type']) ? (s['type'] as string[])[0] : (s['type'] as string | undefined);
  const num = (k: string) => {
    const v = s[k];
    return typeof v === 'number' ? v : undefined;
  };
  const description = typeof s['description'] === 'string' ? s['description'] : '';
  switch (type ?? 'any') {
    case 'string': {
      if (s['format'] === 'date-time' || /time|date/i.test(description))
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().replace(/\.\d{3}Z$/, 'Z'));
      if (s['format'] === 'email') return fc.emailAddress();
      const min = num('minLength') ?? 0;
      return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(num('maxLength') ?? 40, 40)) });
    }
    case 'integer':
    case 'number':
      return fc.integer({ min: num('minimum') ?? -1000, max: num('maximum') ?? 100_000 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(fromSchema((s['items'] as Schema | undefined) ?? {}, hostile, depth + 1), {
            maxLength: Math.min(num('maxItems') ?? 4, 4),
          });
    case 'object': {
      const props = (s['properties'] ?? {}) as Record<string, Schema>;
      if (depth > 3 || Object.keys(props).length === 0)
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const model = Object.fromEntries(
        Object.entries(props).map(([k, v]) => [k, fromSchema(v, hostile, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: (s['required'] ?? []) as string[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A query-string or path rendering of any value. */
export const asText = (v: unknown): string =>
  typeof v === 'string' ? v : (JSON.stringify(v) ?? 'undefined');

/** Valid JSON that reads ambiguously (the last key wins), so only schema validation refuses it. */
export const DUPLICATE_KEYS = '{"a":1,"a":2}';

/** An empty object after a byte order mark, which a JSON parser may ignore (RFC 8259 §8.1); ours does. */
export const BOM_OBJECT = '\uFEFF{}';

/** Bodies no schema would produce: broken JSON, deep nesting, duplicate and prototype keys. */
export const rawBody = fc.constantFrom(
  '{',
  '{"a":',
  'nul',
  '[1,2',
  '"\\u00"',
  DUPLICATE_KEYS,
  '{"__proto__":{"polluted":"yes"},"topic":"x"}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '['.repeat(5000) + ']'.repeat(5000),
  '{"a":'.repeat(2000) + '1' + '}'.repeat(2000),
  '\u0000',
  BOM_OBJECT,
);

export const contentTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'image/png',
);
