/** Zoom Phone: query-parameter parsing and validation (date windows, enum and array filters). */
import { q } from '../../context.js';
import type { EmulatorRequest, ZoomError } from '../../context.js';

export type BadParam = (name: string) => ZoomError;

/** `yyyy-mm-dd` (whole day) or `yyyy-MM-ddTHH:mm:ssZ`, as the Phone list endpoints take them. */
function parseBound(v: string, end: boolean): number | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) {
    const t = Date.parse(`${v}T00:00:00Z`);
    return Number.isNaN(t) ? undefined : end ? t + 86_399_999 : t;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(v)) {
    const t = Date.parse(v);
    return Number.isNaN(t) ? undefined : t;
  }
  return undefined;
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The from/to window; `to` is required once `from` is given, and the default is the recent past. */
export function dateWindow(req: EmulatorRequest, now: number, defaultMs: number, bad: BadParam) {
  const from = q(req, 'from');
  const to = q(req, 'to');
  if (from === undefined && to === undefined) {
    return { fromMs: now - defaultMs, toMs: now, from: dayOf(now - defaultMs), to: dayOf(now) };
  }
  if (from === undefined) throw bad('from');
  if (to === undefined) throw bad('to');
  const fromMs = parseBound(from, false);
  if (fromMs === undefined) throw bad('from');
  const toMs = parseBound(to, true);
  if (toMs === undefined || toMs < fromMs) throw bad('to');
  return { fromMs, toMs, from, to };
}

/** A repeated (`a=x&a=y`), bracketed (`a[]=x`) or comma-separated array query parameter. */
export function many(
  req: EmulatorRequest,
  name: string,
  allowed: string[] | undefined,
  bad: BadParam,
): string[] | undefined {
  const query = req.query as Record<string, unknown>;
  const raw = [query[name], query[`${name}[]`]].flat().filter((v): v is string => typeof v === 'string');
  if (!raw.length) return undefined;
  const values = raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (allowed && values.some((v) => !allowed.includes(v))) throw bad(name);
  return values;
}

export function oneOf<T extends string>(
  req: EmulatorRequest,
  name: string,
  allowed: readonly T[],
  bad: BadParam,
): T | undefined {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) throw bad(name);
  return v as T;
}

export const truthy = (req: EmulatorRequest, name: string, bad: BadParam): boolean | undefined => {
  const v = q(req, name);
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw bad(name);
  return v === 'true';
};
