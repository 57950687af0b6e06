/**
 * Brand versions in SQL, for both dialects: the table and its migration, and the reads and the
 * compare-and-insert that publishes a version. A version is published inside the store's write
 * transaction after reading the latest one there: an unchanged content hash publishes nothing,
 * and `seq` (the latest's plus one) is unique, so of two instances publishing on top of the same
 * latest version only one row (and one announcement) is ever written.
 */
import type { Kysely, Migration } from 'kysely';
import type { BrandVersionRecord, BrandVersionSummary, Page } from './store.js';
import { page } from './tables.js';

export interface BrandVersionRow {
  version: string;
  seq: number;
  previous: string | null;
  published_at: string;
  content_hash: string;
  bump: string;
  added: number;
  removed: number;
  changed: number;
  /** JSON: the change detail against the previous version. */
  changes: string;
  /** JSON: the version's DTCG tokens document. */
  tokens: string;
}
export interface BrandVersionTables {
  brand_versions: BrandVersionRow;
}

/** The adapters' databases hold this table among others (Kysely's table map is invariant). */
export const asBrandVersionDb = <DB>(db: Kysely<DB>): Kysely<BrandVersionTables> =>
  db as unknown as Kysely<BrandVersionTables>;

export function brandVersionsMigration(int8: 'integer' | 'bigint'): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('brand_versions')
        .addColumn('version', 'text', (c) => c.primaryKey())
        // Unique: two publishers that read the same latest version collide here (one wins).
        .addColumn('seq', int8, (c) => c.notNull().unique())
        .addColumn('previous', 'text')
        .addColumn('published_at', 'text', (c) => c.notNull())
        // Not unique: content may return to an earlier state (a revert), which is a new version.
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('bump', 'text', (c) => c.notNull())
        .addColumn('added', 'integer', (c) => c.notNull())
        .addColumn('removed', 'integer', (c) => c.notNull())
        .addColumn('changed', 'integer', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('tokens', 'text', (c) => c.notNull())
        .execute();
      // The unique constraint on seq is the index that serves latest and newest-first pages.
    },
  };
}

const SUMMARY_COLUMNS = [
  'version',
  'seq',
  'previous',
  'published_at',
  'content_hash',
  'bump',
  'added',
  'removed',
  'changed',
] as const;

const summaryFromRow = (r: Omit<BrandVersionRow, 'changes' | 'tokens'>): BrandVersionSummary => ({
  version: r.version,
  seq: Number(r.seq),
  previous: r.previous,
  publishedAt: r.published_at,
  contentHash: r.content_hash,
  bump: r.bump as BrandVersionSummary['bump'],
  added: r.added,
  removed: r.removed,
  changed: r.changed,
});

const recordFromRow = (r: BrandVersionRow): BrandVersionRecord => ({
  ...summaryFromRow(r),
  changes: r.changes,
  tokens: r.tokens,
});

const rowFromRecord = (v: BrandVersionRecord): BrandVersionRow => ({
  version: v.version,
  seq: v.seq,
  previous: v.previous,
  published_at: v.publishedAt,
  content_hash: v.contentHash,
  bump: v.bump,
  added: v.added,
  removed: v.removed,
  changed: v.changed,
  changes: v.changes,
  tokens: v.tokens,
});

export async function latestBrandVersion(
  db: Kysely<BrandVersionTables>,
): Promise<BrandVersionRecord | undefined> {
  const row = await db
    .selectFrom('brand_versions')
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? recordFromRow(row) : undefined;
}

export async function getBrandVersion(
  db: Kysely<BrandVersionTables>,
  version: string,
): Promise<BrandVersionRecord | undefined> {
  const row = await db
    .selectFrom('brand_versions')
    .selectAll()
    .where('version', '=', version)
    .executeTakeFirst();
  return row ? recordFromRow(row) : undefined;
}

/** Newest first, after `afterSeq` (the last item of the previous page); reads `limit + 1` rows. */
export async function listBrandVersions(
  db: Kysely<BrandVersionTables>,
  limit: number,
  afterSeq: number | undefined,
): Promise<Page<BrandVersionSummary>> {
  let s = db.selectFrom('brand_versions').select(SUMMARY_COLUMNS);
  if (afterSeq !== undefined) s = s.where('seq', '<', afterSeq);
  const rows = await s
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
  return page(rows, limit, summaryFromRow);
}

/** Inserts unless the version or its seq is taken (another publisher won); true when written. */
export async function insertBrandVersion(
  db: Kysely<BrandVersionTables>,
  v: BrandVersionRecord,
): Promise<boolean> {
  const r = await db
    .insertInto('brand_versions')
    .values(rowFromRecord(v))
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
