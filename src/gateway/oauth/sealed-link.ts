/**
 * Opening the link's sealed tokens, and saying why they cannot be opened. A link whose tokens
 * do not open (their key is missing, or a value was altered) needs relinking just as one whose
 * refresh token the platform refused; unlike that one it is never marked in the store: the
 * sealed values stay as they are, so restoring the key brings the link back.
 */
import { AppError } from '../../core/errors.js';
import type { LinkRecord } from '../../store/store.js';
import { openAny, VaultError, type KeySource, type VaultFailure } from './vault.js';

export type TokenColumn = 'access_token' | 'refresh_token';

export const aad = (column: TokenColumn) => `link:default:${column}`;

export interface LinkProblem {
  reason: VaultFailure;
  /** The key the value names: the missing one for key_missing. */
  keyId: string;
  column: TokenColumn;
  /** What is wrong, for the monitor and the log ("the sealed tokens cannot be decrypted: …"). */
  cause: string;
  /** What the operator can do about it. */
  remedy: string;
}

const RELINK = 'link the account again through GET /api/video/oauth/start';
const name = (c: TokenColumn) => (c === 'access_token' ? 'access token' : 'refresh token');

function describe(err: VaultError, column: TokenColumn): LinkProblem {
  const base = { reason: err.reason, keyId: err.keyId, column };
  const head = 'the sealed tokens cannot be decrypted';
  switch (err.reason) {
    case 'key_missing':
      return {
        ...base,
        cause: `${head}: key ${err.keyId} is missing`,
        remedy: `Restore key ${err.keyId} (encryption-keys.json in the data dir, or FLEETGATE_ENCRYPTION_KEY), or ${RELINK}.`,
      };
    case 'failed_authentication':
      return {
        ...base,
        cause: `${head}: the ${name(column)} failed authentication under key ${err.keyId} (the stored value was altered)`,
        remedy: `Restore the database from a backup, or ${RELINK}.`,
      };
    case 'malformed':
      return {
        ...base,
        cause: `${head}: the stored ${name(column)} is not a sealed value`,
        remedy: `Restore the database from a backup, or ${RELINK}.`,
      };
  }
}

const sentence = (p: LinkProblem) => `${p.cause.charAt(0).toUpperCase()}${p.cause.slice(1)}. ${p.remedy}`;

/** The 409 needs_relink a call gets while the link's tokens cannot be opened. */
export class UnreadableLink extends AppError {
  constructor(readonly problem: LinkProblem) {
    super(409, 'needs_relink', sentence(problem), {
      reason: problem.reason,
      keyId: problem.keyId,
      column: problem.column,
    });
  }
}

/** The status report's note for an unreadable link. */
export const unreadableNote = sentence;

function openColumn(keys: KeySource, sealed: string, column: TokenColumn): string {
  try {
    return openAny(keys, sealed, aad(column));
  } catch (err) {
    if (err instanceof VaultError) throw new UnreadableLink(describe(err, column));
    throw err;
  }
}

export interface OpenedLink {
  accessToken: string;
  refreshToken: string | null;
}

/** Both tokens in the clear, or UnreadableLink (409 needs_relink) naming the first that does not open. */
export function openLink(keys: KeySource, link: LinkRecord): OpenedLink {
  return {
    accessToken: openColumn(keys, link.accessToken, 'access_token'),
    refreshToken: link.refreshToken === null ? null : openColumn(keys, link.refreshToken, 'refresh_token'),
  };
}

/** Why the link's tokens cannot be opened with the keys at hand; undefined when they can. */
export function linkProblem(keys: KeySource, link: LinkRecord): LinkProblem | undefined {
  try {
    openLink(keys, link);
    return undefined;
  } catch (err) {
    if (err instanceof UnreadableLink) return err.problem;
    throw err;
  }
}
