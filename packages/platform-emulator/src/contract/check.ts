/**
 * Holds one request to its operation's rules (rules.ts): the path matches the template and each
 * path parameter its type and format; every query parameter is declared, and its value meets
 * type, enum, minimum/maximum, length and pattern (a required one is present); a JSON body meets
 * the request schema, required properties included, and names only declared properties. Path
 * and query values arrive as text and are read as the schema's type first (`30` → 30,
 * `true` → true), as the platform reads them. Each broken rule is a violation naming the
 * request, the document, the operation and the rule; `refuse` says whether the platform refuses
 * it (a value the documents forbid) or would only ignore it (an undeclared name), which the
 * emulator records without refusing.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { OperationRule, ParamRule, Schema } from './rules.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A request as the platform receives it. */
export interface PlatformRequest {
  method: string;
  /** The path as sent (percent-encoded), without the query. */
  path: string;
  /** The query as parsed: a repeated name gives a list. */
  query: Record<string, string | string[] | undefined>;
  contentType: string | undefined;
  /** Whether a body came with it (a JSON content type with nothing after it is no body). */
  hasBody: boolean;
  /** The parsed JSON body, when it had one. */
  body: unknown;
  /** True when the request was answered before its body was read (a fault, a refused token): its body is not judged. */
  bodyUnread?: boolean;
  /** Its User-Agent, which tells the suite's own clients from the code under test. */
  userAgent?: string | undefined;
}

export interface ContractViolation {
  /** `GET /v2/clips?page_size=1`. */
  request: string;
  /** The published document, e.g. `clips.json`; `none` when no document has the operation. */
  document: string;
  /** The operation in it, e.g. `GET /clips (ListClips)`. */
  operation: string;
  where: 'operation' | 'path' | 'query' | 'body';
  /** The parameter, or the body field as a dotted path (`settings.approval_type`). */
  name: string;
  /** The rule broken, e.g. `minimum 30`, `required`, `declared`, `format date`. */
  rule: string;
  /** What was wrong, in words. */
  message: string;
  /** True when the platform refuses the request for it; false when it would only ignore it. */
  refuse: boolean;
}

/** Formats the documents use that JSON Schema has no definition for: not checked. */
const UNDEFINED_FORMATS = ['Hex color code', 'int8'];

let ajvInstance: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validator(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) {
    if (!ajvInstance) {
      ajvInstance = new Ajv({ strict: false, allErrors: true, validateFormats: true });
      addFormats(ajvInstance);
      for (const f of UNDEFINED_FORMATS) ajvInstance.addFormat(f, true);
    }
    v = ajvInstance.compile(schema);
    compiled.set(key, v);
  }
  return v;
}

/** The segments of a path, each percent-decoded once (as a router does). */
function segments(path: string): string[] {
  return path
    .replace(/\/+$/, '')
    .split('/')
    .slice(1)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The path parameters when `path` fits the rule's template (`/v2/meetings/{meetingId}`), else undefined. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.replace(/\/+$/, '').split('/').slice(1);
  const s = segments(path);
  if (t.length !== s.length) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const part = t[i]!;
    const value = s[i]!;
    const name = /^\{([^}]+)\}$/.exec(part)?.[1];
    if (name !== undefined) {
      if (value === '') return undefined;
      out[name] = value;
    } else if (part !== value) return undefined;
  }
  return out;
}

/** Literal segments count most: `/meetings/meeting_summaries` wins over `/meetings/{meetingId}`. */
const specificity = (template: string) =>
  template.split('/').filter((p) => p !== '' && !p.startsWith('{')).length;

/** The operation among `rules` that a request's method and path are for, if any. */
export function findOperation(
  rules: Iterable<OperationRule>,
  method: string,
  path: string,
): OperationRule | undefined {
  let best: OperationRule | undefined;
  for (const r of rules) {
    if (r.method !== method.toUpperCase() || !matchPath(r.path, path)) continue;
    if (!best || specificity(r.path) > specificity(best.path)) best = r;
  }
  return best;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** A text value read as the schema's type; left as text when it is not one, so the type rule fails. */
function coerce(value: string, schema: Schema): unknown {
  switch (schema['type']) {
    case 'integer':
    case 'number':
      return NUMBER.test(value.trim()) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'array': {
      const items = (schema['items'] ?? {}) as Schema;
      return value.split(',').map((v) => coerce(v, items));
    }
    default:
      return value;
  }
}

/** The rule an ajv error names: its keyword and, where it has one, the limit. */
function ruleOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return `type ${String(p['type'])}`;
    case 'enum':
      return `enum ${JSON.stringify(p['allowedValues'])}`;
    case 'format':
      return `format ${String(p['format'])}`;
    case 'pattern':
      return `pattern ${String(p['pattern'])}`;
    case 'required':
      return 'required';
    default:
      return p['limit'] !== undefined ? `${e.keyword} ${JSON.stringify(p['limit'])}` : e.keyword;
  }
}

/** `/tickets/0/email` → `tickets[0].email`, as the platform names a body field. */
const dotted = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, s) => (/^\d+$/.test(s) ? `${out}[${s}]` : out ? `${out}.${s}` : s), '');

/** The body field an ajv error is about, as a dotted path. */
function fieldOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const base = dotted(e.instancePath);
  const extra = e.keyword === 'required' ? String(p['missingProperty']) : undefined;
  return [base, extra].filter((x) => x !== undefined && x !== '').join('.') || '(body)';
}

/** Body properties the schema does not declare, as dotted paths (what the platform ignores). */
function undeclared(schema: Schema, value: unknown, at: string, out: string[]): void {
  if (Array.isArray(value)) {
    const items = schema['items'] as Schema | undefined;
    if (items) value.forEach((v, i) => undeclared(items, v, `${at}[${i}]`, out));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  // The declared properties of the schema and of every branch it combines.
  const branches = [
    schema,
    ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => (schema[k] as Schema[]) ?? []),
  ];
  const props: Record<string, Schema> = {};
  let open = false;
  for (const b of branches) {
    Object.assign(props, (b['properties'] as Record<string, Schema> | undefined) ?? {});
    if (b['additionalProperties'] !== undefined && b['additionalProperties'] !== false) open = true;
  }
  // A schema that declares no properties says nothing about which names are allowed.
  if (Object.keys(props).length === 0) return;
  for (const [k, v] of Object.entries(value)) {
    const path = at ? `${at}.${k}` : k;
    const s = props[k];
    if (s) undeclared(s, v, path, out);
    else if (!open) out.push(path);
  }
}

/** A value as the message shows it: at most 80 characters. */
const show = (v: unknown) => {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** `GET /v2/clips?page_size=1`: the request as a person reads it. */
export function describeRequest(req: PlatformRequest): string {
  const q = Object.entries(req.query)
    .flatMap(([k, v]) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).map((x) => `${k}=${x}`)))
    .join('&');
  return `${req.method} ${req.path}${q ? `?${q}` : ''}`;
}

type Add = (v: Omit<ContractViolation, 'request' | 'document' | 'operation'>) => void;

/** Every rule of `rule` that `req` breaks ([] when it keeps them all). */
export function checkRequest(rule: OperationRule, req: PlatformRequest): ContractViolation[] {
  const out: ContractViolation[] = [];
  const base = {
    request: describeRequest(req),
    document: rule.document,
    operation: `${rule.method} ${rule.template}${rule.operationId ? ` (${rule.operationId})` : ''}`,
  };
  const add: Add = (v) => out.push({ ...base, ...v });
  const params = matchPath(rule.path, req.path) ?? {};
  for (const p of rule.pathParams) {
    const raw = params[p.name];
    if (raw !== undefined) checkValue(add, 'path', p, raw);
  }

  checkQuery(rule, req, add);
  if (!req.bodyUnread) checkBody(rule, req, add);
  return out;
}

/** A path or query value against its parameter's schema. */
function checkValue(add: Add, where: 'path' | 'query', p: ParamRule, raw: string): void {
  const v = validator(p.schema);
  if (v(coerce(raw, p.schema))) return;
  for (const e of v.errors ?? [])
    add({
      where,
      name: p.name,
      rule: ruleOf(e),
      message: `${where} parameter ${p.name}=${show(raw)} ${e.message ?? 'is not valid'}`,
      refuse: true,
    });
}

/** Required, declared, single-valued query parameters, each valid. */
function checkQuery(rule: OperationRule, req: PlatformRequest, add: Add): void {
  const declared = new Map(rule.query.map((p) => [p.name, p]));
  for (const p of rule.query)
    if (p.required && (req.query[p.name] === undefined || req.query[p.name] === ''))
      add({
        where: 'query',
        name: p.name,
        rule: 'required',
        message: `query parameter ${p.name} is required`,
        refuse: true,
      });
  for (const [name, raw] of Object.entries(req.query)) {
    if (raw === undefined) continue;
    const p = declared.get(name);
    if (!p) {
      add({
        where: 'query',
        name,
        rule: 'declared',
        message: `query parameter ${name} is not declared by the operation`,
        refuse: false,
      });
      continue;
    }
    if (Array.isArray(raw) && p.schema['type'] !== 'array') {
      add({
        where: 'query',
        name,
        rule: 'single value',
        message: `query parameter ${name} is given ${raw.length} times`,
        refuse: true,
      });
      continue;
    }
    checkValue(add, 'query', p, Array.isArray(raw) ? raw.join(',') : raw);
  }
}

/** The body: present when required, absent when none is documented, of the documented media type and schema. */
function checkBody(rule: OperationRule, req: PlatformRequest, add: Add): void {
  if (!rule.body) {
    if (req.hasBody)
      add({
        where: 'body',
        name: '(body)',
        rule: 'no body',
        message: 'the operation documents no request body',
        refuse: false,
      });
    return;
  }
  if (!req.hasBody) {
    if (rule.body.required)
      add({
        where: 'body',
        name: '(body)',
        rule: 'required',
        message: 'the request body is required',
        refuse: true,
      });
    return;
  }
  const media = (req.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (rule.body.media.length > 0 && !rule.body.media.includes(media)) {
    add({
      where: 'body',
      name: '(body)',
      rule: `media ${rule.body.media.join(' | ')}`,
      message: `the body is ${media || 'of no stated type'}, not ${rule.body.media.join(' or ')}`,
      refuse: true,
    });
    return;
  }
  if (media === 'application/json' && req.body === undefined) {
    add({ where: 'body', name: '(body)', rule: 'json', message: 'the body is not valid JSON', refuse: true });
    return;
  }
  if (!rule.body.schema || media !== 'application/json') return;
  const v = validator(rule.body.schema);
  if (!v(req.body)) {
    const seen = new Set<string>();
    for (const e of v.errors ?? []) {
      const name = fieldOf(e);
      const r = ruleOf(e);
      if (seen.has(`${name} ${r}`)) continue;
      seen.add(`${name} ${r}`);
      add({
        where: 'body',
        name,
        rule: r,
        message: `body ${name}${e.keyword === 'required' ? ' is required' : ` = ${show(valueAt(req.body, e.instancePath))} ${e.message ?? 'is not valid'}`}`,
        refuse: true,
      });
    }
  }
  const extra: string[] = [];
  undeclared(rule.body.schema, req.body, '', extra);
  for (const name of extra)
    add({
      where: 'body',
      name,
      rule: 'declared',
      message: `body property ${name} is not declared by the operation's schema`,
      refuse: false,
    });
}

function valueAt(body: unknown, pointer: string): unknown {
  let v = body;
  for (const part of pointer.split('/').slice(1)) v = (v as Record<string, unknown> | undefined)?.[part];
  return v;
}

/** One line per violation, for a failing test or a log. */
export function formatViolation(v: ContractViolation): string {
  return `${v.request} breaks ${v.document} ${v.operation}: ${v.message} [rule: ${v.where} ${v.name} ${v.rule}]`;
}
