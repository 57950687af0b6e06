/**
 * Re-seals every sealed value in the store under the keyring's current key (key rotation),
 * beside running instances: each write is a compare-and-swap on the value read, so a refresh
 * that lands between the read and the write is never overwritten; on a conflict the values are
 * read again and those not yet under the new key are re-sealed, pass after pass.
 */
import {
  open,
  seal,
  sealedKeyId,
  VaultError,
  type Keyring,
  type VaultFailure,
} from '../gateway/oauth/vault.js';
import { subscriptionSecretAad } from '../gateway/webhooks-out/subscriptions.js';
import type { SealedValue, Store } from '../store/store.js';

/** The additional authenticated data each sealed column was sealed with. */
export function aadFor(v: Pick<SealedValue, 'table' | 'id' | 'column'>): string {
  return v.table === 'link'
    ? `link:${v.id}:${v.column}`
    : v.table === 'webhook_subscriptions'
      ? subscriptionSecretAad(v.id)
      : `oauth_state:${v.id}:verifier`;
}

export interface ResealOptions {
  store: Store;
  /** Every key that may have sealed a value; its current key seals. */
  ring: Keyring;
  /** Runs after each read of the values, before any is written (tests interleave a refresh here). */
  afterRead?: () => Promise<void>;
  /** Reads before giving up on values that keep changing. */
  maxPasses?: number;
}

/** A value left as it is because no key at hand opens it. */
export interface UnreadableValue {
  table: string;
  id: string;
  column: string;
  reason: VaultFailure;
  keyId: string;
}

export interface ResealReport {
  resealed: number;
  unreadable: UnreadableValue[];
}

export class ResealConflict extends Error {}

export async function resealAll(o: ResealOptions): Promise<ResealReport> {
  const maxPasses = o.maxPasses ?? 5;
  const newId = o.ring.current.id;
  let resealed = 0;
  for (let pass = 1; pass <= maxPasses; pass++) {
    const unreadable: UnreadableValue[] = [];
    // Values already under the new key were re-sealed, or written by an instance that has it.
    const pending = (await o.store.sealedValues()).filter((v) => sealedKeyId(v.value) !== newId);
    await o.afterRead?.();
    let conflicts = 0;
    for (const v of pending) {
      const aad = aadFor(v);
      let plain: string;
      try {
        plain = open(o.ring, v.value, aad);
      } catch (err) {
        if (!(err instanceof VaultError)) throw err;
        const { table, id, column } = v;
        unreadable.push({ table, id, column, reason: err.reason, keyId: err.keyId });
        continue;
      }
      if (await o.store.rewriteSealed(v, seal(o.ring, plain, aad))) resealed += 1;
      else conflicts += 1;
    }
    if (conflicts === 0) return { resealed, unreadable };
  }
  throw new ResealConflict(
    `sealed values kept changing while being re-sealed (${maxPasses} reads); nothing was lost and key ${newId} is in place: run rotate-key again when the store is quieter`,
  );
}
