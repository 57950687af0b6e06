/**
 * One capability, declared once: its input and output schemas (zod), what kind of call it is,
 * the platform scopes that admit it, where the platform offers it, its REST paths, and a function
 * that does the platform work through the shared client. Transport-neutral: the REST views, the
 * generic invoke endpoint and the MCP tools are all built from this one declaration and run it
 * through the one invoke (idempotent-invoke.ts), which checks scopes and output for all of them.
 */
import * as z from 'zod';
import { AppError } from '../../core/errors.js';
import type { Store } from '../../store/store.js';
import type { PlatformClient } from '../platform/platform-client.js';
import type { RateLabel } from '../platform/budget.js';

export interface OpContext {
  platform: PlatformClient;
  store: Store;
  /** `me` for a user link, the linked user's id in server-to-server mode. */
  uid: string;
  now: () => number;
  /** The live funnel theme keys from the brand (valid values of a stored event's funnel). */
  funnels: () => readonly string[];
  /** The platform's hosted MCP server, when reachable (AI paths). */
  hostedMcp: HostedMcp;
  /** The platform app's id (its OAuth client id), e.g. for the marketplace group. */
  appId: string;
  /**
   * The scopes the linked account granted, when it is linked and usable; undefined otherwise (a
   * call then fails on the link itself: not_linked, needs_relink), so scopes are not checked.
   */
  granted?: readonly string[] | undefined;
}

export interface HostedMcp {
  /** Calls a hosted MCP tool; throws AppError('hosted_mcp_unavailable') when it cannot. */
  callTool(name: string, args: Record<string, unknown>): Promise<{ structured: unknown; text: string }>;
}

/** Where a capability comes from: a public REST endpoint, the hosted MCP server, composed, or nowhere. */
export type Availability = 'rest' | 'hosted_mcp' | 'composed' | 'no_public_api';

/** The parts of a request a REST view reads. */
export interface ViewRequest {
  query: unknown;
  params: unknown;
  body: unknown;
}

/** One REST path of a capability: a thin view over its operation. */
export interface RestBinding {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Fastify's spelling, `:param` for path parameters. */
  url: string;
  /** Builds the operation input; default: query (GET/DELETE) or body (others), plus path params. */
  input?: (req: ViewRequest) => unknown;
  /** What the API reference shows as the input, when part of the operation's comes from the path. */
  docInput?: z.ZodType;
  /** The success status (default 200). */
  status?: number;
}

/** What every capability declares, offered by the platform or not. */
export interface CapabilityFacts {
  group: string;
  name: string;
  /** Any one of these granted scopes admits the capability (none: nothing to check). */
  scopes: readonly string[];
  /** Default `rest`. */
  availability?: Availability;
  /** Said to users where the platform offers no public endpoint, or where we compose one. */
  note?: string;
  /** Not one of the seed's: served everywhere except the status report's seed lists. */
  beyondSeed?: true;
}

export interface Operation<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
> extends CapabilityFacts {
  /** One sentence for the API reference and for models. */
  summary: string;
  /** Its REST paths (besides the generic invoke endpoint, which serves every operation). */
  rest?: readonly RestBinding[];
  kind: 'read' | 'write' | 'delete';
  /** A write that may change or replace existing data rather than only add (MCP destructiveHint). */
  overwrites?: boolean;
  /**
   * A write that creates something each time it runs: REST takes an `Idempotency-Key` header and
   * MCP an optional `idempotency_key` argument, and a repeat with the same key replays the first
   * answer (the shared invoke does this, not the transports).
   */
  creates?: true;
  /**
   * With `creates`, for an operation that only reads with some inputs: whether this input
   * creates. A key sent with one that does not is refused, so a read is never answered by a replay.
   */
  createsWhen?(input: z.output<I>): boolean;
  input: I;
  /**
   * The shape of the result (OpenAPI, MCP outputSchema), published as its output JSON Schema.
   * Results are not parsed through it, so `run` must already return that shape: its type says so.
   */
  output: O;
  run(ctx: OpContext, input: z.output<I>): Promise<z.output<O>>;
}

export const defineOp = <I extends z.ZodType, O extends z.ZodType>(op: Operation<I, O>): Operation<I, O> =>
  op;

/** A capability the platform offers no public endpoint for: listed, monitored, answered with 501. */
export interface Unoffered extends CapabilityFacts {
  availability: 'no_public_api';
  note: string;
  operation?: undefined;
}

export const unoffered = (group: string, name: string, note: string): Unoffered => ({
  group,
  name,
  scopes: [],
  availability: 'no_public_api',
  note,
});

/** What a group file declares: its operations and the capabilities it cannot offer, in order. */
export type Declared = Operation | Unoffered;

/**
 * An answer that is one of several objects (`z.union` or `z.discriminatedUnion` of objects). MCP
 * takes only `type: object` at an outputSchema's root, so the union says so there too.
 */
export const objectUnion = <T extends z.ZodUnion<readonly z.ZodObject[]>>(union: T): T =>
  union.meta({ type: 'object' });

/** Our list envelope: `{items, nextCursor}`; the cursor is the platform's page token, opaque to callers. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** `limit` and `cursor` for list inputs; `limit` accepts query-string numbers. */
/** `limit` and `cursor`; `min` where the platform's page size has a documented minimum (clips: 30). */
export const paging = (max: number, def = 30, min = 1) => ({
  limit: z.coerce
    .number()
    .int()
    .min(min)
    .max(max)
    .default(Math.min(def, max))
    .describe(`page size, ${min} to ${max}`),
  cursor: z.string().min(1).max(1024).optional().describe('nextCursor from the previous page'),
});

/** The output schema of a `Page` of `item`. */
export const pageSchema = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    nextCursor: z.string().nullable().describe('pass as cursor for the next page; null on the last page'),
  });

export const pageOf = <T>(items: T[], nextPageToken: unknown): Page<T> => ({
  items,
  nextCursor: typeof nextPageToken === 'string' && nextPageToken !== '' ? nextPageToken : null,
});

/** A yyyy-mm-dd date; documented as `format: date`, so generated clients and validators know it. */
export const day = z
  .string()
  // abort: a text that is no date at all is not also reported as an unreal one (`date` below).
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date like 2026-11-22', abort: true })
  .meta({ format: 'date' });

export const DAY_MS = 86_400_000;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Days in month `mo` (1-12) of year `y`, proleptic Gregorian as the platform counts. */
export const daysInMonth = (y: number, mo: number) =>
  mo === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : (MONTH_DAYS[mo - 1] ?? 0);
/** Whether a yyyy-mm-dd string names a day that exists (read as a UTC day, as the platform does). */
export const isRealDay = (v: string) => {
  // Arithmetic, not Date.parse and toISOString: this runs on every dated input and cursor.
  const m = YMD.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
};
/** A yyyy-mm-dd date that exists. */
export const date = day.refine(isRealDay, 'must be a real calendar date');
let lastDay = NaN;
let lastDayText = '';
/** The UTC day of an instant, yyyy-mm-dd (the last one kept: most calls ask for today). */
export const dayOf = (ms: number) => {
  const d = Math.floor(ms / DAY_MS);
  if (d !== lastDay) {
    lastDayText = new Date(d * DAY_MS).toISOString().slice(0, 10);
    lastDay = d;
  }
  return lastDayText;
};
export const addDays = (d: string, n: number) => dayOf(Date.parse(`${d}T00:00:00Z`) + n * DAY_MS);
export const daysBetween = (a: string, b: string) =>
  (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS;

/** A validation error found while running (one that needs today's date, say), in parseInput's shape. */
export const invalid = (path: string, message: string) =>
  new AppError(400, 'validation_failed', 'The input is not valid.', { issues: [{ path, message }] });

/**
 * A from/to window of days as a list input gives it: `to` defaults to today (or `from`, when later),
 * `from` to `defaultDays` before `to`; out of order or wider than `maxSpanDays` is a 400.
 */
export function dayWindow(
  now: number,
  i: { from?: string | undefined; to?: string | undefined },
  defaultDays: number,
  maxSpanDays: number,
): { from: string; to: string } {
  const today = dayOf(now);
  const to = i.to ?? (i.from !== undefined && i.from > today ? i.from : today);
  const from = i.from ?? addDays(to, -defaultDays);
  if (from > to) throw invalid('to', 'must not be before from');
  if (daysBetween(from, to) > maxSpanDays)
    throw invalid('from', `must be at most ${maxSpanDays} days before to`);
  return { from, to };
}

/**
 * An ISO 8601 instant with a zone and a 4-digit year (a 6-digit one parses, but a day later may be
 * past what a Date holds, and the platform takes yyyy-MM-dd).
 */
export const instant = z
  .string()
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
    'must be an ISO 8601 time with a zone, like 2026-11-22T15:00:00Z',
  )
  .meta({ format: 'date-time' });
/** Path-safe identifier as the platform issues them. */
export const id = (what: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.@+=/-]+$/, `${what} has characters the platform never uses`);

export interface PlatformCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  label: RateLabel;
}

/** Encodes a path segment; instance UUIDs with '/' must be double-encoded, as the platform asks. */
export const seg = (v: string | number) => {
  const s = String(v);
  // `.` and `..` survive encodeURIComponent and URL resolution would climb out of the path
  // (`/meetings/..` is `/v2/`); like `/`, they are encoded twice so they stay a literal segment.
  if (s === '.' || s === '..') return encodeURIComponent(s.replace(/\./g, '%2E'));
  const once = encodeURIComponent(s);
  return s.includes('/') ? encodeURIComponent(once) : once;
};
