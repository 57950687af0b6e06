/**
 * A Kysely dialect wrapped so that every connection, query and transaction step of the store
 * reports a storage failure (a full disk, an I/O error, the database server gone) as a
 * StoreFailure (../store-failure.ts), whichever repository ran it, and tells `seen` of each one
 * (the store's write health, for readiness). Any other error passes through unchanged.
 */
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import { asStoreFailure, StoreFailure, type StoreFailureKind } from '../store-failure.js';

export function failureAware(inner: Dialect, seen: (kind: StoreFailureKind) => void): Dialect {
  return {
    createDriver: () => new FailureDriver(inner.createDriver(), seen),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
  };
}

type Compile = QueryCompiler['compileQuery'];

class FailureDriver implements Driver {
  readonly #inner: Driver;
  readonly #seen: (kind: StoreFailureKind) => void;
  // One wrapper per driver connection, and back: the inner driver needs its own object to
  // begin, commit and release (node-postgres releases through a private symbol).
  readonly #wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
  readonly #unwrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(inner: Driver, seen: (kind: StoreFailureKind) => void) {
    this.#inner = inner;
    this.#seen = seen;
  }

  async #guard<T>(step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (err) {
      const translated = asStoreFailure(err);
      if (translated instanceof StoreFailure) this.#seen(translated.kind);
      throw translated;
    }
  }

  #in(connection: DatabaseConnection): DatabaseConnection {
    return this.#unwrapped.get(connection) ?? connection;
  }

  init(): Promise<void> {
    return this.#guard(() => this.#inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.#guard(() => this.#inner.acquireConnection());
    let wrapper = this.#wrapped.get(conn);
    if (!wrapper) {
      const guard = <T>(step: () => Promise<T>) => this.#guard(step);
      wrapper = {
        executeQuery: <R>(q: CompiledQuery) => guard(() => conn.executeQuery<R>(q)),
        streamQuery: <R>(q: CompiledQuery, chunkSize?: number) => this.#stream<R>(conn, q, chunkSize),
      };
      this.#wrapped.set(conn, wrapper);
      this.#unwrapped.set(wrapper, conn);
    }
    return wrapper;
  }

  async *#stream<R>(
    conn: DatabaseConnection,
    q: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const it = conn.streamQuery<R>(q, chunkSize);
    for (;;) {
      const next = await this.#guard(() => it.next());
      if (next.done) return;
      yield next.value;
    }
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#guard(() => this.#inner.beginTransaction(this.#in(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard(() => this.#inner.commitTransaction(this.#in(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#guard(() => this.#inner.rollbackTransaction(this.#in(connection)));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    const step = this.#inner.savepoint?.bind(this.#inner);
    if (!step) throw new Error('The `savepoint` method is not supported by this driver');
    return this.#guard(() => step(this.#in(connection), name, compile));
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    const step = this.#inner.rollbackToSavepoint?.bind(this.#inner);
    if (!step) throw new Error('The `rollbackToSavepoint` method is not supported by this driver');
    return this.#guard(() => step(this.#in(connection), name, compile));
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Compile): Promise<void> {
    const step = this.#inner.releaseSavepoint?.bind(this.#inner);
    if (!step) throw new Error('The `releaseSavepoint` method is not supported by this driver');
    return this.#guard(() => step(this.#in(connection), name, compile));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#guard(() => this.#inner.releaseConnection(this.#in(connection)));
  }

  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}
