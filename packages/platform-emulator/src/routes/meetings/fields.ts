/**
 * Reads a meeting create or update body: the fields the platform accepts, checked its way (400
 * code 300 "Validation Failed." naming each offending field), and the parsed start time.
 */
import { zerr } from '../../context.js';
import { isTimeZone, parseStartTime } from '../../time.js';

export interface Fields {
  topic?: string;
  type?: number;
  start_time?: string;
  duration?: number;
  timezone?: string;
  agenda?: string;
  password?: string;
  settings?: Record<string, unknown>;
}

/** Validates a create/update body the platform's way: 400 code 300 "Validation Failed." with fields. */
export function readFields(b: Record<string, unknown>): { f: Fields; start?: Date } {
  const errors: { field: string; message: string }[] = [];
  const f: Fields = {};
  const bad = (field: string) => errors.push({ field, message: 'Invalid field.' });
  const take = <K extends keyof Fields>(key: K, ok: (v: unknown) => boolean) => {
    if (!(key in b)) return;
    if (ok(b[key])) f[key] = b[key] as Fields[K];
    else bad(key);
  };
  const int = (v: unknown, max: number) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= max;
  const str = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  take('topic', (v) => str(v, 200));
  take('type', (v) => [1, 2, 3, 8, 10].includes(v as number));
  take('duration', (v) => int(v, 1440));
  take('timezone', (v) => typeof v === 'string' && isTimeZone(v));
  take('agenda', (v) => str(v, 2000));
  take('password', (v) => str(v, 10));
  take('settings', (v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  let start: Date | undefined;
  if ('start_time' in b) {
    start = typeof b['start_time'] === 'string' ? parseStartTime(b['start_time'], f.timezone) : undefined;
    if (start) f.start_time = b['start_time'] as string;
    else bad('start_time');
  }
  if (errors.length) throw zerr.validation(errors);
  return { f, ...(start ? { start } : {}) };
}
