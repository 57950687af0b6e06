/**
 * Store failures that are the storage's state, not a bug: no room to write, an I/O error
 * writing, or the database server out of reach (a PostgreSQL restart). Each becomes a 503 with
 * Retry-After and a code naming the cause, instead of a 500 `internal_error`; the driver error
 * stays as the cause, for the log only.
 */
import { AppError } from '../core/errors.js';

/** `full` and `io` mean the store cannot write; `unavailable` that it cannot be reached. */
export type StoreFailureKind = 'full' | 'io' | 'unavailable';

const ANSWERS: Record<StoreFailureKind, { code: string; message: string; retryAfter: number }> = {
  // Room comes back only when someone frees it: asking again at once would not help.
  full: {
    code: 'storage_full',
    message: 'The store cannot take writes: its disk (or quota) is full. Try again later.',
    retryAfter: 60,
  },
  io: {
    code: 'storage_io_error',
    message: 'The store cannot take writes: its disk reports I/O errors. Try again later.',
    retryAfter: 60,
  },
  // A restarting database is back within seconds.
  unavailable: {
    code: 'store_unavailable',
    message: 'The database cannot be reached right now. Try again shortly.',
    retryAfter: 5,
  },
};

export class StoreFailure extends AppError {
  constructor(
    readonly kind: StoreFailureKind,
    options?: { cause?: unknown },
  ) {
    const a = ANSWERS[kind];
    super(503, a.code, a.message, undefined, { 'retry-after': String(a.retryAfter) });
    this.name = 'StoreFailure';
    if (options && 'cause' in options) this.cause = options.cause;
  }
}

/** The error code a failure of this kind answers with. */
export const storeFailureCode = (kind: StoreFailureKind): string => ANSWERS[kind].code;

// SQLite's result codes (better-sqlite3 names them, extended ones included: SQLITE_IOERR_WRITE,
// SQLITE_IOERR_FSYNC, ...), errno names, and PostgreSQL SQLSTATEs.
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);
// 58030 is PostgreSQL's io_error.
const IO = /^(SQLITE_IOERR(_\w+)?|EIO|58030)$/;
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, class 08 connection
// exceptions, 53300 too_many_connections; and the socket's own errors.
const UNAVAILABLE =
  /^(57P0[123]|08\w{3}|53300|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN)$/;
// node-postgres says these without a code when its connection ends under it or cannot be had.
const PG_CONNECTION_LOST =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)$/;

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What kind of storage failure `err` is (looking into its cause and an aggregate's errors), if any. */
export function storeFailureKind(err: unknown, depth = 0): StoreFailureKind | undefined {
  if (err instanceof StoreFailure) return err.kind;
  if (!(err instanceof Error) || depth > 3) return undefined;
  const code = codeOf(err);
  if (code !== undefined) {
    if (FULL.has(code)) return 'full';
    if (IO.test(code)) return 'io';
    if (UNAVAILABLE.test(code)) return 'unavailable';
  }
  if (PG_CONNECTION_LOST.test(err.message)) return 'unavailable';
  const inner: unknown[] = [err.cause, ...(err instanceof AggregateError ? (err.errors as unknown[]) : [])];
  for (const e of inner) {
    const kind = storeFailureKind(e, depth + 1);
    if (kind) return kind;
  }
  return undefined;
}

/** `err` as a StoreFailure when it is one of those failures, else unchanged. */
export function asStoreFailure(err: unknown): unknown {
  if (err instanceof StoreFailure) return err;
  const kind = storeFailureKind(err);
  return kind ? new StoreFailure(kind, { cause: err }) : err;
}
