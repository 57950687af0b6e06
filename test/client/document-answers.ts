/**
 * Holds real answers to the OpenAPI document the same server serves: each answer's status must
 * be documented for its path and method (exactly, by range like 4XX, or by `default`), its
 * Content-Type must be one of the media types declared for that status, and its JSON body must
 * validate against the schema declared there (Ajv 2020 with formats; `$ref`s
 * resolve inside the document). It also keeps what was seen, so a test can require that every
 * documented operation was called and name those whose answers have no declared body yet.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';
import { expect } from 'vitest';

const DOC_ID = 'https://fleetgate.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof METHODS)[number];

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  parameters?: unknown[];
  responses?: Record<string, ResponseObject>;
  security?: Record<string, unknown>[];
}
type Doc = { paths: Record<string, Partial<Record<Method, OperationObject>>> } & Record<string, unknown>;

/** A media type without its parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
const essence = (m: string) => (m.split(';')[0] ?? '').trim().toLowerCase();
const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapePointer = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

export class DocumentAnswers {
  readonly #doc: Doc;
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false });
  readonly #validators = new Map<string, ValidateFunction>();
  /** `METHOD path` → statuses answered. */
  readonly seen = new Map<string, Set<number>>();
  /** `METHOD path status` of answers with a body the document declares no schema for. */
  readonly undeclaredBodies = new Set<string>();
  /** `METHOD path status` of answers whose status the document covers only by a range or `default`. */
  readonly unlisted = new Set<string>();

  /** `METHOD path status` of known mismatches that answered outside their schema, as expected. */
  readonly knownMismatchesSeen = new Set<string>();
  readonly #knownMismatches: Readonly<Record<string, string>>;

  /**
   * `knownMismatches`: `METHOD path status` → why an answer is known not to match the document
   * yet; such an answer is recorded in knownMismatchesSeen instead of failing.
   */
  constructor(doc: unknown, knownMismatches: Readonly<Record<string, string>> = {}) {
    this.#doc = doc as Doc;
    this.#knownMismatches = knownMismatches;
    addFormats.default(this.#ajv);
    this.#ajv.addSchema(this.#doc, DOC_ID);
  }

  /** Every documented operation whose path starts with `prefix`, as `METHOD path`. */
  operations(prefix: string): string[] {
    return Object.entries(this.#doc.paths)
      .filter(([p]) => p.startsWith(prefix))
      .flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p}`));
  }

  /** The documented operations under `prefix` that every security requirement of says need `scheme`. */
  operationsNeeding(scheme: string, prefix: string): { method: Method; path: string }[] {
    return Object.entries(this.#doc.paths)
      .filter(([p]) => p.startsWith(prefix))
      .flatMap(([path, item]) =>
        METHODS.filter((m) => {
          const security = item[m]?.security;
          return security !== undefined && security.length > 0 && security.every((r) => scheme in r);
        }).map((method) => ({ method, path })),
      );
  }

  /**
   * A value for path parameter `name` of the operation: the first of its schema's `enum`, else
   * `x1` (an id no resource has).
   */
  pathExample(path: string, method: Method, name: string): string {
    const params = (this.#doc.paths[path]?.[method]?.parameters ?? []) as {
      name: string;
      in: string;
      schema?: { enum?: unknown[] };
    }[];
    const e = params.find((p) => p.in === 'path' && p.name === name)?.schema?.enum?.[0];
    return typeof e === 'string' ? e : 'x1';
  }

  /** Whether the document lists `status` itself (not only a range or `default`) for the operation. */
  lists(path: string, method: Method, status: number): boolean {
    return String(status) in (this.#doc.paths[path]?.[method]?.responses ?? {});
  }

  /** The JSON pointer of what `ref` (a local `#/…` reference) names, followed through `$ref`s. */
  #deref(pointer: string): { pointer: string; value: ResponseObject } {
    let at = pointer;
    for (let hops = 0; hops < 10; hops++) {
      let value: unknown = this.#doc;
      for (const part of at.split('/').slice(1).map(unescapePointer))
        value = (value as Record<string, unknown> | undefined)?.[part];
      const ref = (value as ResponseObject | undefined)?.$ref;
      if (ref === undefined) return { pointer: at, value: value ?? {} };
      if (!ref.startsWith('#/')) throw new Error(`${at}: only local $refs are supported, got ${ref}`);
      at = ref.slice(1);
    }
    throw new Error(`${pointer}: $ref chain too long`);
  }

  /** The documented response for a status: exact, then its range (2XX), then default. */
  #response(path: string, method: Method, status: number) {
    const responses = this.#doc.paths[path]?.[method]?.responses;
    if (!responses) return undefined;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) return undefined;
    const at = `/paths/${escapePointer(path)}/${method}/responses/${escapePointer(key)}`;
    return { key, ...this.#deref(at) };
  }

  #validator(schemaPointer: string): ValidateFunction {
    let v = this.#validators.get(schemaPointer);
    if (!v) {
      v = this.#ajv.compile({ $ref: `${DOC_ID}#${schemaPointer}` });
      this.#validators.set(schemaPointer, v);
    }
    return v;
  }

  /**
   * An openapi-fetch middleware that holds every answer the client receives to the document
   * (the client call fails with the reason when one does not match).
   */
  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        const method = request.method.toLowerCase() as Method;
        this.check(schemaPath, method, response.status, response.headers, await response.clone().text());
      },
    };
  }

  /** Fails unless an answer to `method path` (the path template) is what the document declares. */
  check(path: string, method: Method, status: number, headers: Headers, text: string): void {
    const op = `${method.toUpperCase()} ${path}`;
    const documented = this.#response(path, method, status);
    expect(documented, `${op}: answered ${status}, which the document does not list`).toBeDefined();
    if (!documented) return;
    if (documented.key !== String(status)) this.unlisted.add(`${op} ${status}`);
    const statuses = this.seen.get(op) ?? new Set<number>();
    statuses.add(status);
    this.seen.set(op, statuses);
    const declared = Object.keys(documented.value.content ?? {});
    if (declared.length === 0) {
      if (text !== '') this.undeclaredBodies.add(`${op} ${status}`);
      return;
    }
    // Media types compare by their essence (type/subtype): `text/html; charset=utf-8` declared
    // is `text/html` answered; `*/*` (a brand file of any type) takes any.
    const type = essence(headers.get('content-type') ?? '');
    const isJson = (m: string) => /\bjson\b/.test(m);
    const media =
      declared.find((m) => essence(m) === type || m === '*/*') ??
      declared.find((m) => isJson(m) && isJson(type));
    expect(
      media,
      `${op} ${status}: answered ${type || 'no content type'}, declared ${declared.join(', ')}`,
    ).toBeDefined();
    // A declared non-JSON body (an event stream) has no schema to hold it to.
    if (media === undefined || !isJson(media)) return;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      expect.fail(
        `${op} ${status}: the document declares a ${media} body, got ${JSON.stringify(text.slice(0, 200))}`,
      );
    }
    const validate = this.#validator(`${documented.pointer}/content/${escapePointer(media)}/schema`);
    validate(body);
    if (validate.errors?.length && `${op} ${status}` in this.#knownMismatches) {
      this.knownMismatchesSeen.add(`${op} ${status}`);
      return;
    }
    expect(
      validate.errors ?? [],
      `${op} ${status} answered outside the schema of responses/${documented.key}: ${text.slice(0, 400)}`,
    ).toEqual([]);
  }
}
