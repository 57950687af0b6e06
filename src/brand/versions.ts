/**
 * Brand versions, the pure part: a DTCG tokens document (as GET /api/brand/tokens serves it,
 * dark overrides under $extensions) flattened to path → {type, value}, the difference between
 * two such flattenings with a suggested replacement for each removed token, the semver bump the
 * difference calls for (removed or retyped: major; added: minor; changed value: patch) and the
 * content hash that says whether anything changed at all.
 */
import { createHash } from 'node:crypto';
import { flattenTokens } from './dtcg.js';

/** Dark-mode overrides are listed under their token's path with this suffix. */
export const DARK_SUFFIX = '@dark';
export const DARK_EXTENSION = 'org.fleetgate.modes';

export interface TokenEntry {
  type: string;
  value: unknown;
}
export type TokenMap = ReadonlyMap<string, TokenEntry>;

export type Bump = 'major' | 'minor' | 'patch';

export interface AddedToken {
  path: string;
  type: string;
  value: unknown;
}
export interface RemovedToken extends AddedToken {
  /** The token to use instead, where one exists (see suggestReplacement). */
  replacement: string | null;
}
export interface ChangedToken {
  path: string;
  from: unknown;
  to: unknown;
  /** Present when the type changed too (a major change). */
  fromType?: string;
  toType?: string;
}
export interface TokenChanges {
  added: AddedToken[];
  removed: RemovedToken[];
  changed: ChangedToken[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Every token of a served tokens document, light and dark, by path (sorted). */
export function flattenDocument(doc: unknown): Map<string, TokenEntry> {
  // The document was validated when the brand loaded; problems are not this module's business.
  const problems: never[] = [];
  const entries: [string, TokenEntry][] = [];
  for (const t of flattenTokens(doc, 'tokens', problems).values())
    entries.push([t.path, { type: t.type, value: t.value }]);
  const ext = isObject(doc) ? doc['$extensions'] : undefined;
  const modes = isObject(ext) ? ext[DARK_EXTENSION] : undefined;
  const dark = isObject(modes) ? modes['dark'] : undefined;
  if (dark !== undefined)
    for (const t of flattenTokens(dark, 'tokens', problems).values())
      entries.push([`${t.path}${DARK_SUFFIX}`, { type: t.type, value: t.value }]);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return new Map(entries);
}

/** What identifies the content: the same tokens (in any key order) give the same hash. */
export function contentHash(tokens: TokenMap): string {
  const text = canonical([...tokens].map(([path, t]) => [path, t.type, t.value]));
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The token to use instead of a removed one: a token that now holds the removed token's old
 * value (of the same type, and in the same mode, light or dark), preferring one that is new in
 * this change; else a new token of the same type and the same last name (a renamed group).
 * Null when neither exists: nothing is guessed beyond that.
 */
function suggestReplacement(path: string, old: TokenEntry, next: TokenMap, prev: TokenMap): string | null {
  const dark = path.endsWith(DARK_SUFFIX);
  const candidates = [...next].filter(
    ([p, t]) => p.endsWith(DARK_SUFFIX) === dark && t.type === old.type && !prev.has(p),
  );
  const others = [...next].filter(
    ([p, t]) => p.endsWith(DARK_SUFFIX) === dark && t.type === old.type && prev.has(p),
  );
  const value = canonical(old.value);
  const sameValue = [...candidates, ...others].find(([, t]) => canonical(t.value) === value);
  if (sameValue) return sameValue[0];
  const name = path.replace(DARK_SUFFIX, '').split('.').at(-1);
  const renamed = candidates.find(([p]) => p.replace(DARK_SUFFIX, '').split('.').at(-1) === name);
  return renamed ? renamed[0] : null;
}

/** What changed from `prev` to `next`, each list in path order. */
export function diffTokens(prev: TokenMap, next: TokenMap): TokenChanges {
  const added: AddedToken[] = [];
  const removed: RemovedToken[] = [];
  const changed: ChangedToken[] = [];
  for (const [path, t] of next) {
    const was = prev.get(path);
    if (!was) added.push({ path, type: t.type, value: t.value });
    else if (was.type !== t.type)
      changed.push({ path, from: was.value, to: t.value, fromType: was.type, toType: t.type });
    else if (canonical(was.value) !== canonical(t.value))
      changed.push({ path, from: was.value, to: t.value });
  }
  for (const [path, t] of prev)
    if (!next.has(path))
      removed.push({
        path,
        type: t.type,
        value: t.value,
        replacement: suggestReplacement(path, t, next, prev),
      });
  return { added, removed, changed };
}

/** The bump a change calls for; undefined when nothing changed. */
export function bumpOf(c: TokenChanges): Bump | undefined {
  if (c.removed.length > 0 || c.changed.some((x) => x.fromType !== undefined)) return 'major';
  if (c.added.length > 0) return 'minor';
  if (c.changed.length > 0) return 'patch';
  return undefined;
}

const SEMVER = /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})$/;

export const isVersion = (v: string): boolean => SEMVER.test(v);

function parts(v: string): [number, number, number] {
  const m = SEMVER.exec(v);
  if (!m) throw new Error(`not a brand version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The version after `prev` for this bump; the first version is 1.0.0. */
export function nextVersion(prev: string | undefined, bump: Bump): string {
  if (prev === undefined) return '1.0.0';
  const [major, minor, patch] = parts(prev);
  if (bump === 'major') return `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** Semver order: negative when a is older than b. */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The response header naming the brand version a brand response belongs to. */
export const BRAND_VERSION_HEADER = 'brand-version';

/** The headers that carry a brand version (readable by browser clients too); none without one. */
export function brandVersionHeaders(version: string | undefined): Record<string, string> {
  return version ? { [BRAND_VERSION_HEADER]: version, 'access-control-expose-headers': 'Brand-Version' } : {};
}
