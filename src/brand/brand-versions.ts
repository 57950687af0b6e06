/**
 * Brand versions over the store: each brand load publishes its tokens (a new semver version
 * when they differ from the latest stored one, announced as `brand.updated` in the same
 * transaction), and the reads behind GET /api/brand/versions, /api/brand/changelog and
 * /api/brand/tokens?version=. Versions are kept in the store, so they survive restarts and are
 * shared by every instance on one database.
 */
import type { Logger } from 'pino';
import { outboxMessage } from '../store/outbox-messages.js';
import type { BrandVersionRecord, BrandVersionSummary, Page, Store } from '../store/store.js';
import {
  bumpOf,
  contentHash,
  diffTokens,
  flattenDocument,
  nextVersion,
  type Bump,
  type TokenChanges,
} from './versions.js';
import type { BrandSource } from './read-brand-folder.js';
import { tokensDocument } from './tokens-document.js';

export interface Changelog extends TokenChanges {
  /** Null for the first version (everything in it is added). */
  from: string | null;
  to: string;
  bump: Bump;
}

/** The `brand.updated` payload's data. */
export interface BrandUpdated {
  version: string;
  previous: string | null;
  bump: Bump;
  added: number;
  removed: number;
  changed: number;
}

const flattenStored = (v: BrandVersionRecord | undefined) =>
  v ? flattenDocument(JSON.parse(v.tokens)) : new Map();

export class BrandVersions {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Publishes a served tokens document: returns the latest version afterwards (this one's, or
   * the stored one when the tokens did not change, or another instance's that won the race).
   */
  async publish(document: Record<string, unknown>): Promise<{ version: string; published: boolean }> {
    const tokens = flattenDocument(document);
    const hash = contentHash(tokens);
    const r = await this.store.publishBrandVersion(hash, (latest) => {
      const changes = diffTokens(flattenStored(latest), tokens);
      // The hash differs, so something did; the first version is a major release of everything.
      const bump: Bump = latest ? (bumpOf(changes) ?? 'patch') : 'major';
      const at = this.now();
      const record: BrandVersionRecord = {
        version: nextVersion(latest?.version, bump),
        seq: (latest?.seq ?? 0) + 1,
        previous: latest?.version ?? null,
        publishedAt: new Date(at).toISOString(),
        contentHash: hash,
        bump,
        added: changes.added.length,
        removed: changes.removed.length,
        changed: changes.changed.length,
        changes: JSON.stringify(changes),
        tokens: JSON.stringify(document),
      };
      const data: BrandUpdated = {
        version: record.version,
        previous: record.previous,
        bump,
        added: record.added,
        removed: record.removed,
        changed: record.changed,
      };
      return { record, outbox: [outboxMessage('brand.updated', { ...data }, at)] };
    });
    return { version: r.latest.version, published: r.published };
  }

  list(limit: number, after?: number): Promise<Page<BrandVersionSummary>> {
    return this.store.listBrandVersions({ limit, ...(after !== undefined ? { after } : {}) });
  }

  latest(): Promise<BrandVersionRecord | undefined> {
    return this.store.latestBrandVersion();
  }

  get(version: string): Promise<BrandVersionRecord | undefined> {
    return this.store.getBrandVersion(version);
  }

  /** The change from `from` (undefined: nothing, the first version's changelog) to `to`. */
  changelog(from: BrandVersionRecord | undefined, to: BrandVersionRecord): Changelog {
    const changes =
      from?.version === to.previous && to.previous !== null
        ? (JSON.parse(to.changes) as TokenChanges)
        : diffTokens(flattenStored(from), flattenStored(to));
    // Between versions whose tokens ended up equal (a revert) nothing changed: a patch at most.
    const bump = from ? (bumpOf(changes) ?? 'patch') : 'major';
    return { from: from?.version ?? null, to: to.version, bump, ...changes };
  }
}

/**
 * BrandService's `version` hook: publishes each load's tokens document. A store that cannot be
 * reached does not stop the brand from serving: the load goes on without a version, and says so.
 */
export function versionHook(
  versions: BrandVersions,
  logger: Logger,
): (source: BrandSource, baseUrl: string) => Promise<string | undefined> {
  return async (source, baseUrl) => {
    try {
      const r = await versions.publish(tokensDocument(source, baseUrl));
      if (r.published) logger.info({ brandVersion: r.version }, 'brand version published');
      return r.version;
    } catch (err) {
      logger.error({ err }, 'publishing the brand version failed; serving the brand without a version');
      return undefined;
    }
  };
}
