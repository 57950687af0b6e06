/**
 * The embedded engine: better-sqlite3 in WAL mode with synchronous=FULL (an acknowledged write
 * survives a crash). Every write is a `BEGIN IMMEDIATE` transaction, which also serializes link
 * refreshes across processes sharing the file; search is an FTS5 index kept by triggers. A full
 * disk or an I/O error surfaces as a StoreFailure 503 (failure-driver.ts).
 */
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect as KyselySqlite, sql, type Migration } from 'kysely';
import { privateDir, privateFile, tighten } from '../../core/private-files.js';
import { migrationState, newerSchemaVerdict, type MigrationState } from '../migration-state.js';
import type { Ddl } from '../migrations.js';
import type { Tables } from '../tables.js';
import { LINK_ID } from '../tables.js';
import { WriteHealth } from '../write-health.js';
import type { Dialect } from './dialect.js';
import { failureAware } from './failure-driver.js';
import { Database } from './sqlite-driver.js';
import { cachingDatabase } from './sqlite-statement-cache.js';
import { claimSqlite, immediate } from './sqlite-write.js';

const ddl: Ddl = {
  int8: 'integer',
  bool: 'integer',
  sortText: 'text',
  bytewise: (column) => sql<string>`${sql.ref(column)}`,
  receiptSeq: (c) => c.notNull(),
  // The FTS5 index reads a plain table with a stable integer key (stored_events' own rowid may
  // change on VACUUM); triggers keep both in step with stored_events, in the writer's transaction.
  async searchIndex(db) {
    for (const stmt of [
      sql`create table event_search_docs (id integer primary key, video_id text not null unique, terms text not null)`,
      sql`create virtual table event_search using fts5(terms, content='event_search_docs', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
      sql`create trigger event_search_docs_ai after insert on event_search_docs begin
        insert into event_search(rowid, terms) values (new.id, new.terms); end`,
      sql`create trigger event_search_docs_ad after delete on event_search_docs begin
        insert into event_search(event_search, rowid, terms) values ('delete', old.id, old.terms); end`,
      sql`create trigger event_search_docs_au after update on event_search_docs begin
        insert into event_search(event_search, rowid, terms) values ('delete', old.id, old.terms);
        insert into event_search(rowid, terms) values (new.id, new.terms); end`,
      sql`insert into event_search_docs (video_id, terms) select video_id, search_terms from stored_events`,
      sql`create trigger stored_events_search_ai after insert on stored_events begin
        insert into event_search_docs (video_id, terms) values (new.video_id, new.search_terms); end`,
      sql`create trigger stored_events_search_au after update of search_terms on stored_events
        when old.search_terms is not new.search_terms begin
        update event_search_docs set terms = new.search_terms where video_id = new.video_id; end`,
      sql`create trigger stored_events_search_ad after delete on stored_events begin
        delete from event_search_docs where video_id = old.video_id; end`,
    ])
      await stmt.execute(db);
  },
};

export class SqliteDialect implements Dialect {
  readonly kind = 'sqlite' as const;
  readonly ddl = ddl;
  readonly rowLocks = false;
  readonly db: Kysely<Tables>;
  readonly health = new WriteHealth();
  readonly claim;
  readonly #file: string;
  readonly #dataVersion: BetterSqlite3.Statement;

  constructor(file: string) {
    if (file !== ':memory:') {
      // Owner-only: SQLite gives the -wal and -shm files it makes the database file's mode, so
      // the file is made 0600 before SQLite opens it; ones an older version left are tightened.
      privateDir(path.dirname(file));
      privateFile(file);
      for (const side of ['-wal', '-shm', '-journal']) tighten(`${file}${side}`);
    }
    this.#file = file === ':memory:' ? file : path.resolve(file);
    const raw = new Database(file);
    raw.pragma('journal_mode = WAL');
    // FULL: a commit is on disk before we answer, so an acknowledged write survives kill -9.
    raw.pragma('synchronous = FULL');
    raw.pragma('busy_timeout = 5000');
    raw.pragma('foreign_keys = ON');
    this.db = new Kysely<Tables>({
      dialect: failureAware(new KyselySqlite({ database: cachingDatabase(raw) }), (kind) =>
        this.health.seen(kind),
      ),
    });
    this.#dataVersion = raw.prepare('pragma data_version').pluck();
    this.claim = claimSqlite(this.#file);
  }

  write<T>(fn: (trx: Kysely<Tables>) => Promise<T>): Promise<T> {
    return immediate(this.#file, this.db, fn);
  }

  // The IMMEDIATE transaction already holds the database's write lock.
  lockLink(trx: Kysely<Tables>) {
    return trx.selectFrom('link').selectAll().where('id', '=', LINK_ID).executeTakeFirst();
  }

  bool(b: boolean): number {
    return b ? 1 : 0;
  }

  // Newest first by the index's own key (the order events were stored in), so FTS5 stops after
  // `cap` matches instead of reading and sorting every one.
  async search(words: string[], cap: number): Promise<string[]> {
    // Each word a quoted prefix: words are letters and digits only, so nothing else reaches FTS5's syntax.
    const query = words.map((w) => `"${w}"*`).join(' AND ');
    const { rows } = await sql<{ video_id: string }>`select d.video_id from
      (select rowid as id from event_search where event_search match ${query} order by rowid desc limit ${cap}) m
      join event_search_docs d on d.id = m.id order by m.id desc`.execute(this.db);
    return rows.map((r) => r.video_id);
  }

  // Unique and increasing, so the newest receipt is never a tie (taken inside the write lock).
  receiptSeq() {
    return sql<number>`(select coalesce(max(seq), 0) + 1 from webhook_receipts)`;
  }

  changeStamp(writes: number) {
    // data_version moves only for other connections' commits (the CLI, a second process); ours are counted.
    return { stamp: `${writes}:${String(this.#dataVersion.get())}`, exact: true };
  }

  async migrate(migrations: Record<string, Migration>): Promise<void> {
    // A database a newer release migrated is served as it is, never migrated back (migration-state.ts).
    const known = Object.keys(migrations);
    if (newerSchemaVerdict(await migrationState(this.db, 'sqlite', known), known) === 'serve') return;
    const migrator = new Migrator({
      db: this.db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error('migration failed');
  }

  migrationState(migrations: Record<string, Migration>): Promise<MigrationState> {
    return migrationState(this.db, 'sqlite', Object.keys(migrations));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
