/**
 * The invoke every transport runs an operation through (REST views, the generic invoke, MCP
 * tools), so each refuses a missing scope and checks the answer against the output schema alike
 * (registry.ts), and an idempotency key means the same on each of them:
 *
 * - Only operations that create (`creates: true`) take a key, and only with an input that creates
 *   (`createsWhen`); a key sent to any other is refused (400 `idempotency_key_unsupported`), so no
 *   caller believes a retry is protected when it is not, and no read is answered by a replay.
 * - A key is 1 to 128 letters, digits, ".", ":", "_" or "-", and one key space serves every
 *   transport: an MCP retry of a create started over REST replays its answer.
 * - The request is the fingerprint of (group, name, validated input): the same input written
 *   another way (key order, a default left out, "30" for 30) is the same request; another
 *   operation or other input under a used key is 422 `idempotency_key_reused`.
 * - The key is claimed in the store before the operation runs, so of two concurrent requests one
 *   runs and the other is told 409 `idempotency_in_progress` (Retry-After: 1). A claim still
 *   running after ABANDONED_AFTER_MS was left by a process that ended mid-run: a retry of the same
 *   request takes it over and runs (the first may or may not have reached the platform).
 * - A success is stored and replayed as it was; a failure releases the key, so the caller may
 *   retry with it (a failed create left nothing behind: the operations undo their partial work).
 * - Keys live as long as FLEETGATE_IDEMPOTENCY_RETENTION_HOURS (the RetentionJob prunes them).
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../core/errors.js';
import type { Operation, OpContext } from './operation.js';
import { checkOutput } from './output-check.js';
import { admittedOperation, parseInput } from './registry.js';

/** The form of a key: what the first route accepted, kept so existing clients' keys stay valid. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_.:-]{1,128}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The store's status of a claim whose operation is still running. */
const RUNNING = 0;
/** The store's status of a finished one (any other than RUNNING): its body is the result's JSON. */
const DONE = 200;
/**
 * How long a claim may run before it counts as abandoned: well past the longest an operation can
 * take (three platform calls, each up to 4 attempts of FLEETGATE_UPSTREAM_TIMEOUT_MS at most 2 min).
 */
export const ABANDONED_AFTER_MS = 30 * 60_000;

export interface InvokeOutcome {
  result: unknown;
  /** True when the result is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/** JSON with object keys sorted, so a fingerprint does not depend on the order they were given in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => canonicalJson(x ?? null)).join(',')}]`;
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) {
    const parts = Object.keys(v)
      .sort()
      .flatMap((k) => {
        const x = (v as Record<string, unknown>)[k];
        return x === undefined ? [] : [`${JSON.stringify(k)}:${canonicalJson(x)}`];
      });
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What a key is bound to: the operation and its validated input. */
export function fingerprint(group: string, name: string, input: unknown): string {
  return createHash('sha256').update(canonicalJson({ group, name, input })).digest('hex');
}

function checkForm(key: string): void {
  if (!KEY.test(key)) {
    throw new AppError(
      400,
      'validation_failed',
      'An idempotency key must be 1 to 128 letters, digits, ".", ":", "_" or "-".',
    );
  }
}

/** The refusal of a key by something that creates nothing (`what`: the operation or route). */
export function keyUnsupported(what: string): AppError {
  return new AppError(
    400,
    'idempotency_key_unsupported',
    `${what} does not create anything, so it takes no idempotency key; send it without one.`,
  );
}

function checkKey(key: string, op: Operation): void {
  checkForm(key);
  if (op.creates !== true) throw keyUnsupported(`${op.group}/${op.name}`);
}

const inProgress = () =>
  new AppError(
    409,
    'idempotency_in_progress',
    'A request with this idempotency key is still running; retry shortly with the same key.',
    undefined,
    { 'retry-after': '1' },
  );

/**
 * Claims the key, or answers with what an earlier request under it did. A claim still running
 * after ABANDONED_AFTER_MS was left by a process that ended mid-run; the same request takes it over.
 */
async function claim(ctx: OpContext, key: string, hash: string): Promise<InvokeOutcome | undefined> {
  const now = ctx.now();
  const record = {
    key,
    requestHash: hash,
    status: RUNNING,
    body: '',
    createdAt: new Date(now).toISOString(),
  };
  const staleBefore = new Date(now - ABANDONED_AFTER_MS).toISOString();
  // A claim released between our insert and our read (its request failed) is taken on a second try.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await ctx.store.putIdempotent(record)) return undefined;
    const seen = await ctx.store.getIdempotent(key);
    if (!seen) continue;
    if (seen.requestHash !== hash) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        'This idempotency key was used with a different request; use a new key for a new request.',
      );
    }
    if (seen.status !== RUNNING) return { result: JSON.parse(seen.body) as unknown, replayed: true };
    if (seen.createdAt < staleBefore && (await ctx.store.reclaimIdempotent(record, staleBefore))) {
      return undefined;
    }
    throw inProgress();
  }
  throw inProgress();
}

/**
 * Runs `run` at most once per key for the request `(group, name, input)`, input already
 * validated; without a key it just runs. For creations that are not operations (a stored event's
 * registration), under the same rules and key space as `invokeOnce`.
 */
export async function runOnce(
  ctx: OpContext,
  request: { group: string; name: string; input: unknown },
  key: string | undefined,
  run: () => Promise<unknown>,
): Promise<InvokeOutcome> {
  if (key === undefined) return { result: await run(), replayed: false };
  checkForm(key);
  const hash = fingerprint(request.group, request.name, request.input);
  const answer = await claim(ctx, key, hash);
  if (answer) return answer;
  let result: unknown;
  try {
    result = await run();
  } catch (err) {
    // The operation's error is the answer; a store failure here only leaves the claim until pruned.
    await ctx.store.dropIdempotent(key).catch(() => undefined);
    throw err;
  }
  await ctx.store.finishIdempotent(key, DONE, JSON.stringify(result ?? null));
  return { result, replayed: false };
}

/** Runs one capability with untrusted input, at most once per idempotency key when one is given. */
export async function invokeOnce(
  ctx: OpContext,
  group: string,
  name: string,
  rawInput: unknown,
  key?: string,
): Promise<InvokeOutcome> {
  const op = admittedOperation(ctx, group, name);
  if (key !== undefined) checkKey(key, op);
  const input = parseInput(op.input, rawInput ?? {});
  if (key !== undefined && op.createsWhen?.(input) === false)
    throw keyUnsupported(`${group}/${name} with this input`);
  const outcome = await runOnce(ctx, { group, name, input }, key, () => op.run(ctx, input));
  // A replayed answer is checked too: what any transport sends is what the schema promises.
  checkOutput(op, outcome.result);
  return outcome;
}
